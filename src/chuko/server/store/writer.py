"""The store's writer: lanes (`lane.py`) that commit what is queued on them in one
transaction each (group commit), a time limit on every write, and a watchdog.

A room's writes go to one lane, chosen by the room's id (the writes of no room go to the
first), so rooms on other lanes are not held up by one whose row is locked. Each write is
bounded in time (`WRITE_TIMEOUT` seconds, `chuko serve --write-timeout`): one not committed
by then is refused with `Unavailable` ("cannot be saved right now"), and nothing is
acknowledged that was not stored. A write refused so may still land later: the room's next
move then finds the stored game ahead (`Conflict`) and catches up from it.

A room whose write took too long is *quarantined*: its writes go to a lane of their own
until one of them commits again, so a lock held on it cannot hold up the other rooms of its
lane a second time. And a lane whose commit hangs for more than `STALL` seconds is given up
by the watchdog for a fresh one (with a connection of its own) that takes over what was
queued on it; the lane given up ends when the database lets its commit finish.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from typing import Any

from sqlalchemy import Engine

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.store.lane import RETRY_AFTER, STOP, Job, Lane, Unavailable
from chuko.server.store.writes import Write

__all__ = ["RETRY_AFTER", "Committing", "Unavailable", "Writer"]

log = logging.getLogger("chuko.server")

WRITE_TIMEOUT = 2.0  # seconds a write may take before its waiter is refused
STALL = 1.0  # seconds a lane's commit may hang before the watchdog replaces the lane
MAX_ABANDONED = 8  # lanes given up and still hung, past which no more are replaced
CLOSE_TIMEOUT = 5.0  # seconds `close` waits for the lanes to finish what is queued
NOT_SAVED = Text("The games cannot be saved right now: try again in a moment.")


class Committing(asyncio.Future):
    """A queued write's future, which cancelling leaves alone: once queued, the write is
    committed or fails whatever its waiter does, so the waiter learns which before its own
    cancellation goes on. It keeps what it holds (a room's lock) meanwhile, and memory can
    follow the database (where `asyncio.shield` lets the waiter leave at once, the write
    still to come; a shield also costs two more callbacks and a future on every move)."""

    def cancel(self, msg: Any = None) -> bool:
        return False


class Writer:
    """The lanes of a store on `engine`; `lanes` of them for rooms (and one for the rooms in
    quarantine), each write refused after `timeout` seconds."""

    def __init__(self, engine: Engine, *, lanes: int = 1,
                 timeout: float = WRITE_TIMEOUT) -> None:
        if lanes < 1 or not timeout > 0:
            raise ValueError("A writer needs a lane and a timeout above 0 seconds.")
        self.engine = engine
        self.timeout = timeout
        self._width = lanes
        self._lanes = [Lane(self, f"chuko-db-writer-{index}") for index in range(lanes + 1)]
        self._abandoned: list[Lane] = []
        self.quarantine: set[str] = set()  # rooms whose writes go to the last lane
        self._stopping = threading.Event()
        # Held to queue a write, and to close: no write is queued after the writer's stop,
        # where nothing would settle its future (which cannot be cancelled).
        self._closing = threading.Lock()
        self._closed = False
        # False while the database is away: writes and reads are refused at once, and the
        # lanes alone try to reach it (set only by the lanes).
        self.available = True
        self.commits = 0  # transactions committed (the group commit's effect is moves/commits)

    def start(self) -> None:
        for lane in self._lanes:
            lane.thread.start()
        threading.Thread(target=self._watch, name="chuko-db-watchdog", daemon=True).start()

    def _lane(self, index: int) -> Lane:
        lane = Lane(self, f"chuko-db-writer-{index}")
        lane.thread.start()
        return lane

    def close(self) -> None:
        """Commit what is queued, stop the lanes, release the database; a write submitted
        from now on fails at once. Waits at most CLOSE_TIMEOUT for the lanes, whatever the
        database does (their threads are daemons: a stop does not wait for them)."""
        with self._closing:
            self._closed = True
            self._stopping.set()
            for lane in self._lanes:
                lane.queue.put(STOP)
        deadline = time.monotonic() + CLOSE_TIMEOUT
        for lane in self._lanes:
            if lane.thread.ident is None:  # never started
                continue
            lane.thread.join(max(0.0, deadline - time.monotonic()))
            if lane.thread.is_alive():
                log.warning("The database writer did not finish within %.0f s; stopping "
                            "without it.", CLOSE_TIMEOUT)
                break
        self.engine.dispose()

    def submit(self, write: Write, key: str | None = None) -> asyncio.Future:
        """Queue a write (of the room `key`, by default the write's `room_id` if it has
        one); the future resolves once it is committed (or with its error: Unavailable at
        once while the database is away, or when it is not committed within the timeout).
        It cannot be cancelled (`Committing`): a task cancelled while it waits goes on
        waiting until the write is done or refused, then gets its CancelledError."""
        loop = asyncio.get_running_loop()
        future = Committing(loop=loop)
        if key is None:
            key = getattr(write, "room_id", None)
        with self._closing:
            if self._closed:
                future.set_exception(ChukoError(Text("The server is stopping, so nothing more is "
                                                     "stored: try again in a moment.")))
            elif not self.available:
                future.set_exception(Unavailable())
            else:
                self.route((write, future, loop, key))
                loop.call_later(self.timeout, self._expire, future, key)
        return future

    def route(self, job: Job) -> None:
        """Queue `job` on its room's lane (the quarantine's, when the room is in it)."""
        key = job[3]
        lanes = self._lanes
        if key is None:
            lane = lanes[0]
        elif self.quarantine and key in self.quarantine:
            lane = lanes[-1]
        else:
            lane = lanes[hash(key) % self._width]
        lane.queue.put(job)

    def _expire(self, future: asyncio.Future, key: str | None) -> None:
        """A write not committed within the timeout: its waiter is refused, and its room
        goes to the quarantine until a write of it commits."""
        if future.done():
            return
        future.set_exception(Unavailable(NOT_SAVED))
        if key is not None:
            self.quarantine.add(key)

    def committed(self, jobs: list[Job]) -> None:
        """The rooms of a committed batch leave the quarantine (called by the lanes)."""
        if self.quarantine:
            for job in jobs:
                if job[3] is not None:
                    self.quarantine.discard(job[3])

    def _watch(self) -> None:
        """Replace each lane whose commit has hung for more than STALL seconds."""
        longest = min(STALL, self.timeout / 2)
        while not self._stopping.wait(longest / 2):
            self._abandoned = [lane for lane in self._abandoned if lane.thread.is_alive()]
            now = time.monotonic()
            for index, lane in enumerate(self._lanes):
                if lane.stalled(now, longest) and len(self._abandoned) < MAX_ABANDONED:
                    self._replace(index, lane)

    def _replace(self, index: int, stuck: Lane) -> None:
        log.warning("A database write has hung for more than %.1f s: going on without it.",
                    min(STALL, self.timeout / 2))
        # The hung commit holds its rooms' rows: their next writes would wait on them.
        self.quarantine.update(job[3] for job in stuck.batch if job[3] is not None)
        with self._closing:
            if self._closed:
                return
            self._lanes[index] = self._lane(index)
            stuck.abandoned = True
        self._abandoned.append(stuck)
        # What waits behind the hung commit goes to the new lane now (and what is queued on
        # the old one later, when it ends).
        while True:
            try:
                job = stuck.queue.get_nowait()
            except queue.Empty:
                return
            if job is not STOP:
                self.route(job)
