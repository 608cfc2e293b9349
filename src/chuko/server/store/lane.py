"""One lane of the store's writer: a thread with a connection of its own that commits whatever
is queued on it in one transaction (group commit). A move is durable before its future
resolves, and a busy server pays one commit for many moves instead of one each.

The database may go away and come back (a restart, a failover, a network cut). A lane
never dies of it: when its connection is lost and a new one cannot be made, the store is
*away* (`Writer.available` false), every write is refused at once with `Unavailable` (a
sentence; nothing is acknowledged that is not stored), and the lane tries to connect again
with backoff, up to `RETRY_MAX` seconds apart, until it can: then writes go on.

A lane whose commit hangs (a row lock held elsewhere, a stopped database backend) is given
up by the writer's watchdog (`writer.py`): it is `abandoned`, finishes its commit whenever
the database lets it, hands what is still queued on to the lane that replaced it, and ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from typing import Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.store.writes import Append, Write

log = logging.getLogger("chuko.server")

# Seconds a client is told to wait (HTTP Retry-After) while the database is away; also the
# longest wait between two of a lane's attempts to reach it again.
RETRY_AFTER = 2
RETRY_FIRST, RETRY_MAX = 0.1, float(RETRY_AFTER)
COMMIT_DELAY = 0.001  # seconds a lane waits for more writes when they come together
MAX_BATCH = 512


class Unavailable(ChukoError):
    """The database cannot be reached now: HTTP 503 with Retry-After, or an `error` on the
    socket. Nothing was stored."""

    def __init__(self, message: str = Text("The games cannot be reached right now: try "
                                           "again in a moment.")) -> None:
        super().__init__(message)


STOP = object()
# A write, the future its waiter holds, that waiter's loop, and the key that chose its lane
# (a room's id; None for the writes of no room).
Job = tuple[Write, asyncio.Future, asyncio.AbstractEventLoop, str | None]


class Owner(Protocol):
    """What a lane needs of the writer that runs it (`writer.Writer`)."""

    engine: Engine
    commits: int
    available: bool
    timeout: float
    quarantine: set[str]

    def route(self, job: Job) -> None: ...

    def committed(self, jobs: list[Job]) -> None: ...


class Lane:
    """A writer thread, its queue and its connection."""

    def __init__(self, writer: Owner, name: str) -> None:
        self.writer = writer
        # SimpleQueue: its put is one call in C, where Queue's takes locks and a condition
        # in Python for each write.
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.busy_since: float | None = None  # when the commit under way began (monotonic)
        self.batch: list[Job] = []  # the jobs of that commit
        self.abandoned = False  # given up by the watchdog: ends after its commit

    def stalled(self, now: float, longest: float) -> bool:
        """Whether the commit under way has taken more than `longest` seconds."""
        since = self.busy_since
        return since is not None and now - since > longest

    def _run(self) -> None:
        together = 1  # writes in the last batch
        conn: Connection | None = None
        try:
            while not self.abandoned:
                if conn is None:
                    conn = self._reconnect()
                    if conn is None:  # stopping while the database was away
                        return
                batch = [self.queue.get()]
                if together > 1:
                    # Others are writing at once: a moment's wait lets one commit (and its
                    # sync to disk, most of a commit's cost) carry more of them. Alone, a
                    # write goes at once.
                    time.sleep(COMMIT_DELAY)
                while len(batch) < MAX_BATCH:
                    try:
                        batch.append(self.queue.get_nowait())
                    except queue.Empty:
                        break
                stop = STOP in batch
                # A write whose waiter was refused already (it timed out) is not made: it
                # was not acknowledged, and nobody waits for it.
                jobs = [job for job in batch if job is not STOP and not job[1].done()]
                together = len(jobs)
                if jobs:
                    self.batch, self.busy_since = jobs, time.monotonic()
                    conn = self._commit(conn, jobs)
                    self.busy_since, self.batch = None, []
                if stop:
                    return
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.invalidate()  # not back to the pool, with its own lock timeout
            self._hand_on_queued()

    def _reconnect(self) -> Connection | None:
        """A connection for the lane, waiting as long as the database is away (writes are
        refused meanwhile, `available`); None when the store is closing first."""
        writer = self.writer
        wait = RETRY_FIRST
        while True:
            conn = self._connect()
            if conn is not None:
                if not writer.available:
                    log.warning("The database is back: storing moves again.")
                    writer.available = True
                return conn
            if writer.available:
                log.warning("The database cannot be reached: moves are refused until it "
                            "is back.")
                writer.available = False
            # Writes queued before the store was known to be away are refused now; the
            # stop is waited for meanwhile, so a closing store does not wait on the backoff.
            deadline = time.monotonic() + wait
            while (left := deadline - time.monotonic()) > 0:
                try:
                    job = self.queue.get(timeout=left)
                except queue.Empty:
                    break
                if job is STOP:
                    return None
                fail(job, Unavailable())
            wait = min(wait * 2, RETRY_MAX)

    def _connect(self) -> Connection | None:
        """A new connection that answers, or None (the database is away). On PostgreSQL it
        waits for a row lock only a fraction of the write timeout: a batch that meets a
        room locked elsewhere fails soon enough for its other rooms' writes to be made
        again, each alone, well within their time."""
        writer = self.writer
        try:
            conn = writer.engine.connect()
            if conn.dialect.name == "postgresql":
                waits = round(writer.timeout * 1000 / 4)
                conn.exec_driver_sql(f"SET lock_timeout = {waits}")
                conn.commit()
            return conn
        except SQLAlchemyError:
            return None

    def _hand_on_queued(self) -> None:
        """What is still queued when the lane ends: to the lane that replaced it when it was
        abandoned, failed when the store stops (nothing would settle it)."""
        while True:
            try:
                job = self.queue.get_nowait()
            except queue.Empty:
                return
            if job is STOP:
                continue
            if self.abandoned:
                self.writer.route(job)
            else:
                fail(job, Unavailable())

    def _commit(self, conn: Connection, jobs: list[Job],
                retry: bool = True) -> Connection | None:
        """Commit the jobs' writes in one transaction on `conn`; the connection to go on with
        (a fresh one after an error, which may have been the connection's; None when the
        database is away, every job then failed with Unavailable)."""
        try:
            with conn.begin():
                # The batch's moves go in together, after its other writes (a move's room
                # is stored before the move is made): two statements, not two a move.
                results = [None if isinstance(write, Append) else write(conn)
                           for write, _, _, _ in jobs]
                Append.run_many(conn, [write for write, _, _, _ in jobs
                                       if isinstance(write, Append)])
            self.writer.commits += 1
        except Exception as error:
            return self._failed(conn, jobs, error, retry)
        settle_all(jobs, results)
        self.writer.committed(jobs)
        return conn

    def _failed(self, conn: Connection, jobs: list[Job], error: Exception,
                retry: bool) -> Connection | None:
        """After a failed commit: the batch again on a fresh connection when the database
        dropped the old one, each write alone when one of several failed, otherwise the
        error to its waiter; the connection to go on with, as `_commit`."""
        lost = self._lost(conn, error)
        with contextlib.suppress(Exception):
            conn.invalidate()
        fresh = self._connect()
        if fresh is None:
            # Away: nothing of the batch is acknowledged (a commit cut off may have
            # landed, which the room's next move finds as a Conflict and catches up).
            for job in jobs:
                fail(job, Unavailable())
            return None
        if lost and retry:
            # The database dropped the connection (it restarted, say), which a pool
            # would have found before lending it: the batch goes again on a new one.
            return self._commit(fresh, jobs, retry=False)
        if len(jobs) == 1:
            # A statement cancelled by the database's timeouts, or a lock it could not
            # take in time, is the database not answering: nothing was stored.
            waited = isinstance(error, (OperationalError,
                                        self.writer.engine.dialect.loaded_dbapi.OperationalError))
            fail(jobs[0], Unavailable() if lost or waited else error)
            if waited and jobs[0][3] is not None:
                # Its room is locked elsewhere, maybe for long: its next writes go to the
                # quarantine's lane, not to hold this one up again.
                self.writer.quarantine.add(jobs[0][3])
            return fresh
        # One write failed: run each alone so only that one fails (those whose waiters
        # were refused meanwhile are not made).
        next_conn: Connection | None = fresh
        for index, job in enumerate(jobs):
            if next_conn is None:
                for rest in jobs[index:]:
                    fail(rest, Unavailable())
                break
            if not job[1].done():
                next_conn = self._commit(next_conn, [job])
        return next_conn

    def _lost(self, conn: Connection, error: Exception) -> bool:
        """Whether `error` says the database dropped the lane's connection."""
        if isinstance(error, DBAPIError):
            return bool(error.connection_invalidated)
        dialect = self.writer.engine.dialect
        if not isinstance(error, dialect.loaded_dbapi.Error):
            return False
        try:
            raw = conn.connection.dbapi_connection
        except Exception:  # SQLAlchemy found it unusable already
            return True
        return bool(dialect.is_disconnect(error, raw, None))


def settle_all(jobs: list[Job], results: list[Any]) -> None:
    """Resolve a committed batch's futures with one wake-up of each loop, not one a write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, Any]]] = {}
    for (_, future, loop, _), result in zip(jobs, results, strict=True):
        by_loop.setdefault(loop, []).append((future, result))

    def resolve(settled: list[tuple[asyncio.Future, Any]]) -> None:
        for future, result in settled:
            if not future.done():  # refused already when it took too long
                future.set_result(result)

    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(resolve, settled)


def fail(job: Job, error: BaseException) -> None:
    _, future, loop, _ = job

    def resolve() -> None:
        if not future.done():
            future.set_exception(error)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(resolve)
