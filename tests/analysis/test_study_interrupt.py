"""Ctrl-C at the keyboard stops an exact study run on several processes cleanly: one
sentence saying where the work done is saved, exit status 130, and nothing from the
workers (no traceback, no leaked semaphore); the same command resumes from the checkpoint."""

from __future__ import annotations

import json

import pytest

from terminal_session import chuko

pytest.importorskip("numba", reason="the study's exact solving needs the fast extra")
pytestmark = pytest.mark.slow  # processes started and stopped at the keyboard


@pytest.mark.parametrize("when", ["as the workers start", "while they solve"])
def test_ctrl_c_stops_an_exact_study_in_one_sentence_and_keeps_its_checkpoint(tmp_path, when):
    checkpoint = tmp_path / "plain.json"
    session = chuko("study", "caravan", "--pack", "plain", "--exact", "--jobs", "2",
                    "--checkpoint", str(checkpoint), columns=100)
    session.expect(r"Deals" if when == "as the workers start" else r"[1-9][\d,]*/79833600")
    session.interrupt()
    assert session.wait() == 130
    for noise in ("Traceback", "KeyboardInterrupt", "leaked", "Process Spawn"):
        assert noise not in session.text, session.text
    said = session.text[session.text.rindex("Deals"):]
    said = " ".join(said[said.index("\n"):].split())  # what follows the progress bar
    kept = (f"chuko: Stopped; the deals solved so far are saved in {checkpoint}: the same "
            "command resumes from there.")
    if when == "while they solve":
        assert said == kept
    else:  # the keys may come before the first chunk is even handed out
        assert said in (kept, "chuko: Stopped before any deal was solved.")
    if said == kept:
        assert json.loads(checkpoint.read_text())["key"]["pack"] == list(range(2, 14))
