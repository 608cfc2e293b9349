"""`chuko puzzle`: one Crossroads puzzle in the terminal, judged by the exact solver, its
theme shown after; --json for programs; bad input gets one sentence."""

from __future__ import annotations

import json

import pytest

from chuko.practice.puzzles import by_id
from terminal_session import chuko

PUZZLE = "4"  # "The end matters": JR wins by 2 points, JL by 1


def wrong_move(ident: str) -> str:
    puzzle = by_id(ident)
    state = puzzle.state()
    return next(str(m) for m in state.legal_moves(state.to_move[0]) if str(m) != puzzle.answer)


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_a_puzzle_in_a_terminal_judges_the_typed_move_and_shows_the_theme_after():
    session = chuko("puzzle", "--id", PUZZLE, columns=80)
    try:
        board = session.expect(r"Your move:")
        assert "The end matters" not in session.text  # the theme comes after the answer
        session.type("zz")
        session.expect(r"is not a move", after=board)
        session.type(by_id(PUZZLE).answer)
        session.expect(r"Theme: The end matters")
    finally:
        status = session.wait()
    assert status == 0
    text = session.text
    assert f"Crossroads puzzle {PUZZLE}" in text and "Right!" in text
    assert "You: " in text and "Opponent: " in text  # both trails beside the layout


def test_a_wrong_answer_says_what_it_gives_and_what_the_answer_gives(run_chuko):
    status, out, _ = run_chuko("puzzle", "--id", PUZZLE, stdin="JL\n")
    assert status == 0
    assert ("Not this one: after JL (2 to the left end) you win by 1 point with perfect "
            "play; after JR (2 to the right end) you win by 2 points.") in " ".join(out.split())


def test_json_gives_the_position_and_with_an_answer_the_solvers_verdict(run_chuko):
    status, out, _ = run_chuko("puzzle", "--id", "5", "--json", "--answer", wrong_move("5"))
    assert status == 0
    data = json.loads(out)
    assert data["puzzle"]["id"] == "5" and data["puzzle"]["legal"]
    assert "answer" not in data["puzzle"] and "theme" not in data["puzzle"]
    assert data["verdict"]["solved"] is False and data["verdict"]["answer"] == by_id("5").answer


def test_a_seeded_pick_is_the_same_puzzle_near_the_rating(run_chuko):
    picks = [json.loads(run_chuko("puzzle", "--rating", "1600", "--seed", "4", "--json")[1])
             for _ in range(2)]
    assert picks[0] == picks[1]
    assert abs(picks[0]["puzzle"]["rating"] - 1600) <= 100


def test_an_unknown_puzzle_or_an_illegal_answer_is_one_sentence_and_status_2(run_chuko):
    status, out, err = run_chuko("puzzle", "--id", "nope")
    assert status == 2 and err.strip() == "chuko: There is no puzzle 'nope': the ids run " \
        "from 1 to 2000."
    status, _, err = run_chuko("puzzle", "--id", "4", "--answer", "CR", "--json")
    assert status == 2 and "is not available" in err and "Traceback" not in err
