"""`chuko simulate chuko` (the generic simulation, with Chükö's hard bot and its search
budget) and `chuko play chuko` through the command dispatcher."""

import io
import json
from random import Random

import pytest

from chuko.analysis.simulate import make_bots
from chuko.cli import main as cli
from chuko.games.chuko import Game


def run(capsys, *argv):
    try:
        status = cli.main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_prints_win_rates_with_intervals_and_writes_replayable_records(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    status, out, err = run(
        capsys, "simulate", "chuko", "--players", "3", "--bots", "easy,random,hard",
        "--hard-simulations", "10", "--games", "12", "--seed", "1", "--jsonl", str(path),
    )  # fmt: skip
    assert status == 0 and err == ""
    for label in ("1st seat", "3rd seat", "Easy bot", "Random bot", "Hard bot",
                  "whoever moved first", "Moves per game"):
        assert label in out
    assert "95%" in out and "[" in out and "seat 0" not in out
    lines = path.read_text().splitlines()
    assert len(lines) == 12
    for line in lines:
        record = json.loads(line)
        assert sorted(record["bots"]) == ["easy", "hard", "random"]
        assert Game.replay(record).record()["turns"] == record["turns"]


def test_simulate_json_summary_adds_up_and_a_seed_reproduces_it(capsys):
    argv = ["chuko", "simulate", "--bots", "easy,random", "--games", "40", "--seed", "9"]
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 0
    summary = json.loads(out)
    assert sum(s["wins"] for s in summary["seats"]) + summary["no_winner"] + summary["draws"] == 40
    assert sum(b["wins"] for b in summary["bots"]) == sum(s["wins"] for s in summary["seats"])
    easy = summary["bots"][0]
    assert easy["level"] == "easy" and easy["low"] <= easy["estimate"] <= easy["high"]
    assert run(capsys, *argv, "--json")[1] == out


def test_simulate_with_a_pack_range_and_four_players(capsys):
    status, out, _ = run(
        capsys, "simulate", "chuko", "--players", "4", "--pack", "2-30", "--bots", "random",
        "--games", "10", "--seed", "2", "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["options"]["pack"] == "2-30" and summary["players"] == 4
    assert len(summary["seats"]) == 4


def test_the_readme_command_runs_with_the_old_budget_flag(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    status, out, _ = run(
        capsys, "simulate", "chuko", "--players", "2", "--bots", "hard,easy", "--games", "4",
        "--seed", "1", "--jsonl", str(path), "--hard-simulations", "5",
    )  # fmt: skip
    assert status == 0 and "Hard bot" in out and len(path.read_text().splitlines()) == 4


def test_a_search_budget_reaches_the_bots_that_take_one_and_no_other():
    hard, easy = make_bots("chuko", ["hard", "easy"], Random(1), {"simulations": 7})
    assert hard.simulations == 7 and easy.level == "easy"
    (timed,) = make_bots("chuko", ["hard"], Random(1), {"time_limit": 0.05})
    assert timed.time_limit == 0.05 and timed.simulations is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "easy,wizard"], "no 'wizard' bot"),
        (["--bots", "easy,easy,easy"], "names 3 bots, more than the seats to fill (2)"),
        (["--players", "12", "--pack", "plain"], "serves at most 11 players"),
        (["--pack", "2,x"], "not a card"),
        (["--games", "0"], "at least 1"),
        (["--turn-limit", "-1"], "Turn limit"),
        (["--hard-simulations", "0", "--bots", "hard"], "not a positive number"),
        (["--bot-simulations", "5", "--bots", "easy"], "No bot of the lineup (easy, easy)"),
        (["--jsonl", "/nonexistent/dir/x.jsonl"], "Cannot write"),
    ],
)
def test_simulate_refuses_bad_options_with_one_line_and_status_2(capsys, args, message):
    status, out, err = run(capsys, "simulate", "chuko", "--games", "2", *args)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_play_chuko_reads_moves_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n" + "r\na\n" * 60))
    status, out, _ = run(capsys, "play", "chuko", "--vs", "random", "--seed", "3")
    assert status == 0
    assert "is not a move" in out
    assert " won " in out or "Goodbye" in out


def test_play_chuko_refuses_a_bad_lineup(capsys):
    status, _, err = run(capsys, "play", "chuko", "--players", "3", "--vs", "easy,easy,easy")
    assert status == 2 and "names 3 bots, more than the seats to fill (2)" in err
