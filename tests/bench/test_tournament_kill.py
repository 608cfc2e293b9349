"""`python -m bench tournament_kill` end to end in a tiny version: Swiss tournaments on two
real `chuko serve` workers, the lease holder killed with SIGKILL in every round, and every
game counted once (the bench's own checks against the database, reported as `wrong`)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # about a minute: two tournaments of three rounds, played


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
