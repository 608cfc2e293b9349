"""A progress bar for long work, drawn on standard error only when a person is watching a
terminal: piped output, JSON lines and tests see nothing of it.

The bar moves by one after each game, shows the time spent from the start (so it is
visibly alive before the first slow game ends) and the time left at the pace so far.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text as Styled

from chuko.console import say
from chuko.core.text import Text


class TimeLeftColumn(ProgressColumn):
    """'ETA 0:04:10': the time left at the average pace since the start. Rich's own
    estimate looks only at the last 30 seconds, so games slower than that never get one."""

    def render(self, task: Task) -> Styled:
        if not task.completed or task.total is None or task.elapsed is None:
            return Styled(say(Text("ETA …")), style="progress.remaining")
        left = task.elapsed * (task.total - task.completed) / task.completed
        return Styled(say(Text("ETA {left}", left=str(timedelta(seconds=round(left))))),
                      style="progress.remaining")


@contextmanager
def progress_bar(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """Yield `advance(n)`; the bar disappears when the work is done."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeLeftColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda n: bar.advance(task, n)
