"""The server's load benchmark and soak (`python -m bench server`, `python -m bench soak`)
run end to end in tiny versions, so they cannot rot: a server subprocess, client processes,
the echo relay, kill -9 restarts and the check that no acknowledged move was lost."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def bench(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_bench_server_reports_every_figure_and_its_relay_sends_as_many_messages():
    out = bench("server", "--quick", "--runs", "1", "--seconds", "1", "--clients", "1")
    runs = re.findall(r"run 1: (\d+) moves .*errors (\d+), refused (\d+)", out)
    assert len(runs) == 5, out  # saturated, echo with HTTP and sockets only, paced twice
    assert all(int(moves) > 0 and errors == "0" and refused == "0"
               for moves, errors, refused in runs[:3]), out
    assert all(errors == "0" and refused == "0" for _, errors, refused in runs[3:]), out
    # The relay sends what the server sends (logs, states, presence), as many per move.
    server, relay, bare = (float(x) for x in re.findall(r"([\d.]+) messages sent per move",
                                                        out)[:3])
    assert abs(relay - server) < 0.1 * server and abs(bare - server) < 0.1 * server, out
    assert re.search(r"medians of 1: saturated \d+ accepted moves/s .* \d+\.\d× \(goal 3×; "
                     r"against the sockets alone, \d\.\d+ ms, \d+\.\d×\)", out), out


def test_soak_loses_no_acknowledged_move_across_kill_9_restarts():
    out = bench("soak", "--minutes", "0.4", "--games", "6")
    assert out.count("server life") == 3, out
    checked = re.search(r"acknowledged moves lost: (\d+) of (\d+) checked", out)
    assert checked and checked[1] == "0" and int(checked[2]) > 0, out
    assert re.search(r"abuse: [\d,]+ pings flooded, the flooder closed [1-9]", out), out


def test_bench_first_hint_reports_each_way_of_asking():
    out = bench("first_hint", "--runs", "1", "--after", "0.5")
    for way in ("asked at once:", "asked 0.5 s after the start:", "the same seat's second hint:"):
        assert re.search(re.escape(way) + r" +median [\d,]+ ms \(least [\d,]+, most [\d,]+\)",
                         out), out


def test_two_worker_soak_loses_no_acknowledged_move_nor_any_finished_rated_result():
    """Half a minute is too short to be sure a rated game finishes on a loaded machine (two
    sign-ups, a seek, then a game's moves at a player's pace): the rated rooms that do finish
    are checked here, and `test_rated_kill` plays rated games to their ends every time."""
    from bench.postgres_process import binaries

    if binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    out = bench("soak", "--workers", "2", "--minutes", "0.5", "--games", "4")
    lost = re.search(r"acknowledged moves lost: (\d+) of (\d+)", out)
    assert lost and lost[1] == "0" and int(lost[2]) > 0, out
    rated = re.search(r"rated rooms finished: (\d+) .*: (\d+) applied once .* (\d+) not "
                      r"counted .* (\d+) lost or doubled .*; (\d+) ratings whose", out)
    assert rated and rated[1] == str(int(rated[2]) + int(rated[3])), out
    assert rated[4] == "0" and rated[5] == "0", out
    assert "worker killed, pid" in out, out
