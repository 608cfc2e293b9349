"""The sentences the layout games give each seat about moves and results."""

import random
import re

import pytest

from chuko.core.layout import parse_layout
from chuko.games.caravan import Caravan, CaravanOutcome
from chuko.games.crossroads import Crossroads, CrossroadsOutcome

NAMES = ["Ann", "Bob"]
EXAMPLE = "6 10 30 30 / 15 7 30 30 / 1 1 9 30"


def said(state, seat, move, for_seat):
    """Play `move` for `seat` and return its sentence as `for_seat` reads it."""
    state.play(seat, move)
    return state.describe(seat, move, NAMES, for_seat)


def crossroads_example():
    state = Crossroads(deal=parse_layout(EXAMPLE), first=0).new()
    for seat, move in ((0, "A"), (1, "I"), (0, "ER"), (1, "JL")):
        state.play(seat, move)
    return state


def test_crossroads_a_first_card_starts_the_players_trail():
    state = Crossroads(deal=parse_layout(EXAMPLE), first=0).new()
    assert said(state, 0, "AR", 0) == "You took 6 to start your trail."
    assert said(state, 1, "I", 0) == "Bob took 1 to start their trail."


def test_crossroads_a_scoring_card_names_the_end_the_point_and_the_score_in_seat_order():
    state = crossroads_example()
    assert said(state.copy(), 0, "BR", 0) == "You took 10 to the right end: +1 (2–0)."
    assert said(state.copy(), 0, "BR", 1) == "Ann took 10 to the right end: +1 (2–0)."
    state.play(0, "BR")
    # whoever moves, the score reads in the seats' order, Ann's points first, as every
    # line of the log does
    assert said(state, 1, "CR", None) == "Bob took 30 to the right end: no point (2–0)."
    assert said(state, 0, "FL", 1) == "Ann took 7 to the left end: no point (2–0)."


def test_crossroads_every_line_of_a_game_keeps_the_seats_order_of_the_score():
    state = Crossroads(rounds=2, first=1).new(seed=5)
    rng = random.Random(5)
    while state.to_move:
        seat = state.to_move[0]
        move = state.random_move(seat, rng)
        state.play(seat, move)
        text = state.describe(seat, move, NAMES, 1)
        shown = re.search(r"\((\d+)–(\d+)", text)
        if shown:
            number = (len(state.moves) - 1) // 12
            assert [int(p) for p in shown.groups()] == state.points[number]


def test_crossroads_a_card_that_scores_nothing_says_so():
    assert said(crossroads_example(), 0, "FL", 0) == "You took 7 to the left end: no point (1–0)."


def play_first_legal(state, for_seat):
    """Play the first legal move until the game ends; the sentences, in order."""
    sentences = []
    while state.to_move:
        seat = state.to_move[0]
        sentences.append(said(state, seat, state.legal_moves(seat)[0], for_seat))
    return sentences


def test_crossroads_the_move_ending_round_one_says_the_round_and_who_starts_round_two():
    # Ann (first in round 1) takes A C E G I K = 2 2 2 2 2 1: four points to Bob's three
    state = Crossroads(deal=parse_layout("2 2 2 2 / 2 2 2 2 / 2 1 1 1"), rounds=2, first=0).new()
    sentences = play_first_legal(state, 0)
    assert sentences[11] == ("Bob took 1 to the left end: no point (4–3 in round 1). "
                             "You won round 1 4–3; Bob starts round 2.")
    assert sentences[12] == "Bob took 2 to start their trail."
    assert sentences[-1] == ("You took 1 to the left end: no point (3–4 in round 2). "
                             "The match is a draw, 7–7 (round 1: you won 4–3; "
                             "round 2: Bob won 4–3).")
    assert state.view(1)["finished_rounds"] == [
        {"round": 1, "first": 0, "trails": [[1, 2, 2, 2, 2, 2], [1, 1, 2, 2, 2, 2]],
         "points": [4, 3], "winners": [0],
         "last_move": {"seat": 1, "move": "LL", "card": 1, "end": "L"}}
    ]


def test_crossroads_finished_rounds_are_shown_mid_round_two_and_empty_before():
    state = Crossroads(rounds=2, first=1).new(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        assert state.view(0)["finished_rounds"] == []
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
    (first_round,) = state.view(None)["finished_rounds"]
    assert first_round["first"] == 1 and first_round["points"] == state.points[0]
    assert sorted(first_round["trails"][0] + first_round["trails"][1]) == sorted(state.layout)
    assert state.trails == ([], [])


def test_crossroads_a_drawn_match_says_the_match_first_then_each_round():
    state = Crossroads(deal=(2,) * 12, rounds=2, first=0).new()
    assert play_first_legal(state, None)[-1].endswith(
        "(5–5 in round 2). The match is a draw, 10–10 "
        "(round 1: a draw, 5–5; round 2: a draw, 5–5).")


def test_crossroads_a_one_round_game_ends_with_the_generic_result():
    state = Crossroads(deal=parse_layout("2 2 2 2 / 2 2 2 2 / 2 1 1 1"), first=0).new()
    assert play_first_legal(state, 1)[-1].endswith("(4–3). Ann won 4–3.")
    assert state.outcome.describe(NAMES, 0) == "You won 4–3."


@pytest.mark.parametrize(
    "scores, winners, rounds, for_seat, sentence",
    [
        ((8, 5), (0,), ((5, 2), (3, 3)), 0,
         "You won the match 8–5 (round 1: you won 5–2; round 2: a draw, 3–3)."),
        ((5, 8), (1,), ((2, 5), (3, 3)), 0,
         "Bob won the match 8–5 (round 1: Bob won 5–2; round 2: a draw, 3–3)."),
        ((8, 8), (), ((5, 3), (3, 5)), None,
         "The match is a draw, 8–8 (round 1: Ann won 5–3; round 2: Bob won 5–3)."),
        ((4, 4), (), ((4, 4), (0, 0)), 1,
         "The match is a draw, 4–4 (round 1: a draw, 4–4; round 2: a draw, 0–0)."),
        ((3, 3), (), ((3, 3),), 1, "Draw, 3–3."),
        ((5, 2), (0,), ((5, 2),), 1, "Ann won 5–2."),
    ],
)
def test_crossroads_outcome_wording(scores, winners, rounds, for_seat, sentence):
    outcome = CrossroadsOutcome(scores, winners, "", rounds)
    assert outcome.describe(NAMES, for_seat) == sentence
    assert outcome.to_json()["rounds"] == [list(r) for r in rounds]


def test_crossroads_no_sentence_names_a_seat_number():
    for seed in range(6):
        state = Crossroads(rounds=1 + seed % 2).new(seed=seed)
        rng = random.Random(seed)
        while state.to_move:
            seat = state.to_move[0]
            move = state.random_move(seat, rng)
            state.play(seat, move)
            for for_seat in (0, 1, None):
                text = state.describe(seat, move, NAMES, for_seat)
                assert "seat" not in text.lower() and ("Ann" in text or "Bob" in text or
                                                       "You" in text)


CARAVAN_EXAMPLE = "11 2 3 4 / 6 15 10 7 / 9 14 8 12"


def test_caravan_rule_example_in_words():
    state = Caravan(deal=parse_layout(CARAVAN_EXAMPLE)).new()
    assert [said(state, 0, move, 0) for move in ("AL", "ER*", "FR", "GR")] == [
        "You laid 11 face up to start the caravan.",
        "You laid 6 face down at the right end: bridge 1 of 2.",
        "You laid 15 face up at the right end.",
        "You laid 10 face up at the right end.",
    ]


def test_caravan_a_win_counts_the_bridges_and_a_spectator_reads_the_name():
    state = Caravan(deal=(2,) * 12).new()
    for move in ("A", "BL*", "CL"):
        state.play(0, move)
    last = play_first_legal(state, None)[-1]
    assert last.endswith("face up at the left end. Ann laid all 12 cards in one caravan "
                         "with 1 bridge.")
    assert state.outcome == CaravanOutcome((1,), (0,), state.outcome.reason, 12, 1)
    plain = Caravan(deal=(2,) * 12).new()
    play_first_legal(plain, 0)
    assert plain.outcome.describe(NAMES, 0) == (
        "You laid all 12 cards in one caravan with no bridge.")


def test_caravan_a_stuck_caravan_says_how_many_cards_were_laid():
    state = Caravan(deal=parse_layout("2 3 3 3 / 5 5 5 5 / 7 7 7 7"), bridges=0).new()
    assert said(state, 0, "A", 0) == ("You laid 2 face up to start the caravan. "
                                      "No card can go on: 1 of 12 laid.")
    assert state.outcome.to_json() == {"scores": [0], "winners": [], "laid": 1, "bridges": 0,
                                       "truncated": False, "reason": state.outcome.reason}


def test_caravan_a_bridge_left_at_an_end_is_no_win():
    state = Caravan(deal=(2,) * 12, bridges=11).new()
    for _ in range(11):
        state.play(0, state.legal_moves(0)[0])
    assert said(state, 0, "LR*", 0) == (
        "You laid 2 face down at the right end: bridge 1 of 11. "
        "All 12 cards are laid, but the caravan ends on a bridge: no win.")


def test_replay_captions_are_the_engines_sentences():
    state = Crossroads(deal=parse_layout(EXAMPLE), first=0).new()
    for seat, move in ((0, "A"), (1, "I"), (0, "ER")):
        state.play(seat, move)
    captions = [f["caption"] for f in Crossroads.frames(state.record(), NAMES, 1)]
    assert captions == ["The deal.", "Ann took 6 to start their trail.",
                        "You took 1 to start your trail.",
                        "Ann took 15 to the right end: +1 (1–0)."]
