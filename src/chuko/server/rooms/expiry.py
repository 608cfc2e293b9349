"""Rooms that wait too long for their players expire: on the next request for one, or at the
sweep that runs at start and then now and then (`waiting_ttl`)."""

from __future__ import annotations

import asyncio
import logging

from chuko.server.rooms.hub_base import HubBase, expired_sentence, stored
from chuko.server.rooms.room import Room
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

SWEEP_EVERY = 3600.0  # the longest time between two sweeps for rooms that have waited too long


class Expiry(HubBase):
    """Rooms still waiting past `waiting_ttl`, closed and stored as expired."""

    async def _expire(self, room: Room) -> None:
        """Close a room that has waited too long (unless a join got in first), store it and
        tell its clients."""
        async with room.lock:
            if room.status != "waiting":
                return
            cutoff = self.clock() - self.waiting_ttl
            closing = self.store.submit(db.expire_waiting(cutoff, room.id))
            try:
                await closing
            finally:
                if stored(closing):
                    room.status, room.closed = "expired", expired_sentence(self.waiting_ttl)
        room.broadcast()
        self._tell(room, reload=True)

    async def sweep(self) -> int:
        """Expire every room, stored or in memory, that has waited too long; rooms in memory
        that nobody watches leave it. How many stored rooms were closed."""
        cutoff = self.clock() - self.waiting_ttl
        expired = await self.store.submit(db.expire_waiting(cutoff))
        closed = len(expired)
        if self.cluster is not None:
            for room_id in expired:
                self.cluster.publish(room_id, 0, reload=True)
        for room in list(self.rooms.values()):
            if room.status == "waiting" and room.created <= cutoff:
                await self._expire(room)
                if not room.clients:
                    self.rooms.pop(room.id, None)
        return closed

    async def _sweep_now_and_then(self) -> None:
        while not self._closing:
            try:
                closed = await self.sweep()
            except db.Unavailable:
                log.warning("The sweep for expired rooms waits for the database.")
            except Exception:  # a failed sweep must not stop the next one
                log.exception("The sweep for expired rooms failed.")
            else:
                if closed:
                    log.info("Closed %d room(s) that waited too long for players.", closed)
            await asyncio.sleep(min(SWEEP_EVERY, max(self.waiting_ttl / 4, 1.0)))
