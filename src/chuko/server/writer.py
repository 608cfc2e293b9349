"""The store's writer: one thread that commits whatever is queued in one transaction (group
commit). A move is durable before its future resolves, and a busy server pays one commit for
many moves instead of one each.

The database may go away and come back (a restart, a failover, a network cut). The writer
never dies of it: when its connection is lost and a new one cannot be made, the store is
*away* (`Writer.available` false), every write is refused at once with `Unavailable` (a
sentence; nothing is acknowledged that is not stored), and the writer tries to connect again
with backoff, up to `RETRY_MAX` seconds apart, until it can: then writes go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from chuko.core.errors import ChukoError

from .writes import Append, Write

log = logging.getLogger("chuko.server")

# Seconds a client is told to wait (HTTP Retry-After) while the database is away; also the
# longest wait between two of the writer's attempts to reach it again.
RETRY_AFTER = 2
RETRY_FIRST, RETRY_MAX = 0.1, float(RETRY_AFTER)
CLOSE_TIMEOUT = 5.0  # seconds `close` waits for the writer to finish what is queued


class Unavailable(ChukoError):
    """The database cannot be reached now: HTTP 503 with Retry-After, or an `error` on the
    socket. Nothing was stored."""

    def __init__(self, message: str = "The games cannot be reached right now: try again "
                 "in a moment.") -> None:
        super().__init__(message)


_STOP = object()
COMMIT_DELAY = 0.001  # seconds the writer waits for more writes when they come together


class Committing(asyncio.Future):
    """A queued write's future, which cancelling leaves alone: once queued, the write is
    committed or fails whatever its waiter does, so the waiter learns which before its own
    cancellation goes on. It keeps what it holds (a room's lock) meanwhile, and memory can
    follow the database (where `asyncio.shield` lets the waiter leave at once, the write
    still to come; a shield also costs two more callbacks and a future on every move)."""

    def cancel(self, msg: Any = None) -> bool:
        return False


Job = tuple[Write, asyncio.Future, asyncio.AbstractEventLoop]


class Writer:
    """The writer thread of a store on `engine`, and the queue it commits from."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SimpleQueue: its put is one call in C, where Queue's takes locks and a condition
        # in Python for each write.
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # Held to queue a write, and to close: no write is queued after the writer's stop,
        # where nothing would settle its future (which cannot be cancelled).
        self._closing = threading.Lock()
        self._closed = False
        # False while the database is away: writes and reads are refused at once, and the
        # writer alone tries to reach it (set only by the writer thread).
        self.available = True
        self.commits = 0  # transactions committed (the group commit's effect is moves/commits)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="chuko-db-writer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Commit what is queued, stop the writer, release the database; a write submitted
        from now on fails at once. Waits at most CLOSE_TIMEOUT for the writer, whatever the
        database does (the writer's thread is a daemon: a stop does not wait for it)."""
        with self._closing:
            self._closed = True
            if self._thread is not None:
                self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(CLOSE_TIMEOUT)
            if self._thread.is_alive():
                log.warning("The database writer did not finish within %.0f s; stopping "
                            "without it.", CLOSE_TIMEOUT)
            self._thread = None
        self.engine.dispose()

    def submit(self, write: Write) -> asyncio.Future:
        """Queue a write; the future resolves once it is committed (or with its error:
        Unavailable at once while the database is away). It cannot be cancelled
        (`Committing`): a task cancelled while it waits goes on waiting until the write is
        done, then gets its CancelledError."""
        loop = asyncio.get_running_loop()
        future = Committing(loop=loop)
        with self._closing:
            if self._closed:
                future.set_exception(ChukoError("The server is stopping, so nothing more is "
                                                "stored: try again in a moment."))
            elif not self.available:
                future.set_exception(Unavailable())
            else:
                self._queue.put((write, future, loop))
        return future

    def _run(self) -> None:
        together = 1  # writes in the last batch
        conn: Connection | None = None
        try:
            while True:
                if conn is None:
                    conn = self._reconnect()
                    if conn is None:  # stopping while the database was away
                        return
                batch = [self._queue.get()]
                if together > 1:
                    # Others are writing at once: a moment's wait lets one commit (and its
                    # sync to disk, most of a commit's cost) carry more of them. Alone, a
                    # write goes at once.
                    time.sleep(COMMIT_DELAY)
                while len(batch) < 512:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = _STOP in batch
                jobs = [job for job in batch if job is not _STOP]
                together = len(jobs)
                if jobs:
                    conn = self._commit(conn, jobs)
                if stop:
                    return
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
            self._refuse_queued()

    def _reconnect(self) -> Connection | None:
        """A connection for the writer, waiting as long as the database is away (writes are
        refused meanwhile, `available`); None when the store is closing first."""
        wait = RETRY_FIRST
        while True:
            conn = self._connect()
            if conn is not None:
                if not self.available:
                    log.warning("The database is back: storing moves again.")
                    self.available = True
                return conn
            if self.available:
                log.warning("The database cannot be reached: moves are refused until it "
                            "is back.")
                self.available = False
            # Writes queued before the store was known to be away are refused now; the
            # stop is waited for meanwhile, so a closing store does not wait on the backoff.
            deadline = time.monotonic() + wait
            while (left := deadline - time.monotonic()) > 0:
                try:
                    job = self._queue.get(timeout=left)
                except queue.Empty:
                    break
                if job is _STOP:
                    return None
                _fail(job, Unavailable())
            wait = min(wait * 2, RETRY_MAX)

    def _connect(self) -> Connection | None:
        """A new connection that answers, or None (the database is away)."""
        try:
            conn = self.engine.connect()
        except SQLAlchemyError:
            return None
        return conn

    def _refuse_queued(self) -> None:
        """Fail what is still queued when the writer stops: nothing would settle it."""
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is not _STOP:
                _fail(job, Unavailable())

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
                           for write, _, _ in jobs]
                Append.run_many(conn, [write for write, _, _ in jobs
                                       if isinstance(write, Append)])
            self.commits += 1
        except Exception as error:
            lost = self._lost(conn, error)
            with contextlib.suppress(Exception):
                conn.close()
            fresh = self._connect()
            if fresh is None:
                # Away: nothing of the batch is acknowledged (a commit cut off may have
                # landed, which the room's next move finds as a Conflict and catches up).
                for job in jobs:
                    _fail(job, Unavailable())
                return None
            if lost and retry:
                # The database dropped the connection (it restarted, say), which a pool
                # would have found before lending it: the batch goes again on a new one.
                return self._commit(fresh, jobs, retry=False)
            if len(jobs) == 1:
                _fail(jobs[0], Unavailable() if lost else error)
                return fresh
            # One write failed: run each alone so only that one fails.
            next_conn: Connection | None = fresh
            for index, job in enumerate(jobs):
                if next_conn is None:
                    for rest in jobs[index:]:
                        _fail(rest, Unavailable())
                    break
                next_conn = self._commit(next_conn, [job])
            return next_conn
        _settle_all(jobs, results)
        return conn

    def _lost(self, conn: Connection, error: Exception) -> bool:
        """Whether `error` says the database dropped the writer's connection."""
        if isinstance(error, DBAPIError):
            return bool(error.connection_invalidated)
        dialect = self.engine.dialect
        if not isinstance(error, dialect.loaded_dbapi.Error):
            return False
        try:
            raw = conn.connection.dbapi_connection
        except Exception:  # SQLAlchemy found it unusable already
            return True
        return bool(dialect.is_disconnect(error, raw, None))


def _settle_all(jobs: list[Job], results: list[Any]) -> None:
    """Resolve a committed batch's futures with one wake-up of each loop, not one a write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, Any]]] = {}
    for (_, future, loop), result in zip(jobs, results, strict=True):
        by_loop.setdefault(loop, []).append((future, result))

    def resolve(settled: list[tuple[asyncio.Future, Any]]) -> None:
        for future, result in settled:
            future.set_result(result)

    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(resolve, settled)


def _fail(job: Job, error: BaseException) -> None:
    _, future, loop = job

    def resolve() -> None:
        future.set_exception(error)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(resolve)
