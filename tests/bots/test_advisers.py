"""Hints: each game's adviser, found through its descriptor, labels the moves of the seat to
move with a short phrase a player reads and says why in one sentence."""

import random
import re

import pytest

from chuko.bots import caravan as caravan_bots
from chuko.bots import crossroads as crossroads_bots
from chuko.bots import make_adviser
from chuko.bots.chuchula import about
from chuko.core.deck52 import parse_cards
from chuko.games import chuchula, chuko
from chuko.games.caravan import Caravan
from chuko.games.crossroads import Crossroads
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.chuchula_advisor import advise
from chuko.solvers.crossroads import CrossroadsSolver

# A Crossroads deal whose values tests/bots/test_review.py also reads.
DEAL = "14 30 2 15 / 10 11 8 22 / 9 6 21 7"


def advance(state, rng, moves):
    for _ in range(moves):
        seat = state.to_move[0]
        state.play(seat, rng.choice(state.legal_moves(seat)))
    return state


def after(game, moves):
    state = game.new()
    for move in moves:
        state.play(state.to_move[0], move)
    return state


@pytest.mark.parametrize(
    ("moves", "labels"),
    [
        ([], {"A": "wins by 1 point", "E": "wins by 1 point", "I": "draws"}),
        (["I", "A", "BL", "EL"],
         {"CL": "draws", "CR": "loses by 1 point", "FL": "loses by 2 points",
          "FR": "loses by 2 points", "JL": "draws", "JR": "draws"}),
        (["I", "A", "BL", "EL", "CL", "DL", "JL", "KL", "LR", "FL"],
         {"GL": "draws", "GR": "loses by 1 point"}),
    ],
    ids=["deal", "middle", "last-card"],
)
def test_crossroads_hints_word_each_moves_exact_value(moves, labels):
    game = Crossroads(deal=DEAL, first=0)
    state = after(game, moves)
    hint = make_adviser(game).hint(state, state.to_move[0])
    assert hint["values"] == labels
    best = "wins by 1 point" if not moves else "draws"
    assert hint["note"] == ("Each label is how the game ends for you if both play perfectly "
                            f"from here, points so far included; your best move {best}.")


def test_crossroads_hints_word_the_end_never_a_lead_a_player_behind_does_not_have():
    """A player behind now whose best move still wins is told "wins by", not that they
    keep a lead; checked on every position of seeded random games."""
    rng = random.Random(7)
    behind_and_winning = 0
    for seed in range(6):
        state = Crossroads(first=0).new(seed)
        while state.to_move:
            seat = state.to_move[0]
            labels = list(make_adviser(state.game).hint(state, seat)["values"].values())
            assert all(re.fullmatch(r"wins by \d+ points?|draws|loses by \d+ points?", label)
                       for label in labels), labels
            score = state.totals()
            if score[seat] < score[1 - seat] and any(x.startswith("wins") for x in labels):
                behind_and_winning += 1
            state.play(seat, rng.choice(state.legal_moves(seat)))
    assert behind_and_winning > 0  # the case the wording is about did occur


def test_crossroads_hints_say_which_moves_win_draw_or_lose():
    game = Crossroads(deal=DEAL, first=0)
    state = after(game, ["I", "A", "BL", "EL"])
    hint = make_adviser(game).hint(state, state.to_move[0])
    # The same judgement as the labels, as a word a screen can colour by.
    assert hint["outlook"] == {"CL": "draw", "CR": "loss", "FL": "loss", "FR": "loss",
                               "JL": "draw", "JR": "draw"}
    assert make_adviser(game).hint(game.new(), 0)["outlook"] == {
        "A": "win", "E": "win", "I": "draw"}


def test_crossroads_hints_say_a_lead_of_several_points_with_a_hyphen():
    game = Crossroads(deal=DEAL, first=0)
    hint = make_adviser(game).hint(after(game, ["A", "I", "BL", "EL"]), 0)
    assert hint["values"] == {"CL": "wins by 2 points", "CR": "wins by 1 point",
                              "FL": "draws", "FR": "draws", "JL": "wins by 1 point",
                              "JR": "wins by 1 point"}
    assert hint["note"].endswith("your best move wins by 2 points.")


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


# A Caravan deal with one bridge that the moves below lose at their 11th move.
CARAVAN_DEAL = "30 7 15 22 / 10 2 21 14 / 11 6 9 8"
CARAVAN_MOVES = ["E", "FL", "AL", "GL", "BL", "CR", "HL", "DL", "IL", "JR", "KR", "LL*"]


@pytest.mark.parametrize(
    ("deal", "played", "note"),
    [
        (CARAVAN_DEAL, 0, "Every move keeps the deal winnable."),
        (CARAVAN_DEAL, 1, "8 of 10 moves keep the deal winnable."),
        (CARAVAN_DEAL, 10, "2 of 3 moves keep the deal winnable."),
        (CARAVAN_DEAL, 11, "No move can win this deal any more."),
        ("21 30 8 9 / 14 11 15 7 / 10 22 6 2", 8, "Only 1 of 7 moves keeps the deal winnable."),
    ],
)
def test_caravan_hint_notes_count_the_moves_that_keep_the_deal_winnable(deal, played, note):
    moves = CARAVAN_MOVES if deal == CARAVAN_DEAL else ["A", "BL", "CL", "IL", "JL", "KR", "ER",
                                                        "FL"]
    state = after(Caravan(deal=deal, bridges=1), moves[:played])
    assert make_adviser(state.game).hint(state, 0)["note"] == note


def test_caravan_hints_label_moves_that_keep_or_lose_the_deal():
    state = after(Caravan(deal=CARAVAN_DEAL, bridges=1), CARAVAN_MOVES[:10])
    hint = make_adviser(state.game).hint(state, 0)
    assert hint["values"] == {"KL*": "keeps the deal winnable", "KR": "loses the deal",
                              "KR*": "keeps the deal winnable"}


def test_caravan_hints_say_which_moves_keep_the_deal_and_which_lose_it():
    state = after(Caravan(deal=CARAVAN_DEAL, bridges=1), CARAVAN_MOVES[:10])
    assert make_adviser(state.game).hint(state, 0)["outlook"] == {
        "KL*": "win", "KR": "loss", "KR*": "win"}
    lost = after(Caravan(deal=CARAVAN_DEAL, bridges=1), CARAVAN_MOVES[:11])
    assert set(make_adviser(lost.game).hint(lost, 0)["outlook"].values()) == {"loss"}


def test_caravan_hints_for_the_last_card_say_it_wins_the_deal():
    moves = ["A", "BL", "IL", "JL", "KL", "CR", "ER", "LL", "DR", "FL*", "GL"]
    state = after(Caravan(deal=DEAL, bridges=1), moves)
    hint = make_adviser(state.game).hint(state, 0)
    assert set(hint["values"].values()) == {"wins the deal"}
    assert hint["note"] == "Your only move wins the deal."


def test_caravan_hints_on_a_lost_deal_say_so_of_every_move():
    # Twelve cards that share no prime factor: with no bridges, nothing goes beside the first.
    game = Caravan(deal=(1, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), bridges=0)
    hint = make_adviser(game).hint(game.new(), 0)
    assert set(hint["values"].values()) == {"the deal is already lost"}
    assert hint["note"] == "No move can win this deal any more."


def test_chuchula_hints_give_the_advisors_grouping_and_its_points_in_words():
    game = chuchula.Game(players=3)
    state = game.new(seed=5)
    hint = make_adviser(game).hint(state, 1)
    advice = advise(parse_cards(" ".join(state.view(1)["hand"])), 3)
    ((grouping, label),) = hint["values"].items()
    assert grouping == str(advice.grouping)
    assert re.fullmatch(r"about \d+(\.\d)? points? expected", label)
    assert abs(float(label.split()[1]) - advice.total) <= 0.05
    assert hint["note"] == (f"The advisor expects {label.removesuffix(' expected')} from this "
                            "grouping against typical opponents.")


def test_chuchula_expected_points_are_rounded_to_a_tenth_with_the_right_plural():
    assert about(1.0) == about(0.96) == "about 1 point"
    assert about(1.84) == "about 1.8 points"
    assert about(2.0) == "about 2 points"
    assert about(0.5) == "about 0.5 points"


def test_chuko_hints_are_the_hard_bots_choice_and_take_a_win_in_sight():
    # Seat 0 holds only 9, which may follow 15: playing it wins at once.
    game = chuko.Game(players=2, pack=(9, 14, 15, 2), first=0)
    state = chuko.State(game, [[9], [14]], 15, [2], 0, random.Random(0))
    hint = make_adviser(game).hint(state, 0)
    assert hint == {"values": {"9": "best"}, "note": "The hard bot would play 9."}


def test_chuko_hint_for_a_reset_says_the_hard_bot_would_reset():
    game = chuko.Game(players=2, pack=(9, 14, 15, 2), first=0)
    state = chuko.State(game, [[9], [14]], 15, [2], 0, random.Random(0))
    adviser = make_adviser(game)
    adviser.bot.choose = lambda view, moves: chuko.Move(None)
    assert adviser.hint(state, 0) == {"values": {"reset": "best"},
                                      "note": "The hard bot would reset."}


NOTATION = re.compile(r"[A-L][LR]?\*?|[+-]?\d+|win|lose")
SLIPS = re.compile(r"\b1 points\b|\b1 moves\b|\(s\)|ruling|\bpts\b")


@pytest.mark.parametrize("game", [Crossroads(first=0, rounds=2), Caravan(bridges=1),
                                  chuchula.Game(players=2), chuko.Game(players=3)],
                         ids=["crossroads", "caravan", "chuchula", "chuko"])
@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_hint_labels_are_phrases_without_notation_ids_or_plural_slips(game):
    adviser = make_adviser(game)
    rng = random.Random(3)
    state = game.new(seed=3)
    for _ in range(6):
        seat = state.to_move[0]
        hint = adviser.hint(state, seat)
        for label in hint["values"].values():
            assert not NOTATION.fullmatch(label) and not SLIPS.search(label), label
        assert hint["note"].endswith(".") and not SLIPS.search(hint["note"]), hint["note"]
        if game.id == "chuchula":
            break  # a round of Chuchula is one move per seat, all at once
        state.play(seat, state.random_move(seat, rng))
        if not state.to_move:
            break
