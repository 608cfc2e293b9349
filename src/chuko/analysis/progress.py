"""A progress bar for long work, drawn on standard error only when a person is watching a
terminal: piped output, JSON lines and tests see nothing of it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


@contextmanager
def progress_bar(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """Yield `advance(n)`; the bar disappears when the work is done."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda n: bar.advance(task, n)
