"""Every lesson step of every built-in game, walked through its engine."""

from dataclasses import replace

import pytest

from chuko.core.errors import IllegalMove, ParseError
from chuko.core.numbers import factor_words, pair_words
from chuko.games import BUILT_IN, descriptor, game_class, game_ids
from chuko.practice.lessons import LessonError, expand, games_with_lessons, lesson, step

GAMES = [game_id for game_id in game_ids() if f"chuko.games.{game_id}" in BUILT_IN]
# Every step of every game with a lesson, a plug-in's included.
STEPS = [(game_id, s.number) for game_id in games_with_lessons(game_ids())
         for s in lesson(game_id)]


def test_every_built_in_game_has_a_lesson_of_five_to_ten_steps_ending_in_a_real_game():
    for game_id in GAMES:
        steps = lesson(game_id)
        assert 5 <= len(steps) <= 10, game_id
        assert steps[-1].play is not None and all(s.play is None for s in steps[:-1])
        level = steps[-1].play.get("level")
        if descriptor(game_id).traits.max_players != 1:  # a game against a weak bot
            assert level in ("random", "easy") and level in descriptor(game_id).levels
        steps[-1].game()  # its options are the game's


@pytest.mark.parametrize(("game_id", "number"), STEPS)
def test_each_expected_move_is_legal_and_right_and_each_wrong_move_gets_its_sentence(
        game_id, number):
    found = step(game_id, number)
    if found.play is not None:
        return
    state = found.position()
    seat = state.to_move[0]
    assert found.expect and found.text and "{" not in found.text
    legal = {str(move) for move in state.legal_moves(seat)} if state.game.lists_moves \
        else None
    for text in found.expect:
        verdict = found.judge(text)
        assert verdict.right, (text, verdict)
        assert legal is None or verdict.move in legal
    assert found.wrong, "a step lists the wrong moves a learner is likely to make"
    for text, why in found.wrong.items():
        verdict = found.judge(text)
        assert not verdict.right and verdict.sentence == why
        copy = found.position()
        try:
            copy.play(seat, text)
            refused = False
        except IllegalMove:
            refused = True
        assert verdict.kind == ("illegal" if refused else "wrong")


def test_a_move_the_engine_refuses_is_never_right_even_if_the_data_expects_it():
    found = step("chuko", 1)
    bent = replace(found, expect=("11",), wrong={})
    assert bent.judge("11").kind == "illegal"
    assert "cannot follow" in bent.judge("11").sentence


def test_an_unlisted_refusal_is_the_engines_sentence_and_text_that_is_no_move_is_a_parse_error():
    found = step("chuko", 1)
    assert found.judge("8").sentence == "8 is not in your hand."
    with pytest.raises(ParseError):
        found.judge("banana")
    with pytest.raises(ParseError):
        found.judge("")


def test_a_missing_step_or_lesson_is_a_lesson_error():
    with pytest.raises(LessonError):
        step("chuko", 0)
    with pytest.raises(LessonError):
        step("chuko", 99)
    with pytest.raises(LessonError):
        expand("{pair 22}")


def test_factor_words_come_from_one_helper():
    assert factor_words(22) == "22 is 2 × 11"
    assert factor_words(12) == "12 is 2 × 2 × 3"
    assert factor_words(13) == "13 is prime"
    assert factor_words(1) == "1 has no prime factor"
    assert pair_words(22, 15) == "22 and 15 share no prime factor: 22 is 2 × 11, 15 is 3 × 5"
    assert pair_words(22, 14) == "22 and 14 share the prime factor 2: 22 is 2 × 11, 14 is 2 × 7"
    assert expand("{pair 22 15}.") == pair_words(22, 15) + "."


def test_a_step_position_is_the_games_own_state():
    for game_id in GAMES:
        first = lesson(game_id)[0]
        assert type(first.position().game) is game_class(game_id)
        assert first.to_json()["view"]


def test_caravan_feedback_says_a_card_fits_face_up_only_where_it_does():
    for found in lesson("caravan"):
        if found.play is not None:
            continue
        state = found.position()
        for move in state.legal_moves(0):
            sentence = found.judge(str(move)).sentence
            if "fits face up" not in sentence:
                continue
            face_up = replace(move, bridge=False)
            assert face_up in state.legal_moves(0), (found.number, str(move), sentence)
