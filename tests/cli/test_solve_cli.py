"""`chuko solve GAME` for the games whose descriptor names it: answers with seats numbered
from 0, batch mode, and errors with exit status 2."""

import json

import pytest

DEAL = "6 15 10 7 / 9 14 8 11 / 2 21 22 30"


def test_solve_crossroads_json_has_the_issues_fields(run_chuko):
    status, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["deal"] == DEAL and answer["moves"] == [] and answer["to_move"] == 0
    assert answer["first"] == 0 and answer["points"] == [0, 0] and answer["over"] is False
    assert set(answer["options"]) == {"A", "E", "I"}
    assert answer["value"] == max(answer["options"].values())
    assert answer["best"] == [m for m, v in answer["options"].items() if v == answer["value"]]


def test_solve_crossroads_after_moves_counts_points_already_scored(run_chuko):
    _, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--moves", "a e br", "--json")
    answer = json.loads(out)
    assert answer["moves"] == ["A", "E", "BR"] and answer["to_move"] == 1
    assert answer["points"] == [1, 0]  # 15 beside 6 scored
    assert answer["value"] == max(answer["options"].values())
    assert all(len(m) == 2 for m in answer["options"])


def test_solve_crossroads_of_a_finished_game(run_chuko):
    moves = "A E BR FL CR GL DR HL IR JL KR LL"
    status, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--moves", moves, "--json")
    answer = json.loads(out)
    assert status == 0 and answer["to_move"] is None and answer["options"] == {}
    assert answer["over"] is True and answer["value"] == answer["points"][0] - answer["points"][1]


def test_solve_crossroads_seats_are_numbered_from_0_when_the_second_seat_starts(run_chuko):
    _, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--first", "1", "--json")
    answer = json.loads(out)
    assert answer["first"] == 1 and answer["to_move"] == 1
    _, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--first", "1", "--moves", "A")
    assert "Second player to move" in out  # seat 0 moves second here


def test_solve_crossroads_words_the_end_as_the_engine_does(run_chuko):
    moves = "A E BR FL CR GL DR HL IR JL KR LL"
    status, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL, "--moves", moves)
    assert status == 0 and "The game is over: First player won" in out


def test_solve_caravan_json_has_the_issues_fields(run_chuko):
    status, out, _ = run_chuko("solve", "caravan", "--deal", DEAL, "--bridges", "1", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["bridges"] == 1 and answer["deal"] == DEAL
    assert answer["winnable"] == any(answer["options"].values())
    assert (answer["solution"] is not None) == answer["winnable"]


def test_solve_batch_reads_deals_from_stdin_one_json_per_line(run_chuko):
    deals = [DEAL, "2 3 4 5 / 6 7 8 9 / 10 11 12 13", "1 1 1 1 / 1 1 1 1 / 1 1 1 1"]
    status, out, _ = run_chuko("solve", "caravan", "--json", stdin="\n".join(deals) + "\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and [a["deal"] for a in lines] == deals
    assert lines[2]["winnable"] is False  # 1 matches nothing (ruling G1)


def test_solve_batch_marks_a_bad_line_and_goes_on(run_chuko):
    stdin = f"{DEAL}\n1 2 3\n{DEAL}\n"
    status, out, err = run_chuko("solve", "crossroads", "--json", stdin=stdin)
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 2 and len(lines) == 3 and "error" in lines[1] and lines[1]["line"] == 2
    assert "line 2" in err


def test_solve_readable_table_names_no_seat_number(run_chuko):
    status, out, _ = run_chuko("solve", "crossroads", "--deal", DEAL)
    assert status == 0 and "First player to move" in out and "value" in out
    assert "Player 1" not in out and "seat" not in out.lower()
    status, out, _ = run_chuko("solve", "caravan", "--deal", DEAL)
    assert status == 0 and "winnable" in out and "can still win" in out


def test_a_bad_option_in_batch_mode_is_refused_once_before_reading_deals(run_chuko):
    status, out, err = run_chuko("solve", "caravan", "--bridges", "12", stdin=f"{DEAL}\n" * 3)
    assert status == 2 and out == "" and err.count("\n") == 1 and "Bridges" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "crossroads", "--deal", "1 2 3 / 4 5 6 7 / 8 9 10 11"], "Row 1"),
        (["solve", "crossroads", "--deal", DEAL, "--moves", "A B C"], "Move 3"),
        (["solve", "crossroads", "--deal", DEAL, "--moves", "Q"], "not a move"),
        (["solve", "caravan", "--deal", DEAL, "--bridges", "12"], "from 0 to 11"),
        (["solve", "caravan", "--deal", DEAL, "--moves", "A A"], "Move 2"),
        (["solve", "caravan", "--deal", "6 15 10 7 / 9 14 8 11"], "three rows"),
        (["solve", "chess"], "invalid choice"),
        (["solve", "crossroads", "--deal", DEAL, "--first", "3"], "one of random, 0, 1"),
        (["solve", "crossroads", "--deal", DEAL, "--pack", "plain"], "Unrecognized"),
    ],
)
def test_solve_errors_are_one_line_and_exit_status_2(run_chuko, argv, message):
    status, out, err = run_chuko(*argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
