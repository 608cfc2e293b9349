"""The compiled kernels (solvers/kernels.py) agree with the reference backend, which
test_solvers.py checks against exhaustive search over the engines."""

import random
import sys

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

import chuko.solvers  # noqa: E402
from chuko.core.numbers import prime_factors  # noqa: E402
from chuko.core.packs import PACKS  # noqa: E402
from chuko.games.caravan import Caravan  # noqa: E402
from chuko.games.crossroads import Crossroads  # noqa: E402
from chuko.solvers import kernels  # noqa: E402
from chuko.solvers.caravan import CaravanSolver  # noqa: E402
from chuko.solvers.crossroads import CrossroadsSolver  # noqa: E402
from chuko.solvers.reference import BACKEND as REFERENCE  # noqa: E402

# The named packs, packs with duplicates and with 1 (ruling G1: 1 matches nothing, equal
# cards above 1 match), and one of pairwise coprime cards where little matches.
PACKS_TO_CHECK = {
    "standard": PACKS["standard"],
    "plain": PACKS["plain"],
    "duplicates": (2, 2, 2, 3, 3, 3, 5, 5, 7, 7, 1, 30),
    "ones": (1, 1, 2, 2, 3, 4, 6, 6, 9, 10, 25, 1),
    "coprime": (1, 5, 7, 11, 13, 35, 77, 143, 55, 65, 91, 1),
}


def random_deals(pack: tuple[int, ...], count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = list(pack)
        rng.shuffle(cards)
        deals.append(tuple(cards))
    return deals


def played(state, rng: random.Random, moves: int):
    """`state` after up to `moves` random legal moves."""
    for _ in range(moves):
        if not state.to_move:
            break
        seat = state.to_move[0]
        state.play(seat, rng.choice(state.legal_moves(seat)))
    return state


@pytest.mark.parametrize("bridges", [0, 1, 2, 3])
@pytest.mark.parametrize("pack", PACKS_TO_CHECK.values(), ids=PACKS_TO_CHECK.keys())
def test_v4_caravan_batch_winnability_agrees_with_the_reference(pack, bridges):
    deals = random_deals(pack, 120, seed=bridges)
    wins = kernels.caravan_winnable_batch(np.array(deals), bridges)
    expected = [CaravanSolver(d, bridges, backend=REFERENCE).fresh() for d in deals]
    assert wins.tolist() == expected


@pytest.mark.parametrize("pack", PACKS_TO_CHECK.values(), ids=PACKS_TO_CHECK.keys())
def test_c4_crossroads_batch_values_agree_with_the_reference(pack):
    deals = random_deals(pack, 12, seed=7)
    values = kernels.crossroads_values_batch(np.array(deals))
    assert values.tolist() == [
        CrossroadsSolver(d, backend=REFERENCE).fresh_value() for d in deals
    ]


def test_c3_two_round_batch_values_agree_with_the_reference():
    deals = random_deals(PACKS["standard"], 6, seed=8) + random_deals(PACKS["plain"], 4, seed=9)
    values = kernels.crossroads_values_batch(np.array(deals), rounds=2)
    for deal, value in zip(deals, values, strict=True):
        start = Crossroads(deal=deal, rounds=2, first=0).new()
        assert value == CrossroadsSolver(deal, backend=REFERENCE).value(start)


@pytest.mark.parametrize("pack", PACKS_TO_CHECK.values(), ids=PACKS_TO_CHECK.keys())
def test_c4_compiled_solver_values_mid_game_agree_with_the_reference(pack):
    rng = random.Random(3)
    for rounds in (1, 2):
        for deal in random_deals(pack, 3, seed=rounds):
            state = played(Crossroads(deal=deal, rounds=rounds, first=0).new(), rng,
                           rng.randrange(0, 12 * rounds - 1))
            compiled = CrossroadsSolver(deal, backend=kernels.BACKEND)
            pure = CrossroadsSolver(deal, backend=REFERENCE)
            assert compiled.value(state) == pure.value(state)
            assert compiled.move_values(state) == pure.move_values(state)


@pytest.mark.parametrize("bridges", [0, 1, 2, 3])
@pytest.mark.parametrize("pack", PACKS_TO_CHECK.values(), ids=PACKS_TO_CHECK.keys())
def test_v4_compiled_solver_mid_game_agrees_with_the_reference(pack, bridges):
    rng = random.Random(bridges)
    for deal in random_deals(pack, 8, seed=bridges + 10):
        state = played(Caravan(deal=deal, bridges=bridges).new(), rng, rng.randrange(0, 6))
        compiled = CaravanSolver(deal, bridges, backend=kernels.BACKEND)
        pure = CaravanSolver(deal, bridges, backend=REFERENCE)
        assert compiled.winnable(state) == pure.winnable(state)
        assert compiled.options(state) == pure.options(state)
        solution = compiled.solution(state)
        if solution is not None:  # the kernel's winning line wins on the engine
            for move in solution:
                state.play(0, move)
            assert state.outcome.winners == (0,)


def test_solvers_interleaved_on_the_shared_memo_keep_their_own_deals_apart():
    deals = random_deals(PACKS["standard"], 4, seed=21)
    solvers = [CrossroadsSolver(d, backend=kernels.BACKEND) for d in deals]
    caravans = [CaravanSolver(d, 1, backend=kernels.BACKEND) for d in deals]
    # Ask each solver twice, alternating deals, so every solver meets the others' entries.
    for _ in range(2):
        for deal, solver, caravan in zip(deals, solvers, caravans, strict=True):
            assert solver.fresh_value() == CrossroadsSolver(
                deal, backend=REFERENCE).fresh_value()
            assert caravan.fresh() == CaravanSolver(deal, 1, backend=REFERENCE).fresh()


def test_g1_layout_classes_group_cards_that_match_the_same_cards():
    layout = np.array([1, 1, 2, 4, 8, 3, 9, 6, 12, 5, 25, 10])
    classes, match = kernels.layout_classes(layout)
    cards = layout.tolist()
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            assert match[classes[i], classes[j]] == bool(set(prime_factors(a)) &
                                                         set(prime_factors(b)))
            if prime_factors(a) == prime_factors(b):
                assert classes[i] == classes[j]
    assert classes[0] == classes[1] and not match[classes[0]].any()  # ruling G1: 1s
    assert len(set(classes.tolist())) == match.shape[0] == 6  # {1} {2} {3} {2,3} {5} {2,5}


def test_kernels_refuse_bad_batches_with_a_sentence():
    with pytest.raises(ValueError, match="shape"):
        kernels.caravan_winnable_batch(np.array([[2, 3, 4]]), 2)
    with pytest.raises(ValueError, match="positive"):
        kernels.crossroads_values_batch(np.zeros((1, 12), dtype=np.int64))
    with pytest.raises(ValueError, match="bridge limit"):
        kernels.caravan_winnable_batch(np.array([PACKS["plain"]]), 12)
    with pytest.raises(ValueError, match="rounds"):
        kernels.crossroads_values_batch(np.array([PACKS["plain"]]), rounds=3)
    assert kernels.caravan_winnable_batch(np.zeros((0, 12), dtype=np.int64), 2).size == 0


def test_kernels_run_as_plain_python_give_the_same_answers(monkeypatch):
    """Every compiled function replaced by its Python source (`py_func`), so the code the
    compiler sees is itself checked on a few deals."""
    for name, value in list(vars(kernels).items()):
        if isinstance(value, CPUDispatcher):
            monkeypatch.setattr(kernels, name, value.py_func)
    caravans = random_deals(PACKS["plain"], 3, seed=4)
    assert kernels.caravan_winnable_batch(np.array(caravans), 2).tolist() == [
        CaravanSolver(d, 2, backend=REFERENCE).fresh() for d in caravans
    ]
    crossroads = random_deals(PACKS_TO_CHECK["duplicates"], 2, seed=5)
    assert kernels.crossroads_values_batch(np.array(crossroads)).tolist() == [
        CrossroadsSolver(d, backend=REFERENCE).fresh_value() for d in crossroads
    ]


def test_solvers_search_on_the_kernels_by_default_when_numba_loads():
    deal = random_deals(PACKS["standard"], 1, seed=6)[0]
    assert CrossroadsSolver(deal).backend is kernels.BACKEND
    assert CaravanSolver(deal, 2).backend is kernels.BACKEND


def test_without_numba_the_solvers_fall_back_to_the_reference_search(monkeypatch):
    deal = random_deals(PACKS["standard"], 1, seed=6)[0]
    # The kernels' answers first: loading them from numba's cache needs numba itself.
    value = kernels.crossroads_values_batch(np.array([deal]))[0]
    winnable = kernels.caravan_winnable_batch(np.array([deal]), 2)[0]
    monkeypatch.setitem(sys.modules, "numba", None)  # makes `import numba` fail
    monkeypatch.delitem(sys.modules, "chuko.solvers.kernels")
    monkeypatch.delattr(chuko.solvers, "kernels")
    assert chuko.solvers.load_kernels() is None
    solver = CrossroadsSolver(deal)
    assert solver.backend is REFERENCE
    assert solver.fresh_value() == value
    caravan = CaravanSolver(deal, 2)
    assert caravan.backend is REFERENCE
    assert caravan.fresh() == winnable


def test_warm_up_readies_every_entry_point_the_solvers_and_batches_call():
    kernels.warm_up()
    for entry in (kernels._caravan_batch, kernels._crossroads_batch,
                  kernels.caravan_position, kernels.crossroads_position):
        assert entry.signatures, entry.__name__
