"""`python -m bench rated_kill` end to end in a tiny version: rated rooms played to their
end, the server killed on each one's final state, and every rating applied once."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # some 15 s: a server started for every room


def test_rated_kill_loses_and_doubles_no_rating_on_sqlite():
    done = subprocess.run([sys.executable, "-m", "bench", "rated_kill", "--times", "2"],
                          cwd=ROOT, text=True, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(next(line for line in done.stdout.splitlines()
                              if line.startswith("{")))
    assert figures["lost"] == 0 and figures["doubled"] == 0, figures
    assert figures["ratings_miscounted"] == 0, figures
    # Both rooms were played to a counted end: not a test that passes by playing nothing.
    assert figures["moves"] >= 2 * 4, figures
    assert figures["applied_once"] + figures["end_not_stored"] == 2, figures
