"""`chuko serve` refuses what it cannot serve from in one sentence, exit status 2, before it
says it serves."""

from __future__ import annotations

import pytest
from bench.postgres_process import free_port


def test_a_database_that_cannot_be_reached_is_one_sentence_and_status_2(run_chuko):
    pytest.importorskip("psycopg")
    nobody_listens = free_port()
    status, out, err = run_chuko("serve", "--port", "8799", "--db",
                                 f"postgresql://nobody:secret@127.0.0.1:{nobody_listens}/chuko")
    assert status == 2
    assert "serving" not in out
    assert err.startswith("chuko: The database of --db cannot be reached: ")
    assert err.count("\n") == 1 and "secret" not in err


@pytest.mark.parametrize("flag", ["--read-timeout", "--write-timeout", "--bot-delay",
                                  "--round-pause", "--waiting-hours"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_served_number_that_is_no_finite_sensible_one_is_one_sentence_and_status_2(
        run_chuko, flag, value):
    status, out, err = run_chuko("serve", "--port", "8799", flag, value, "--db",
                                 "sqlite:///:memory:")
    assert status == 2
    assert "serving" not in out
    assert err.startswith("chuko: ") and err.count("\n") == 1


def test_a_wrong_tournament_schedule_is_one_sentence_naming_the_entry_and_status_2(
        run_chuko, tmp_path):
    schedule = tmp_path / "schedule.toml"
    schedule.write_text('[[tournament]]\nevery = "week"\n', encoding="utf-8")
    status, out, err = run_chuko("serve", "--port", "8799", "--db", "sqlite:///:memory:",
                                 "--schedule", str(schedule))
    assert status == 2
    assert "serving" not in out
    assert err.startswith("chuko: The schedule's tournament 1 recurs every") \
        and err.count("\n") == 1
