"""Chükö's sentences: each move and the result as a seat may know it (rulings K6, K7, K8)."""

import random
import re

from chuko.games.chuko import ChukoOutcome, Game, Move, State

NAMES = ["Ann", "Hard bot", "Easy bot"]


def position(hands, top, draw=(), turn_limit=1000):
    """A state dealt exactly these hands, top card and draw pile (next card first), seat 0
    first; the pack is every card used."""
    cards = [c for h in hands for c in h] + [top] + list(draw)
    game = Game(players=len(hands), pack=tuple(cards), first=0, turn_limit=turn_limit)
    return State(game, [list(h) for h in hands], top, list(draw), 0, random.Random(3))


def said(state, seat, move, for_seat):
    """Play `move` and return the sentence `for_seat` reads about it."""
    state.play(seat, move)
    return state.describe(seat, Game.parse_move(move), NAMES[: state.game.players], for_seat)


def test_a_whole_game_reads_as_a_log_for_the_player_and_for_a_spectator():
    state = position([[22, 9], [6, 7]], top=15, draw=[8])
    for seat, move in ((0, "r"), (0, "22"), (1, "6"), (0, "9"), (1, "7")):
        state.play(seat, move)
    record, names = state.record(), NAMES[:2]
    assert [f["caption"] for f in Game.frames(record, names, 0)] == [
        "The deal.",
        "You reset and drew 8.",
        "You played 22 after resetting.",
        "Hard bot played 6. Chükö!",  # ruling K7
        "You played 9. Chükö!",
        "Hard bot played 7. Hard bot won by emptying their hand first.",
    ]
    assert [f["caption"] for f in Game.frames(record, names, None)][1:3] == [
        "Ann reset and drew a card.",  # ruling K6: only the drawer learns the card
        "Ann played 22 after resetting.",
    ]
    assert Game.frames(record, names, 1)[-1]["caption"] == (
        "You played 7. You won by emptying your hand first."
    )


def test_a_card_played_after_a_reset_is_not_a_chuko_unless_the_hand_shrank():  # ruling K7
    state = position([[9], [6]], top=15, draw=[8])
    said(state, 0, "reset", 0)
    assert said(state, 0, "8", 1) == "Ann played 8 after resetting."
    state = position([[22, 2], [6, 7]], top=15)
    assert said(state, 0, "reset", 0) == "You reset with nothing to draw."
    assert said(state, 0, "22", 1) == "Ann played 22 after resetting. Chükö!"


def test_a_free_reset_that_empties_the_hand_says_who_won():  # rulings K2, K5
    state = position([[22], [6]], top=15)
    assert said(state, 0, "reset", None) == "Ann reset with nothing to draw."
    assert said(state, 0, "22", None) == (
        "Ann played 22 after resetting. Ann won by emptying their hand first."
    )


def test_a_recycle_is_told_with_its_size_and_the_drawn_card_to_the_drawer_alone():  # K2, K6
    state = position([[22, 9, 8, 30], [14, 7, 6, 2]], top=15)
    for seat, card in ((0, "9"), (1, "6"), (0, "8"), (1, "14"), (0, "22"), (1, "7")):
        state.play(seat, card)
    state.play(0, "reset")
    drew = state.view(0)["drawn"]
    told = {s: state.describe(0, Move(None), NAMES[:2], s) for s in (None, 0, 1)}
    assert told[0] == (
        "You reset: the play pile was shuffled into a new draw pile of 6 cards and you drew "
        f"{drew}."
    )
    assert told[1] == told[None] == (
        "Ann reset: the play pile was shuffled into a new draw pile of 6 cards and Ann drew "
        "a card."
    )


def test_the_turn_limit_ends_with_nobody_winning_in_words():  # ruling K8
    state = position([[9, 8, 2], [6, 7, 3]], top=15, draw=[10], turn_limit=3)
    said(state, 0, "9", 0)
    said(state, 1, "7", 0)
    assert said(state, 0, "2", 1) == (
        "Ann played 2. Chükö! Nobody won: the turn limit of 3 cards played was reached."
    )
    outcome = ChukoOutcome((0.0, 0.0), (), "The turn limit was reached.", turn_limit=1000)
    assert outcome.describe(NAMES[:2], None) == (
        "Nobody won: the turn limit of 1,000 cards played was reached."
    )


def test_the_outcome_keeps_its_limit_in_json_and_its_reason_names_no_seat():
    state = position([[9, 8, 2], [6, 7, 3]], top=15, draw=[10], turn_limit=3)
    for seat, card in ((0, "9"), (1, "7"), (0, "2")):
        state.play(seat, card)
    assert state.outcome.to_json()["turn_limit"] == 3
    won = position([[22], [6]], top=15)
    won.play(0, "r")
    won.play(0, "22")
    assert won.outcome.to_json()["turn_limit"] is None
    assert not re.search(r"\d|[Ss]eat", won.outcome.reason)


def test_no_sentence_names_a_number_its_reader_may_not_know():  # ruling K6
    """The only numbers a sentence may hold: the card played, the drawer's own card, a
    recycle's size and the turn limit; never a seat number, never a hidden card."""
    rng = random.Random(5)
    for players in (2, 3):
        # Eleven cards and a short limit: recycles, free resets and both endings all occur.
        game = Game(players=players, pack="2-12", turn_limit=15)
        for index in range(15):
            state = game.new(index)
            while state.outcome is None:
                seat = state.to_move[0]
                move = state.random_move(seat, rng)
                state.play(seat, move)
                turn = state.view(seat)["recent"][-1]
                for reader in [None, *range(players)]:
                    text = state.describe(seat, move, NAMES[:players], reader)
                    known = {move.card, len(turn.get("recycled", ())), game.turn_limit}
                    if reader == seat:
                        known.add(turn.get("drew"))
                    numbers = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text)}
                    assert numbers <= known, text
                    assert "seat" not in text.lower()


def test_a_move_given_as_text_is_described_as_its_value():
    state = position([[22, 9], [6, 7]], top=15, draw=[8])
    state.play(0, "9")
    assert state.describe(0, "9", NAMES[:2], 1) == state.describe(0, Move(9), NAMES[:2], 1)
