"""The shipped Crossroads puzzles: each answer is the one move that keeps the exact
solver's value, the file is compact and the seeded command makes it again."""

from __future__ import annotations

from random import Random

import pytest

from chuko.bots.crossroads import CrossroadsBot, solver_for
from chuko.practice import puzzles
from chuko.practice.puzzle_difficulty import HIGHEST, LOWEST
from chuko.practice.puzzles import THEMES, Puzzle, judge, mine, shipped


def assert_unique_best(puzzle: Puzzle) -> None:
    state = puzzle.state()
    values = solver_for(state).move_values(state)
    top = max(values.values())
    best = [str(m) for m, v in values.items() if v == top]
    assert best == [puzzle.answer], puzzle.line()
    assert len(values) >= puzzles.MIN_CHOICES


def test_the_shipped_set_has_two_thousand_compact_puzzles_with_themes() -> None:
    ship = shipped()
    assert len(ship) >= 2000
    assert len({p.id for p in ship}) == len(ship)
    assert sum(len(p.line()) + 1 for p in ship) < 300_000
    assert {p.theme for p in ship} <= set(THEMES)
    assert all(LOWEST <= p.rating <= HIGHEST for p in ship)
    assert all(str(p.card) in p.sentence for p in ship)


def test_a_sample_of_shipped_answers_is_the_one_move_the_solver_keeps_the_value_with() -> None:
    for puzzle in Random(7).sample(shipped(), 60):
        assert_unique_best(puzzle)


@pytest.mark.slow
def test_every_shipped_answer_is_the_one_move_the_solver_keeps_the_value_with() -> None:
    for puzzle in shipped():
        assert_unique_best(puzzle)


def test_the_seeded_command_makes_the_shipped_file_again(tmp_path) -> None:
    out = tmp_path / "p.txt"
    assert puzzles.main(["--seed", str(puzzles.SEED), "--count", "40", "--out", str(out)]) == 0
    first = out.read_text().splitlines()
    assert first == [p.line() for p in shipped()[:40]]
    assert [p.line() for p in mine(puzzles.SEED, 40)] == first


def test_a_puzzle_line_reads_back_as_the_same_puzzle() -> None:
    puzzle = shipped()[0]
    assert Puzzle.parse(puzzle.line()) == puzzle


def test_a_point_now_that_loses_later_is_themed_as_such() -> None:
    quiet = [p for p in shipped() if p.theme == "quiet-loss"][:5]
    assert quiet
    for puzzle in quiet:
        state = puzzle.state()
        values = solver_for(state).move_values(state)
        answer = next(m for m in values if str(m) == puzzle.answer)
        assert puzzles.gain(state, answer) == 0 and values[answer] >= 0
        assert any(puzzles.gain(state, m) > 0 and values[m] < 0 for m in values)


def test_a_first_card_typed_with_an_end_is_judged_as_the_engine_plays_it() -> None:
    start = next(p for p in shipped() if p.theme == "start")
    verdict = judge(start, start.answer + "R")
    assert verdict["solved"] and verdict["move"] == start.answer
    assert verdict["text"].startswith(
        f"Right! After {start.answer} ({start.card} to start the trail) you ")


def facts(puzzle: Puzzle):
    """The position, each move's value and immediate gain, and the answer's move."""
    state = puzzle.state()
    values = solver_for(state).move_values(state)
    gains = {m: puzzles.gain(state, m) for m in values}
    return state, values, gains, next(m for m in values if str(m) == puzzle.answer)


def test_each_theme_says_what_the_engine_and_the_solver_show() -> None:
    seen = set()
    for puzzle in Random(11).sample(shipped(), 300):
        state, values, gains, answer = facts(puzzle)
        seat = state.to_move[0]
        others = [m for m in values if m != answer]
        assert puzzle.card == state.layout[answer.position]
        if puzzle.theme == "start":
            assert not state.trails[seat]
        elif puzzle.theme.startswith("quiet"):
            assert gains[answer] == 0 and any(gains[m] > 0 for m in others)
        elif puzzle.theme == "deny":
            assert any(puzzles._lets_score(state, seat, m, answer.position) for m in others)
        elif puzzle.theme == "end":
            twin = next(m for m in others if m.position == answer.position)
            assert all(values[twin] > values[m] for m in others if m != twin)
        elif puzzle.theme in ("point", "take"):
            assert gains[answer] == 1
            assert (sum(gains.values()) > 1) == (puzzle.theme == "point")
        else:
            assert puzzle.theme == "build" and gains[answer] == 0
        seen.add(puzzle.theme)
    assert {"start", "deny", "end", "point", "take", "build"} <= seen


def test_a_higher_first_rating_means_the_easy_bot_solves_it_less_often() -> None:
    sample = sorted(Random(5).sample(shipped(), 300), key=lambda p: p.rating)

    def solved(puzzle: Puzzle) -> bool:
        state = puzzle.state()
        seat = state.to_move[0]
        move = CrossroadsBot("easy", Random(0)).choose(state.view(seat), state.legal_moves(seat))
        return str(move) == puzzle.answer

    easiest, hardest = sample[:100], sample[-100:]
    assert sum(map(solved, easiest)) > sum(map(solved, hardest)) + 30
