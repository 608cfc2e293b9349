"""The engines word every sentence a person reads as one Text: its message id is a literal
the catalogues extract, its English is the sentence as it always read, and it crosses a
process boundary whole."""

import ast
import datetime
import pickle
import random
from functools import cache
from pathlib import Path

import pytest

import chuko
from chuko.core.descriptor import Option
from chuko.core.errors import ChukoError, IllegalMove
from chuko.core.layout import parse_layout
from chuko.core.numbers import pair_words
from chuko.core.packs import parse_pack
from chuko.core.text import Plural, Text
from chuko.core.words import bot_name, count, listing, seat_names, who, whose
from chuko.games.chuko import Game, State
from chuko.i18n import words
from chuko.i18n.extract import template
from chuko.practice.daily import share_line

# Extracts the engines' domain and plays games for each reader: seconds, so in
# `make test`.
pytestmark = pytest.mark.slow


@cache
def extracted() -> frozenset[str]:
    """The engines domain's message ids (a plural by its singular)."""
    return frozenset(message.id if isinstance(message.id, str) else message.id[0]
                     for message in template("engines") if message.id)


def catalogued(text: object) -> bool:
    """Whether `text` is a Text whose id, and every Text parameter's in turn, is extracted."""
    if not isinstance(text, Text) or text.msgid not in extracted():
        return False
    return all(catalogued(param) for param in text.params.values() if isinstance(param, Text))


def refusal(action) -> Text:
    with pytest.raises(ChukoError) as raised:
        action()
    (said,) = raised.value.args
    assert catalogued(said), said
    return said


def position(hands, top, draw=(), first=0, turn_limit=1000):
    cards = [c for h in hands for c in h] + [top] + list(draw)
    game = Game(players=len(hands), pack=tuple(cards), first=first, turn_limit=turn_limit)
    return State(game, [list(h) for h in hands], top, list(draw), first, random.Random(0))


def test_every_refusal_of_a_chuko_move_is_a_catalogued_text_in_todays_english():
    state = position([[21, 9], [8, 6]], top=10, draw=[14])
    refusals = {
        "21 cannot follow 10: it shares no prime factor with it and is not lower; reset to "
        "play it anyway.": lambda: state.play(0, "21"),
        "8 is not in your hand.": lambda: state.play(0, "8"),
        "It is not your turn.": lambda: state.play(1, "8"),
        "'x' is not a move: type a card's number (e.g. 15) to play it, or 'reset' (r) to draw "
        "a card and then play any card.": lambda: state.play(0, "x"),
        "3.5 is not a Chükö move.": lambda: state.play(0, 3.5),
        "Nothing is left to chance here.": lambda: state.apply_chance(14),
        "The draw pile is not empty, so nothing is recycled.": lambda: state.reset([10]),
    }
    for english, action in refusals.items():
        assert refusal(action) == english
    state.play(0, "reset")
    assert refusal(state.reset) == "You have already drawn for this reset: now play any card."
    state.play(0, "21")
    state.play(1, "6")
    state.play(0, "9")
    state.play(1, "8")
    assert refusal(lambda: state.play(0, "14")) == "The game is over."


def test_a_chuko_game_is_described_in_catalogued_texts_for_each_reader():
    state = position([[22, 9, 8, 30], [14, 7, 6, 2]], top=15)
    names = ["ann", "Bob"]
    moves = [(0, "9"), (1, "6"), (0, "8"), (1, "14"), (0, "22"), (1, "7"), (0, "reset"),
             (0, "30"), (1, "2")]
    said = {None: [], 0: [], 1: []}
    for seat, move in moves:
        state.play(seat, move)
        for reader in said:
            text = state.describe(seat, move, names, reader)
            assert catalogued(text), text
            said[reader].append(text)
    assert said[1][-1] == "You played 2. You won by emptying your hand first."
    assert said[0][-1] == "Bob played 2. Bob won by emptying their hand first."
    assert said[None][6].startswith("ann reset: the play pile was shuffled into a new draw "
                                    "pile of 6 cards and ann drew a card.")
    assert said[0][6].startswith("You reset: the play pile was shuffled into a new draw "
                                 "pile of 6 cards and you drew ")
    assert said[None][4] == "ann played 22. Chükö!"
    assert said[None][7] == "ann played 30 after resetting."


def test_configurations_deals_and_records_refuse_in_catalogued_texts():
    sentences = {
        "Chükö needs at least two players.": lambda: Game(players=1),
        "A pack of 3 cards cannot be dealt to 3 players: each needs at least one card and one "
        "more must start the play pile, so it serves at most 2 players.":
            lambda: Game(players=3, pack=(2, 3, 4)),
        "The turn limit is a number of turns from 1 to 100,000 (or none).":
            lambda: Game(turn_limit=0),
        "The range 9-2 runs backwards: write the low end first.": lambda: parse_pack("9-2"),
        "Cards go up to 1,000,000.": lambda: parse_pack("2000000"),
        "Row 1 of the deal has 3 card(s); it needs four.":
            lambda: parse_layout("1 2 3 / 1 2 3 4 / 1 2 3 4"),
        "That record is not a Chükö game.": lambda: Game.replay({"game": "other"}),
        "Turns must be a whole number from 1 to 9, not 12.":
            lambda: Option("turns", "Turns", "int", 3, min=1, max=9).value("12"),
    }
    for english, action in sentences.items():
        assert refusal(action) == english


def test_a_replayed_turns_refusal_keeps_its_own_sentence_inside_the_records():
    game = Game(players=2, first=0)
    record = game.new(seed=1).record()
    record["turns"] = [{"seat": 1, "kind": "play", "card": 2}]
    said = refusal(lambda: Game.replay(record))
    assert said == "Turn 1 of the record: it is not seat 1's turn."
    assert said.params["error"].msgid == "it is not seat {seat}'s turn."


def test_the_factor_sentence_is_whole_with_its_numbers_as_parameters():
    said = pair_words(21, 10)
    assert said == "21 and 10 share no prime factor: 21 is 3 × 7, 10 is 2 × 5"
    assert said.msgid == "{a} and {b} share no prime factor: {a_factors}, {b_factors}"
    assert catalogued(said)
    assert pair_words(30, 60).startswith("30 and 60 share the prime factors 2 and 3 and 5:")


def test_the_words_engines_build_from_are_catalogued_and_read_as_before():
    names = ["ann", "Bob", "Cy"]
    assert who(0, names, 0) == "You" and who(1, names, 0) == "Bob"
    assert whose(0, names, 0) == "your" and whose(1, names, 0) == "Bob's"
    assert listing(["a", "b", "c", "d"]) == "a, b, c and d"
    assert listing(["a"]) == "a" and listing([]) == ""
    assert count(1_000, "card") == "1,000 cards" and count(1, "point") == "1 point"
    assert isinstance(count(2, "round"), Plural)
    assert bot_name("hard") == "Hard bot"
    assert seat_names([bot_name("easy"), bot_name("easy")]) == ["Easy bot 1", "Easy bot 2"]
    for text in (who(0, names, 0), whose(1, names, 0), listing(["a", "b", "c"]),
                 count(3, "card"), bot_name("perfect"), seat_names([bot_name("easy")] * 2)[1]):
        assert catalogued(text), text


def test_the_daily_share_line_is_one_catalogued_sentence():
    day = datetime.date(2026, 12, 2)
    line = share_line(day, True, 1, 1, 192)
    assert line == "chuko daily Caravan 2026-12-02: won with 1 bridge (par 1) in 3:12"
    assert catalogued(line)
    assert catalogued(share_line(day, False, 0, 0, None))


def test_texts_and_the_refusals_carrying_them_survive_pickle():
    said = pair_words(22, 14)
    again = pickle.loads(pickle.dumps(said))
    assert again == said and again.msgid == said.msgid and again.params == said.params
    counted = pickle.loads(pickle.dumps(count(3, "card")))
    assert isinstance(counted, Plural) and counted.plural == "{n:,} cards"
    error = pickle.loads(pickle.dumps(IllegalMove(Text("{card} is not in your hand.", card=8))))
    assert error.args[0].msgid == "{card} is not in your hand."


def test_english_says_every_engine_text_as_it_reads():
    english = words("en")
    state = position([[21, 9], [8, 6]], top=10, draw=[14])
    texts = [pair_words(21, 10), count(1_000, "card"), listing(["a", who(0, ["x"], 0), "c"]),
             refusal(lambda: state.play(0, "21")), refusal(lambda: parse_pack("")),
             refusal(lambda: Game(players=3, pack=(2, 3, 4)))]
    state.play(0, "9")
    texts.append(state.describe(0, "9", ["ann", "Bob"], 1))
    for text in texts:
        assert english.say(text) == text


# The modules whose refusals these tests hold to a Text (other games word theirs apart).
WORDED = ["core/deck52.py", "core/descriptor.py", "core/layout.py", "core/numbers.py",
          "core/packs.py", "core/protocol.py", "core/words.py", "games/__init__.py",
          "games/chuko.py", "practice/daily.py", "bots/chuko.py", "bots/policy.py"]
REFUSALS = {"ChukoError", "ConfigError", "IllegalMove", "ParseError"}


@pytest.mark.parametrize("module", WORDED)
def test_no_refusal_of_these_modules_is_plain_english(module):
    source = (Path(chuko.__file__).parent / module).read_text(encoding="utf-8")
    plain = [node.lineno for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
             and getattr(node.exc.func, "id", None) in REFUSALS and node.exc.args
             and isinstance(node.exc.args[0], ast.JoinedStr | ast.Constant)]
    assert plain == [], f"{module}: a refusal raised with a str, not a Text, at lines {plain}"


def test_chukos_menu_words_are_catalogued():
    described = Game.descriptor
    shown = [described.summary, *(pool.label for pool in described.pools)]
    for option in described.options:
        shown += [option.label, option.help]
    for text in shown:
        assert catalogued(text), text
