"""The pool for costly requests (hints, and replay and log pages not yet kept): a few
threads of their own and a bounded queue, so a flood of them waits there, or is refused,
rather than filling the default thread pool that moves, bots and the database share.

A job that has not started is dropped when its waiter is cancelled (a socket that closed
leaves no work behind); one that started runs to its end.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from chuko.core.text import Text
from chuko.server.shared.limits import Full

T = TypeVar("T")
BUSY = Text("The server is busy with other requests: try again in a moment.")


class Busy(Full):
    """HTTP 503: the queue of costly work is full."""


class Pool:
    """`threads` workers; at most `waiting` more jobs wait for one, beyond that `run`
    refuses with Busy."""

    def __init__(self, threads: int = 1, waiting: int = 8) -> None:
        self.capacity = threads + waiting
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="chuko-work")
        self._lock = threading.Lock()  # `_open` changes on the loop and in the workers
        self._open = 0  # jobs running or waiting

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` worked out in the pool; Busy when its queue is full."""
        with self._lock:
            if self._open >= self.capacity:
                raise Busy(BUSY)
            self._open += 1
        job = self._executor.submit(fn, *args)
        job.add_done_callback(self._done)  # also when cancelled before it started
        # Cancelling this await cancels the job, which then never starts if it is waiting.
        return await asyncio.wrap_future(job)

    def _done(self, _: Future) -> None:
        with self._lock:
            self._open -= 1

    def close(self) -> None:
        """Drop the waiting jobs and stop, without waiting for the running ones."""
        self._executor.shutdown(wait=False, cancel_futures=True)
