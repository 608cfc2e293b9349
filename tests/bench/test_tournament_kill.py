"""`python -m bench tournament_kill` end to end in a tiny version: Swiss tournaments on two
real `chuko serve` workers, the lease holder killed with SIGKILL in every round, and every
game counted once (the bench's own checks against the database, reported as `wrong`); and
those checks, on rows made up here, finding what they look for."""

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from bench.tournament_kill import Stored, check

ROOT = Path(__file__).resolve().parents[2]

# Two rounds of three players: A loses to B by resigning, C has the bye; then A aborts
# against C, B has the bye.
STORED = Stored("over", 2, [(1, "r1", ["a", "b"]), (1, None, ["c"]),
                            (2, "r2", ["c", "a"]), (2, None, ["b"])],
                {"a": "A", "b": "B", "c": "C"},
                {"r1": ("over", {"kind": "resigned", "seat": 0}),
                 "r2": ("over", {"kind": "aborted", "seat": 1})},
                {"r1": {0: "a", 1: "b"}, "r2": {0: "c", 1: "a"}})
PAGE = {"standings": [{"name": "B", "points": 2.0, "sheet": [1.0, 1.0]},
                      {"name": "C", "points": 2.0, "sheet": [1.0, 1.0]},
                      {"name": "A", "points": 0.0, "sheet": [0.0, 0.0]}]}


def test_the_checks_pass_a_tournament_whose_standings_are_its_rooms_ends():
    assert check(STORED, 2, PAGE) == []


def test_the_checks_find_a_game_counted_twice_an_end_undone_and_a_player_paired_twice():
    doubled = {"standings": [*PAGE["standings"][:2],
                             {"name": "A", "points": 0.0, "sheet": [0.0, 0.0, 0.0]}]}
    assert any("standings" in w for w in check(STORED, 2, doubled))
    reopened = replace(STORED, ends={**STORED.ends, "r2": ("playing", {})})
    assert any("is playing" in w for w in check(reopened, 2, PAGE))
    twice = replace(STORED, games=[*STORED.games[:3], (2, None, ["a"])])
    assert any("paired twice in round 2" in w for w in check(twice, 2, PAGE))
    elsewhere = replace(STORED, seated={**STORED.seated, "r9": {0: "a", 1: "c"}})
    assert any("outside its games" in w for w in check(elsewhere, 2, PAGE))


@pytest.mark.slow  # about a minute: two tournaments of three rounds, played
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="Redis is not installed")
def test_killing_the_tournament_leader_mid_round_loses_and_doubles_no_game():
    done = subprocess.run([sys.executable, "-m", "bench", "tournament_kill", "--times", "2",
                           "--json"], cwd=ROOT, text=True, capture_output=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["wrong"] == [] and figures["failed_trials"] == 0, figures
    # The leader was killed in every round of both, and games were played and counted:
    # not a test that passes by playing nothing.
    assert figures["kills"] == 2 * 3, figures
    assert figures["games"] == 2 * 3 + 3 * 3 and figures["byes"] == 3, figures
