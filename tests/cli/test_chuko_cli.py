"""`chuko simulate chuko` and `chuko play chuko` through the command dispatcher."""

import io
import json

import pytest

from chuko.cli import main as cli
from chuko.games.chuko import Game


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_prints_win_rates_with_intervals_and_writes_replayable_records(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    status, out, err = run(
        capsys, "simulate", "chuko", "--players", "3", "--bots", "easy,random,hard",
        "--hard-simulations", "10", "--games", "12", "--seed", "1", "--jsonl", str(path),
    )  # fmt: skip
    assert status == 0 and err == ""
    for label in ("seat 0", "seat 2", "bot 1 (easy)", "bot 3 (hard)", "first player"):
        assert label in out
    assert "95%" in out and "[" in out
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
    assert sum(s["wins"] for s in summary["seats"]) + summary["unfinished"] == 40
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
    assert json.loads(out)["pack"] == list(range(2, 31))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "easy,wizard"], "no 'wizard' bot"),
        (["--bots", "easy,easy,easy"], "3 bot(s) for 2 seat(s)"),
        (["--players", "12"], "K3"),
        (["--pack", "2,x"], "not a card"),
        (["--games", "0"], "at least 1"),
        (["--first", "5"], "first player"),
        (["--hard-simulations", "0", "--bots", "hard"], "simulations"),
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
    assert "wins" in out or "You win" in out or "Goodbye" in out


def test_play_chuko_refuses_a_bad_lineup(capsys):
    status, _, err = run(capsys, "play", "chuko", "--players", "3", "--vs", "easy,easy,easy")
    assert status == 2 and "3 bot(s) for 2 seat(s)" in err
