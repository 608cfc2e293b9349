"""The post-game review of the layout games: one verdict per move of a record, in words, from
the exact solver, found through the game's descriptor (tests/bots/test_opinion_review.py:
the reviews of the games without an exact solver)."""

import random

import pytest

from chuko import bots
from chuko.bots import caravan as caravan_bots
from chuko.bots import crossroads as crossroads_bots
from chuko.bots import make_bot
from chuko.games import game_class
from chuko.games.caravan import Caravan
from chuko.games.crossroads import Crossroads
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver

BEST = {"text": "best", "mistake": False}
KEEPS = {"text": "keeps the deal winnable", "mistake": False}
LOST = {"text": "the deal was already lost", "mistake": False}

DEAL = "14 30 2 15 / 10 11 8 22 / 9 6 21 7"
# Caravan, one bridge: the 11th move (9 face up at the right end) loses a winnable deal.
CARAVAN_DEAL = "30 7 15 22 / 10 2 21 14 / 11 6 9 8"
CARAVAN_MOVES = ["E", "FL", "AL", "GL", "BL", "CR", "HL", "DL", "IL", "JR", "KR", "LL*"]


def played(game, moves):
    state = game.new()
    for move in moves:
        state.play(state.to_move[0], move)
    return state


def finish(state, level="perfect", seed=0):
    """Play `state` to its end with bots of `level`."""
    rng = random.Random(seed)
    bot = make_bot(state.game.id, level, rng)
    while state.to_move:
        seat = state.to_move[0]
        state.play(seat, bot.choose(state.view(seat), state.legal_moves(seat)))
    return state


def test_crossroads_review_names_each_mistake_with_a_best_move_and_what_it_kept():
    game = Crossroads(deal=DEAL, first=0)
    moves = ["I", "A", "BL", "EL", "CL", "DL", "JL", "KL", "LR", "FL", "GR", "HL"]
    record = played(game, moves).record()
    assert bots.review(game, record) == [
        {"text": "lost 1 point: taking 14 to start the trail would have won by 1 point "
                 "instead of drawing", "mistake": True, "better": "A"},
        *[BEST] * 9,
        {"text": "lost 1 point: taking 8 to the left end would have drawn instead of losing "
                 "by 1 point", "mistake": True, "better": "GL"},
        BEST,
    ]
    # The last mistake checked on the engine: 8 beside 6 at the left end would have drawn.
    assert played(game, moves).totals() == (3, 4)
    assert played(game, [*moves[:10], "GL", "HL"]).totals() == (4, 4)


@pytest.mark.parametrize("rounds", [1, 2])
@pytest.mark.parametrize("seed", [1, 2])
def test_crossroads_review_of_the_perfect_bots_game_is_all_best(rounds, seed):
    game = Crossroads(rounds=rounds, first=seed % 2)
    record = finish(game.new(seed=seed), seed=seed).record()
    assert crossroads_bots.review(record) == [BEST] * 12 * rounds


@pytest.mark.parametrize(("best", "played", "words"), [
    (1, 0, "would have won by 1 point instead of drawing"),
    (3, 1, "would have won by 3 points instead of 1"),
    (2, -1, "would have won by 2 points instead of losing by 1 point"),
    (0, -2, "would have drawn instead of losing by 2 points"),
    (-1, -3, "would have lost by only 1 point instead of 3"),
])
def test_a_better_move_is_worded_by_how_the_game_would_have_ended(best, played, words):
    # By the end of the game, for a mover ahead, level or behind when the move was made:
    # never "kept a lead" that the mover did not have.
    assert crossroads_bots.missed(best, played) == words


def test_a_match_review_judges_round_one_and_round_two_each_on_its_own_position():
    game = Crossroads(deal=DEAL, first=0, rounds=2)
    # Perfect play in each round up to its last card, which goes to the end that scores
    # nothing: 22 beside 21 instead of beside 11. Round two deals the same layout.
    perfect = ["A", "B", "EL", "CL", "DL", "IR", "JL", "KR", "LR", "FL", "GL"]
    assert played(game, [*perfect, "HL"]).points[0] == [5, 4]
    state = played(game, [*perfect, "HR"] * 2)
    assert state.points == [[5, 3], [3, 5]]
    verdicts = bots.review(game, state.record())
    assert len(verdicts) == len(state.moves) == 24
    assert verdicts == [
        *[BEST] * 11,
        {"text": "lost 1 point: taking 22 to the left end would have drawn instead of losing "
                 "by 1 point", "mistake": True, "better": "HL"},
        *[BEST] * 11,
        {"text": "lost 1 point: taking 22 to the left end would have won by 1 point instead "
                 "of drawing", "mistake": True, "better": "HL"},
    ]


def test_caravan_review_marks_the_move_that_lost_the_deal_and_names_one_that_kept_it():
    game = Caravan(deal=CARAVAN_DEAL, bridges=1)
    record = played(game, CARAVAN_MOVES).record()
    assert bots.review(game, record) == [
        *[KEEPS] * 10,
        {"text": "after this the deal could no longer be won; laying 9 face down at the left "
                 "end would have kept it winnable", "mistake": True, "better": "KL*"},
        LOST,
    ]


def can_win(state):
    """Whether the engine lets `state` be finished with a win, trying every move."""
    if state.outcome is not None:
        return bool(state.outcome.winners)
    return any(can_win(played_on(state, m)) for m in state.legal_moves(0))


def played_on(state, move):
    after = state.copy()
    after.play(0, move)
    return after


def test_caravan_reviews_verdicts_hold_on_the_engine():
    game = Caravan(deal=CARAVAN_DEAL, bridges=1)
    assert can_win(played(game, CARAVAN_MOVES[:10]))
    assert not can_win(played(game, CARAVAN_MOVES[:11]))
    assert can_win(played(game, [*CARAVAN_MOVES[:10], "KL*"]))


@pytest.mark.parametrize("deal", [CARAVAN_DEAL, DEAL])
def test_caravan_review_of_a_perfect_win_keeps_the_deal_winnable_to_the_winning_card(deal):
    state = finish(Caravan(deal=deal, bridges=1).new(), seed=4)
    assert state.outcome.winners == (0,)
    assert caravan_bots.review(state.record()) == [*[KEEPS] * 11,
                                                   {"text": "wins the deal", "mistake": False}]


def test_caravan_review_of_a_deal_lost_from_the_start_blames_no_move():
    # Twelve cards that share no prime factor: one bridge cannot join them all.
    game = Caravan(deal=(1, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), bridges=1)
    assert not CaravanSolver(game.deal, 1).fresh()
    record = finish(game.new(), level="random", seed=5).record()
    assert record["moves"]
    assert caravan_bots.review(record) == [LOST] * len(record["moves"])


@pytest.mark.parametrize(("module", "game", "solver"),
                         [(crossroads_bots, Crossroads(rounds=2, first=0), CrossroadsSolver),
                          (caravan_bots, Caravan(bridges=2), CaravanSolver)],
                         ids=["crossroads", "caravan"])
def test_a_review_makes_one_solver_for_the_whole_record(monkeypatch, module, game, solver):
    record = finish(game.new(seed=6), level="easy", seed=6).record()
    made = []

    def counted(*args):
        made.append(args)
        return solver(*args)

    monkeypatch.setattr(module, solver.__name__, counted)
    assert len(module.review(record)) == len(record["moves"])
    assert len(made) == 1


def test_an_unplayed_record_has_no_verdicts():
    game = Crossroads(deal=DEAL, first=1)
    assert bots.review(game, game.new().record()) == []


@pytest.mark.parametrize("game_id", ["takeaway", "goofspiel"])
def test_games_without_a_review_give_none(game_id):
    game = game_class(game_id).from_options({})  # plug-ins from tests/plugins
    assert bots.review(game, game.new(seed=1).record()) is None
