"""Hints: each game's adviser, found through its descriptor, labels the moves of the seat to
move and says why in one sentence."""

import random

import pytest

from chuko.bots import caravan as caravan_bots
from chuko.bots import crossroads as crossroads_bots
from chuko.bots import make_adviser
from chuko.core.deck52 import parse_cards
from chuko.games import chuchula, chuko
from chuko.games.caravan import Caravan
from chuko.games.crossroads import Crossroads
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.chuchula_advisor import advise
from chuko.solvers.crossroads import CrossroadsSolver


def advance(state, rng, moves):
    for _ in range(moves):
        seat = state.to_move[0]
        state.play(seat, rng.choice(state.legal_moves(seat)))
    return state


def test_crossroads_hints_are_the_exact_value_of_every_move():
    game = Crossroads(first=0)
    state = advance(game.new(seed=4), random.Random(4), 5)
    seat = state.to_move[0]
    hint = make_adviser(game).hint(state, seat)
    values = CrossroadsSolver(state.layout).move_values(state)
    assert hint["values"] == {str(m): f"{v:+d}" if v else "0" for m, v in values.items()}
    best = max(values.values())
    assert hint["note"].endswith(f"the best is {best:+d}." if best else "the best is a draw.")


@pytest.mark.parametrize(
    ("game", "module", "solver"),
    [(Crossroads(first=0), crossroads_bots, CrossroadsSolver),
     (Caravan(bridges=2), caravan_bots, CaravanSolver)],
    ids=["crossroads", "caravan"],
)
def test_a_layout_adviser_keeps_one_solver_for_every_position_of_a_deal(
    monkeypatch, game, module, solver
):
    made = []

    def counted(*args):
        made.append(args)
        return solver(*args)

    monkeypatch.setattr(module, solver.__name__, counted)
    adviser = make_adviser(game)
    rng = random.Random(2)
    for seed in (1, 2):
        state = game.new(seed=seed)
        for _ in range(4):
            adviser.hint(state, state.to_move[0])
            advance(state, rng, 1)
    assert len(made) == 2  # one per deal


def test_caravan_hints_say_which_moves_keep_the_deal_winnable():
    game = Caravan(bridges=1)
    state = advance(game.new(seed=9), random.Random(9), 2)
    hint = make_adviser(game).hint(state, 0)
    options = CaravanSolver(state.layout, 1).options(state)
    assert hint["values"] == {str(m): "win" if ok else "lose" for m, ok in options.items()}
    winning = sum(options.values())
    assert hint["note"] == (
        f"{winning} of your {len(options)} moves keep the deal winnable." if winning
        else "No move can win this deal any more."
    )


def test_caravan_hints_on_a_lost_deal_say_no_move_can_win():
    # Twelve cards that share no prime factor: with no bridges, nothing goes beside the first.
    game = Caravan(deal=(1, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), bridges=0)
    hint = make_adviser(game).hint(game.new(), 0)
    assert set(hint["values"].values()) == {"lose"}
    assert hint["note"] == "No move can win this deal any more."


def test_chuchula_hints_are_the_advisors_grouping_for_the_seats_hand():
    game = chuchula.Game(players=3)
    state = game.new(seed=5)
    hint = make_adviser(game).hint(state, 1)
    advice = advise(parse_cards(" ".join(state.view(1)["hand"])), 3)
    assert hint["values"] == {str(advice.grouping): f"{advice.total:.2f} points expected"}
    assert f"{advice.total:.2f} points" in hint["note"]


def test_chuko_hints_are_the_hard_bots_choice_and_take_a_win_in_sight():
    # Seat 0 holds only 9, which may follow 15: playing it wins at once.
    game = chuko.Game(players=2, pack=(9, 14, 15, 2), first=0)
    state = chuko.State(game, [[9], [14]], 15, [2], 0, random.Random(0))
    hint = make_adviser(game).hint(state, 0)
    assert hint == {"values": {"9": "best"}, "note": "The hard bot would play 9."}
