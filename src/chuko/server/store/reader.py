"""The store's reads off the event loop: a few threads of the store's own, each read bounded
in time (`READ_TIMEOUT` seconds, `chuko serve --read-timeout`).

A read that has not answered by then is refused with `Unavailable` (HTTP 503 with
Retry-After, or an `error` on a socket) and its thread is left to finish on its own: the
database's own timeouts (`engine.make_engine`) usually end it soon after, a stopped database
backend only when it goes on. While every thread is held by such a read, new reads are
refused at once rather than queued behind them; as each stuck read ends, its thread serves
again, so the store recovers by itself when the database answers. The loop's default
thread pool is not used: a few stuck reads would fill it, and moves, bots and other
blocking work share it.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from chuko.core.text import Text
from chuko.server.store.writer import Unavailable

T = TypeVar("T")

READ_TIMEOUT = 2.0  # seconds a request's read may take
READ_THREADS = 4
WAITING_PER_THREAD = 8  # reads that may queue for each thread before more are refused
NOT_READ = Text("The games cannot be read right now: try again in a moment.")


class Reader:
    """`threads` threads for reads of at most `timeout` seconds each."""

    def __init__(self, threads: int = READ_THREADS, timeout: float = READ_TIMEOUT) -> None:
        if not timeout > 0:
            raise ValueError("A read's timeout must be above 0 seconds.")
        self.timeout = timeout
        self.threads = threads
        # Daemon threads, unlike a ThreadPoolExecutor's: a read stuck on a stopped database
        # must not hold up the process's exit.
        self._jobs: queue.SimpleQueue[tuple[Future, Callable[..., Any], tuple] | None] = (
            queue.SimpleQueue())
        for number in range(threads):
            threading.Thread(target=self._serve, name=f"chuko-db-read-{number}",
                             daemon=True).start()
        self._lock = threading.Lock()  # the counts change on the loop and in the threads
        self._open = 0  # reads queued or running
        self._abandoned: set[Future] = set()  # reads past their timeout, still running

    async def run(self, read: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        """`read(*args)` on one of the reader's threads; Unavailable when it takes longer
        than `timeout` (by default the reader's), or at once while every thread is held by
        a read given up on or too many reads wait."""
        with self._lock:
            stuck = len(self._abandoned)
            if stuck >= self.threads or (
                    self._open - stuck >= self.threads * (1 + WAITING_PER_THREAD)):
                raise Unavailable(NOT_READ)
            self._open += 1
        job: Future = Future()
        job.add_done_callback(self._done)  # also when cancelled before it started
        self._jobs.put((job, read, args))
        try:
            # A read that has not started when the wait ends is cancelled, and never runs.
            return await asyncio.wait_for(asyncio.wrap_future(job),
                                          timeout or self.timeout)
        except TimeoutError:
            with self._lock:
                if not job.done():
                    self._abandoned.add(job)
            raise Unavailable(NOT_READ) from None

    def _serve(self) -> None:
        while (next_job := self._jobs.get()) is not None:
            job, read, args = next_job
            if not job.set_running_or_notify_cancel():
                continue  # its waiter left before it started
            try:
                job.set_result(read(*args))
            except BaseException as error:
                job.set_exception(error)

    def _done(self, job: Future) -> None:
        with self._lock:
            self._open -= 1
            self._abandoned.discard(job)

    @property
    def stuck(self) -> int:
        """Reads given up on whose threads are still held."""
        return len(self._abandoned)

    def close(self) -> None:
        """Stop the threads once the reads queued are done, without waiting for them."""
        for _ in range(self.threads):
            self._jobs.put(None)
