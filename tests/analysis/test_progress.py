"""The progress bar shows only on a terminal and counts the work done."""

import io

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
