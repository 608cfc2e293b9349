"""The sentences Chuchula, Crossroads, Caravan, their bots, lessons and puzzles build for
people are Texts: each message id (and every Text among its parameters) is in the catalogue
the sources extract, and English says them exactly as they read."""

import random
from functools import cache

import pytest

from chuko.bots import caravan, chuchula, crossroads
from chuko.core.errors import ChukoError
from chuko.core.layout import LayoutMove, parse_layout
from chuko.core.text import Plural, Text
from chuko.games.caravan import Caravan, CaravanOutcome
from chuko.games.chuchula import Game as Chuchula
from chuko.games.chuchula import Grouping, GroupType, order_problem
from chuko.games.crossroads import Crossroads
from chuko.i18n.extract import template
from chuko.i18n.words import words
from chuko.practice.lessons import lesson
from chuko.practice.puzzles import judge, shipped

# Plays whole games for every reader and extracts the engines' domain: seconds, so in
# `make test`.
pytestmark = pytest.mark.slow

DEAL = "10 15 22 2 / 9 21 6 11 / 7 14 8 30"
NAMES = ["Ann", "Bob", "Cy", "Di"]


@cache
def catalogued(domain: str) -> frozenset[str]:
    return frozenset(str(m.id[0] if isinstance(m.id, tuple) else m.id)
                     for m in template(domain) if m.id)


def texts_in(text: Text) -> list[Text]:
    """`text` and every Text among its parameters, however deep."""
    found = [text]
    for param in text.params.values():
        if isinstance(param, Text):
            found += texts_in(param)
    return found


def assert_said(sentence: object, domain: str = "engines") -> None:
    """A Text whose every message id is catalogued, that English says as it reads."""
    assert isinstance(sentence, Text), repr(sentence)
    missing = [t.msgid for t in texts_in(sentence) if t.msgid not in catalogued(domain)]
    assert not missing, missing
    assert words("en").say(sentence) == sentence


def refusal(action, *args) -> Text:
    with pytest.raises(ChukoError) as raised:
        action(*args)
    return raised.value.args[0]


def play_out(state, rng: random.Random):
    """Each move of a random game, with the state after it."""
    while state.to_move:
        seat = state.to_move[0]
        move = rng.choice(state.legal_moves(seat))
        state.play(seat, move)
        yield seat, move


@pytest.mark.parametrize("seed", range(6))
def test_every_caravan_move_and_result_is_a_catalogued_text_for_the_player_and_a_watcher(seed):
    state = Caravan().new(seed)
    for seat, move in play_out(state, random.Random(seed)):
        for for_seat in (0, None):
            assert_said(state.describe(seat, move, ["Ann"], for_seat))
    assert_said(state.outcome.reason)
    assert_said(state.outcome.describe(["Ann"], 0))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rounds", [1, 2])
def test_every_crossroads_move_and_result_is_a_catalogued_text_for_each_reader(seed, rounds):
    state = Crossroads(rounds=rounds).new(seed)
    for seat, move in play_out(state, random.Random(seed)):
        for for_seat in (0, 1, None):
            assert_said(state.describe(seat, move, NAMES[:2], for_seat))
    assert_said(state.outcome.reason)


@pytest.mark.parametrize("players", [2, 4])
def test_every_chuchula_commit_round_and_ranking_is_a_catalogued_text(players):
    state = Chuchula(players=players, length=2).new(players)
    rng = random.Random(players)
    while state.to_move:
        for seat in state.to_move:
            move = state.random_move(seat, rng)
            state.play(seat, move)
            for for_seat in (*range(players), None):
                assert_said(state.describe(seat, move, NAMES[:players], for_seat))
                assert_said(state.describe_revealed(seat, move, NAMES[:players], for_seat))
    assert_said(state.outcome.reason)
    assert_said(state.game.round_heading(2))


def test_layout_refusals_are_catalogued_texts_and_read_as_before():
    caravan = Caravan(deal=parse_layout(DEAL), bridges=1).new()
    assert refusal(caravan.play, 0, "B") == (
        "B is not available: take the leftmost card of a row (A, E, I).")
    caravan.play(0, "A")
    assert refusal(caravan.play, 0, "ER") == "9 shares no prime factor with 10 at the right end."
    caravan.play(0, "IL*")
    assert refusal(caravan.play, 0, "EL*") == (
        "The left end is already a bridge: two bridges may not touch.")
    assert refusal(caravan.play, 0, "ER*") == "The one bridge of this game is used."
    crossroads = Crossroads(deal=parse_layout(DEAL), first=0).new()
    crossroads.play(0, "A")
    assert refusal(crossroads.play, 1, "C") == (
        "C is not available: take the leftmost card of a row (B, E, I).")
    crossroads.play(1, "B")
    assert refusal(crossroads.play, 0, "E") == (
        "Say which end of your trail E goes to: EL or ER.")
    said = [refusal(caravan.play, 0, "B"), refusal(crossroads.play, 0, "E"),
            refusal(Caravan, parse_layout(DEAL)[:5]),
            refusal(Caravan.replay, {"game": "caravan", "deal": DEAL, "moves": ["A", "B"]}),
            refusal(Crossroads.replay, {"game": "crossroads", "deal": DEAL}),
            refusal(Crossroads, Crossroads().pack, None, 3)]
    for sentence in said:
        assert_said(sentence)


def test_a_refused_record_move_keeps_the_engines_refusal_inside_its_sentence():
    record = {"game": "caravan", "deal": DEAL, "moves": ["A", "ER"]}
    found = refusal(Caravan.replay, record)
    assert found == ("Move 2 of the record (ER) is refused: 9 shares no prime factor with 10 "
                     "at the right end.")
    assert found.params["refusal"].msgid == (
        "{card} shares no prime factor with {end} at the right end.")


def test_chuchula_refusals_and_group_names_are_catalogued_texts():
    state = Chuchula(players=2).new(1)
    theirs = state.random_move(1, random.Random(1))
    said = [refusal(Chuchula, 5), refusal(Chuchula, 2, "forever"),
            refusal(Chuchula, 2, "points", 0), refusal(Grouping.parse, "As Ks"),
            refusal(Grouping.parse, "As Ks Qs | 2c ; 3d"), refusal(state.play, 0, theirs),
            refusal(Chuchula.replay, {"game": "chuko"})]
    for sentence in said:
        assert_said(sentence)
    assert said[0] == "Chuchula is for 2 to 4 players, not 5."
    assert [kind.label for kind in GroupType] == [
        "individual", "pair", "colour", "sequence", "double sequence", "trial"]
    for kind in GroupType:
        assert_said(kind.label)


def test_an_out_of_order_grouping_names_both_groups_in_one_sentence():
    grouping = Grouping.parse("Ah Kh Jh | 4s 3h 2d | 9c 9d 2c | 8s 6h 4d ; 5c")
    problem = order_problem(grouping.groups)
    assert problem == ("Group 2, 4♠ 3♥ 2♦ (sequence), is stronger than group 1, A♥ K♥ J♥ "
                       "(colour): put the groups strongest first.")
    assert_said(problem)
    assert problem.params["upper"].params["kind"].msgid == "colour"


def test_every_lesson_text_keeps_the_json_string_as_its_message_id():
    for game_id in ("chuchula", "crossroads", "caravan"):
        for found in lesson(game_id):
            sentences = [found.title, found.text, found.right, found.hint,
                         *found.wrong.values()]
            for sentence in sentences:
                assert isinstance(sentence, Text)
                assert sentence.msgid in catalogued("lessons") | catalogued("engines")
                assert words("en").say(sentence) == sentence


def test_lesson_markup_is_a_named_parameter_worded_after_translation():
    second = lesson("caravan")[1]
    assert second.right.msgid == "Yes: {pair 15 10}."
    assert second.right == ("Yes: 15 and 10 share the prime factor 5: 15 is 3 × 5, "
                            "10 is 2 × 5.")
    assert set(second.right.params) == {"pair 15 10"}
    assert words("en").say(second.right) == second.right
    judged = second.judge("ER")
    assert judged.sentence.msgid == "{pair 9 10}: face up, 9 may not go beside 10."


def test_puzzle_themes_and_verdicts_are_catalogued_texts():
    for puzzle in shipped()[:40]:
        assert_said(puzzle.sentence)
        verdict = judge(puzzle, puzzle.answer)
        assert_said(verdict["text"])
        assert_said(verdict["yours"])
        assert verdict["text"].startswith(f"Right! After {puzzle.answer} (")
    ends = [p for p in shipped() if p.theme == "end"]
    assert {p.answer[-1] for p in ends} == {"L", "R"}
    for puzzle in ends:
        side = "left" if puzzle.answer.endswith("L") else "right"
        assert f"goes to the {side} end" in puzzle.sentence


def test_bot_hints_and_reviews_are_catalogued_texts():
    game = Crossroads(deal=parse_layout(DEAL), first=0)
    state = game.new()
    state.play(0, "A")
    hint = crossroads.Adviser(game).hint(state, 1)
    assert_said(hint["note"])
    for label in hint["values"].values():
        assert_said(label)
    assert crossroads.missed(2, -1) == "would have won by 2 points instead of losing by 1 point"
    assert_said(crossroads.missed(2, -1))
    assert_said(crossroads.taking(state.layout, LayoutMove(4, "L")))
    solo = Caravan(deal=parse_layout(DEAL)).new()
    solo.play(0, "A")
    hint = caravan.Adviser(solo.game).hint(solo, 0)
    assert_said(hint["note"])
    record = solo.record()
    record["moves"] = [str(m) for m in play_and_collect(solo)]
    for verdict in caravan.review(record):
        assert_said(verdict["text"])


def play_and_collect(state):
    rng = random.Random(3)
    moves = list(state.moves)
    for _, move in play_out(state, rng):
        moves.append(move)
    return moves


def test_a_count_in_a_sentence_stays_a_plural():
    won = CaravanOutcome((1,), (0,), Text("All 12 cards are in the caravan: a win."), 12, 2)
    said = won.describe(["Ann"], 0)
    assert isinstance(said, Plural)
    assert said == "You laid all 12 cards in one caravan with 2 bridges."
    assert_said(said)
    assert won.describe(["Ann"], None) == "Ann laid all 12 cards in one caravan with 2 bridges."


def test_the_chuchula_advisors_words_are_catalogued_texts():
    state = Chuchula(players=2).new(5)
    grouping = state.random_move(0, random.Random(5))
    verdict = chuchula.judged(grouping, 2)
    assert_said(verdict["text"])
    assert verdict["text"].startswith(("this grouping expected about ", "the advisor's",
                                       "as good as"))
    hint = chuchula.Adviser(state.game).hint(state, 0)
    assert_said(hint["note"])
