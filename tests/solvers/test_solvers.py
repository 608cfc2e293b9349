"""The exact solvers, on every backend, agree with plain exhaustive search over the engines
themselves."""

import random

import pytest

from chuko.core.layout import parse_layout
from chuko.core.packs import PACKS
from chuko.games.caravan import Caravan
from chuko.games.crossroads import Crossroads
from chuko.solvers import load_kernels
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver
from chuko.solvers.reference import BACKEND as REFERENCE

# Packs with duplicates, with 1, and with many shared factors.
PACKS_TO_CHECK = [
    PACKS["standard"],
    PACKS["plain"],
    (1, 1, 2, 2, 3, 4, 6, 6, 9, 10, 25, 1),
    (2, 2, 2, 3, 3, 3, 5, 5, 7, 7, 1, 30),
    (1, 5, 7, 11, 13, 35, 77, 143, 55, 65, 91, 1),
]



@pytest.fixture(params=["reference", "compiled"])
def backend(request):
    """Each backend in turn; the compiled one only where numba is installed."""
    if request.param == "reference":
        return REFERENCE
    kernels = load_kernels()
    if kernels is None:
        pytest.skip("the compiled backend needs numba")
    return kernels.BACKEND


def random_layout(rng, pack):
    cards = list(pack)
    rng.shuffle(cards)
    return tuple(cards)


def advance(state, rng, moves):
    for _ in range(moves):
        if not state.to_move:
            break
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))
    return state


def brute_crossroads(state) -> int:
    """Negamax over the engine: my final points minus theirs, from the player to move."""
    if not state.to_move:
        raise AssertionError("called on a finished game")
    seat = state.to_move[0]
    best = None
    for move in state.legal_moves(seat):
        after = state.copy()
        after.play(seat, move)
        if not after.to_move:
            totals = after.totals()
            value = totals[seat] - totals[1 - seat]
        elif after.to_move == (seat,):
            value = brute_crossroads(after)
        else:
            value = -brute_crossroads(after)
        best = value if best is None else max(best, value)
    return best


def brute_caravan(state) -> bool:
    if state.outcome is not None:
        return bool(state.outcome.winners)
    for move in state.legal_moves(0):
        after = state.copy()
        after.play(0, move)
        if brute_caravan(after):
            return True
    return False


@pytest.mark.parametrize("pack", PACKS_TO_CHECK)
def test_c4_crossroads_values_match_exhaustive_search_late_in_the_game(pack, backend):
    rng = random.Random(hash(pack) % 1000)
    for _ in range(12):
        game = Crossroads(deal=random_layout(rng, pack), first=rng.randrange(2))
        state = advance(game.new(), rng, rng.randrange(8, 11))
        solver = CrossroadsSolver(state.layout, backend=backend)
        assert solver.value(state) == brute_crossroads(state)
        for move, value in solver.move_values(state).items():
            after = state.copy()
            after.play(state.to_move[0], move)
            if after.to_move:
                assert value == -brute_crossroads(after)


def test_c4_crossroads_values_of_a_two_round_match_across_the_round_break(backend):
    rng = random.Random(11)
    for _ in range(6):
        game = Crossroads(deal=random_layout(rng, PACKS["standard"]), rounds=2, first=0)
        state = advance(game.new(), rng, 9)
        solver = CrossroadsSolver(state.layout, backend=backend)
        # The rest of round one plus the whole of round two, by brute force on round two's
        # fresh value (round two is a fresh single round).
        fresh = Crossroads(deal=state.layout, first=1).new()
        round_two = CrossroadsSolver(state.layout, backend=backend).fresh_value()
        assert round_two == CrossroadsSolver(fresh.layout, backend=backend).value(fresh)
        value = solver.value(state)
        seat = state.to_move[0]
        single = Crossroads(deal=state.layout, first=0).new()
        for move in state.moves:
            single.play(single.to_move[0], move)
        # round two's first player is seat 1, so seat 0 gets -round_two from it
        assert value == CrossroadsSolver(state.layout, backend=backend).value(single) + (
            -round_two if seat == 0 else round_two
        )


@pytest.mark.slow
def test_c4_crossroads_whole_deals_match_a_memoised_exhaustive_search(backend):
    rng = random.Random(5)
    for pack in PACKS_TO_CHECK[2:4]:
        layout = random_layout(rng, pack)
        state = Crossroads(deal=layout, first=0).new()

        def search(state, memo):
            seat = state.to_move[0]
            # The future depends on the trails' ends only; the key keeps them as cards, in order.
            ends = tuple((t[0], t[-1]) if t else () for t in state.trails)
            key = (state.taken, ends, state.points[0][seat] - state.points[0][1 - seat])
            if key not in memo:
                best = -99
                for move in state.legal_moves(seat):
                    after = state.copy()
                    after.play(seat, move)
                    if after.to_move:
                        value = -search(after, memo)
                    else:
                        totals = after.totals()
                        value = totals[seat] - totals[1 - seat]
                    best = max(best, value)
                memo[key] = best - key[2]
            return memo[key] + key[2]

        assert CrossroadsSolver(layout, backend=backend).fresh_value() == search(state, {})


@pytest.mark.slow
@pytest.mark.parametrize("bridges", [0, 1, 2, 3])
def test_caravan_winnability_matches_exhaustive_search(bridges, backend):
    rng = random.Random(bridges)
    for pack in PACKS_TO_CHECK:
        for _ in range(6):
            state = Caravan(deal=random_layout(rng, pack), bridges=bridges).new()
            state = advance(state, rng, rng.randrange(3, 6))
            solver = CaravanSolver(state.layout, bridges, backend=backend)
            assert solver.winnable(state) == brute_caravan(state)
            for move, wins in solver.options(state).items():
                after = state.copy()
                after.play(0, move)
                assert wins == brute_caravan(after)


def test_caravan_whole_deals_without_bridges_match_exhaustive_search(backend):
    rng = random.Random(8)
    for pack in PACKS_TO_CHECK:
        for _ in range(3):
            state = Caravan(deal=random_layout(rng, pack), bridges=0).new()
            solver = CaravanSolver(state.layout, 0, backend=backend)
            assert solver.winnable(state) == brute_caravan(state)


def test_caravan_solution_wins_when_played_on_the_engine(backend):
    rng = random.Random(3)
    for _ in range(30):
        state = Caravan(deal=random_layout(rng, PACKS["plain"]), bridges=2).new()
        solution = CaravanSolver(state.layout, 2, backend=backend).solution(state)
        if solution is None:
            continue
        for move in solution:
            state.play(0, move)
        assert state.outcome.winners == (0,)


def test_caravan_rule_example_is_still_winnable_or_not_consistently(backend):
    state = Caravan(deal=parse_layout("11 2 3 4 / 6 15 10 7 / 9 14 8 12")).new()
    for move in ("A", "ER*", "FR", "GR"):
        state.play(0, move)
    solver = CaravanSolver(state.layout, 2, backend=backend)
    assert solver.winnable(state) == brute_caravan(state)
