"""Rooms that wait too long for their players expire (`Expiry`): on the next request for one,
or at the sweep that runs at start and then now and then (`waiting_ttl`; the sweep is the
rooms' lifecycle's, `lifecycle.py`)."""

from __future__ import annotations

from collections.abc import Callable

from chuko.core.text import Plural
from chuko.server.rooms.commits import stored
from chuko.server.rooms.peers import changed
from chuko.server.rooms.room import Room
from chuko.server.shared.bus import Bus, RoomChanged
from chuko.server.store import database as db

WAITING_TTL = 24 * 3600.0  # seconds a room may wait for its players before it expires


def expired_sentence(ttl: float) -> str:
    """What an expired room's pages and refused joins say."""
    if ttl >= 3600:
        return Plural("This room has closed: its seats were not all taken within {n} hour. "
                      "Start a new game from the home page.",
                      "This room has closed: its seats were not all taken within {n} hours. "
                      "Start a new game from the home page.", n=round(ttl / 3600))
    return Plural("This room has closed: its seats were not all taken within {n} minute. "
                  "Start a new game from the home page.",
                  "This room has closed: its seats were not all taken within {n} minutes. "
                  "Start a new game from the home page.", n=max(1, round(ttl / 60)))


class Expiry:
    """Rooms still waiting past `waiting_ttl`, closed and stored as expired."""

    def __init__(self, store: db.Store, clock: Callable[[], float], waiting_ttl: float,
                 bus: Bus) -> None:
        self.store, self.clock, self.waiting_ttl, self.bus = store, clock, waiting_ttl, bus
        self.sentence = expired_sentence(waiting_ttl)

    def cutoff(self) -> float:
        """When a room still waiting now was made at the latest to have waited too long."""
        return self.clock() - self.waiting_ttl

    async def expire(self, room: Room) -> None:
        """Close a room that has waited too long (unless a join got in first), store it and
        tell its clients."""
        async with room.lock:
            if room.status != "waiting":
                return
            closing = self.store.submit(db.expire_waiting(self.cutoff(), room.id))
            try:
                await closing
            finally:
                if stored(closing):
                    room.status, room.closed = "expired", self.sentence
        room.broadcast()
        self.bus.publish(changed(room, reload=True))

    async def expire_stored(self, cutoff: float) -> int:
        """Expire every stored room still waiting that was made by `cutoff` (those in memory
        too, as stored: the caller closes those after); how many were closed."""
        expired = await self.store.submit(db.expire_waiting(cutoff))
        for room_id in expired:
            self.bus.publish(RoomChanged(room_id, 0, reload=True))
        return len(expired)
