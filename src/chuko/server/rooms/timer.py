"""The rooms' timer (`Timer`): one task that sleeps until the earliest of the rooms'
deadlines (`deadlines.py`) and acts on those due, never a task per room; it runs on the
worker that runs the bots and timers (alone, or holding the cluster's lease).

At a deadline, a clock run out or a player gone for the grace forfeits the seat
(`forfeits.py`); heads-up, a player gone makes the game claimable by the opponent, who is
told so then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial

from chuko.core.errors import ChukoError
from chuko.server.rooms.deadlines import Deadlines
from chuko.server.rooms.forfeits import Forfeits
from chuko.server.rooms.lifecycle import Rooms
from chuko.server.rooms.peers import Peers
from chuko.server.rooms.room import Room
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

IDLE_WAIT = 60.0  # seconds the timer sleeps at most (it is woken for an earlier deadline)


class Timer:
    """The task that acts on the rooms' deadlines as they fall due."""

    def __init__(self, deadlines: Deadlines, rooms: Rooms, forfeits: Forfeits,
                 peers: Peers) -> None:
        self.deadlines, self.rooms, self.forfeits, self.peers = deadlines, rooms, forfeits, peers
        self.clock = deadlines.clock
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        """Run the timer (where the bots and timers run)."""
        if self.task is None or self.task.done():
            self.deadlines.wake = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> asyncio.Task | None:
        """Stop the timer and forget the deadlines (the timers' next runner rebuilds them
        from the store); the task stopped, if one ran."""
        task, self.task = self.task, None
        self.deadlines.clear()
        if task is not None:
            task.cancel()
        return task

    async def check_clocks(self) -> int:
        """Act on every deadline due by now; how many rooms were looked at."""
        now = self.clock()
        done: set[str] = set()
        while (room_id := self.deadlines.pop_due(now, done)) is not None:
            done.add(room_id)
            try:
                await self._check(await self.rooms.room(room_id))
            except db.Unavailable:
                self.deadlines.retry(room_id, now + db.RETRY_AFTER)  # again once it is back
            except ChukoError as error:
                log.error("Room %s: its clocks could not be checked: %s", room_id, error)
        return len(done)

    async def _check(self, room: Room) -> None:
        """A room's deadline is due: end the turns of clocks run out and of players who
        left."""
        clocks = room.clocks
        if clocks is not None:
            for seat in clocks.out(self.clock()):
                await self.forfeits.forfeit(room, seat, "timeout", partial(self._out, room, seat))
        if room.status == "playing" and len(room.seats) > 2:
            for seat in self.deadlines.left(room):
                await self.forfeits.forfeit(
                    room, seat, "left",
                    partial(lambda r, s: s in self.deadlines.left(r), room, seat))
        elif room.status == "playing":
            room.broadcast()  # heads-up: the opponent may claim the game now
            self.peers.publish_away(room)  # on whichever worker they are
        self.deadlines.schedule(room)

    def _out(self, room: Room, seat: int) -> bool:
        """Whether `seat`'s clock has run out in a game in play."""
        return (room.status == "playing" and room.clocks is not None
                and seat in room.clocks.out(self.clock()))

    async def _run(self) -> None:
        wake = self.deadlines.wake
        while True:
            try:
                await self.check_clocks()
            except Exception:  # a failed check must not stop the next one
                log.exception("The check of the rooms' clocks failed.")
            first = self.deadlines.first()
            wait = IDLE_WAIT if first is None else first - self.clock()
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), min(IDLE_WAIT, max(0.01, wait)))
