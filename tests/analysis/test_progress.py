"""The progress bar shows only on a terminal and counts the work done."""

import io

import pytest

from chuko.analysis import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_without_a_terminal_the_bar_draws_nothing(monkeypatch):
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    with progress.progress_bar(3, "games") as advance:
        for _ in range(3):
            advance(1)
    assert stderr.getvalue() == ""


def test_on_a_terminal_the_bar_counts_the_work(monkeypatch):
    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    seen = []
    real = progress.Progress

    class Spy(real):
        def advance(self, task, amount):
            super().advance(task, amount)
            seen.append(self.tasks[0].completed)

    monkeypatch.setattr(progress, "Progress", Spy)
    with progress.progress_bar(3, "games") as advance:
        for _ in range(3):
            advance(1)
    assert seen == [1, 2, 3]


def test_the_time_left_is_the_pace_since_the_start_times_the_work_left():
    now = [0.0]
    bar = progress.Progress(get_time=lambda: now[0])
    task = bar.add_task("games", total=10)
    column = progress.TimeLeftColumn()
    assert column.render(bar.tasks[0]).plain == "ETA …"  # nothing done yet: no pace
    now[0] = 30.0  # slower than rich's 30-second window, which would give no estimate
    bar.advance(task, 3)
    assert column.render(bar.tasks[0]).plain == "ETA 0:01:10"


def test_on_a_terminal_the_bar_shows_the_time_spent_and_left(monkeypatch):
    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    with progress.progress_bar(2, "Take-away games") as advance:
        advance(1)
        advance(1)
    drawn = stderr.getvalue()
    assert "Take-away games" in drawn and "2/2" in drawn and "ETA 0:00:00" in drawn


@pytest.mark.parametrize("argv, what", [
    (["simulate", "takeaway", "--games", "3", "--seed", "1"], "Take-away games"),
    (["simulate", "chuchula", "--players", "2", "--rounds", "2", "--length", "1",
      "--seed", "1"], "Chuchula rounds"),
])
def test_simulate_draws_its_bar_with_a_time_left_on_a_terminal_only(run_chuko, monkeypatch,
                                                                      argv, what):
    status, piped_out, piped_err = run_chuko(*argv)
    assert status == 0 and piped_err == ""
    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    status, out, _ = run_chuko(*argv)
    drawn = stderr.getvalue()
    assert status == 0 and what in drawn and "ETA" in drawn
    assert out == piped_out  # the summary on standard output is the same either way
