"""`chuko learn GAME`: every step of every built-in lesson taught at the terminal from
scripted input, wrong and bad lines included, on the game's own screen."""

import re

import pytest

from chuko.games import descriptor
from chuko.practice.lessons import lesson
from terminal_session import chuko

GAMES = ["chuko", "crossroads", "caravan", "chuchula"]


def _answer(game_id: str, text: str) -> list[str]:
    # A Chuchula grouping is typed whole, then committed with y.
    return [text, "y"] if not descriptor(game_id).traits.lists_moves else [text]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_step_takes_its_expected_move_after_a_wrong_one_and_a_bad_line(run_chuko, game_id):
    steps = lesson(game_id)
    script = []
    for found in steps[:-1]:
        wrong = next(iter(found.wrong))
        script += ["zz-not-a-move", *_answer(game_id, wrong), *_answer(game_id, found.expect[0])]
    script.append("quit")  # at the last step's real game
    status, out, err = run_chuko("learn", game_id, stdin="\n".join(script) + "\n")
    assert status == 0 and "Traceback" not in out + err
    for found in steps[:-1]:
        assert f"Step {found.number} of {len(steps)}: {found.title}" in out
        assert " ".join(next(iter(found.wrong.values())).split()) in " ".join(out.split())
        assert " ".join(found.right.split()) in " ".join(out.split())
    assert steps[-1].title in out


def test_quitting_midway_says_where_to_take_up_again(run_chuko):
    status, out, _ = run_chuko("learn", "chuko", "--step", "3", stdin="quit\n")
    assert status == 0 and "Step 3 of" in out
    assert "chuko learn chuko --step 3" in out


def test_a_step_that_does_not_exist_is_one_sentence_and_status_2(run_chuko):
    status, out, err = run_chuko("learn", "caravan", "--step", "42")
    assert status == 2 and "has steps 1 to" in err and "Traceback" not in err


def test_the_lesson_as_json_gives_each_steps_position(run_chuko):
    import json

    status, out, _ = run_chuko("learn", "crossroads", "--json")
    data = json.loads(out)
    assert status == 0 and data["steps"][0]["view"]["layout"]


def test_a_caravan_lesson_in_a_real_terminal_shows_the_board_and_the_steps():
    terminal = chuko("learn", "caravan", columns=80, rows=30)
    terminal.expect(r"Step 1 of 5")
    terminal.type("B")
    terminal.expect(r"it can be taken only once A is gone")
    terminal.type("A")
    after = terminal.expect(r"Step 2 of 5")
    terminal.expect(r"Caravan \(1/12\)", after=after)
    terminal.type("IL")
    terminal.expect(r"7 and 10 share no prime factor: 7 is prime, 10 is 2 × 5")
    terminal.type("quit")
    assert terminal.wait() == 0
    assert re.search(r"chuko learn caravan --step 2", terminal.text)
