"""The rooms' lifecycle in this worker: rebuilt from the store when first asked for, or at
start (the rooms in play with bots, which may have moves to make), and let go at a stop or
when another worker of a cluster takes over the bots and timers.

A room is stored as the record of its deal, a secret seed and its moves (`store.py`), and
rebuilt from them (`rebuild`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from typing import Any

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import State
from chuko.games import game_class
from chuko.server.rooms.clocks import Clocks
from chuko.server.rooms.endings import people
from chuko.server.rooms.hub_base import HubBase, expired_sentence
from chuko.server.rooms.room import NotFound, Room, Seat
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")


def rebuild(row: db.RoomRow, clocks: Clocks | None = None,
            clocked: Collection[int] = ()) -> tuple[State, tuple[int, Any] | None]:
    """A stored game as it was, and its last move as (seat, move value): the header's
    record replayed through the engine, the state reseeded with the room's secret seed so
    that chance comes out as it did, then every move of the log played again (each checked
    anew). `clocks` (of the `clocked` seats) are run through the game from when play began
    and each move's stored time. ChukoError when the stored game does not hold together."""
    last: list[tuple[int, Any]] = []  # the latest move the replay went through

    def observe(state: State, seat: int | None, move: Any) -> None:
        if seat is not None:
            last[:] = [(seat, move)]

    state = game_class(row.game).replay(row.record, observe)
    if row.seed is not None:
        state.reseed(row.seed)
    clocked = set(clocked)
    if clocks is not None and row.started is not None:
        clocks.start(state.to_move, clocked, row.started)
    for index, (seat, text) in enumerate(row.moves):
        move = state.game.parse_move(text)
        state.play(seat, move)
        last[:] = [(seat, move)]
        if clocks is not None:
            at = row.times[index] if index < len(row.times) else row.started or 0.0
            clocks.moved(seat, () if state.outcome is not None else state.to_move, clocked,
                         at)
    if row.base + len(row.moves) != row.version:
        raise ConfigError(f"The room is at move {row.version}, but its log holds "
                          f"{row.base + len(row.moves)}.")
    return state, last[0] if last else None


class Lifecycle(HubBase):
    """Rooms into memory and out of it; the bots and the sweep started and stopped."""

    async def restore(self) -> int:
        """Rebuild the rooms in play with bots (whose bots may have moves to make) and start
        them, and start the sweep for rooms that waited too long; the count rebuilt. Other
        rooms are loaded when first asked for. In a cluster, the worker that takes the lease
        does this (`lead`)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        self._start_timer()
        count = 0
        for row in await self.store.fetch_resumable():
            held = self.rooms.get(row.id)
            if held is not None:  # in memory already, and kept up to date
                self.kick(held)
                self.schedule(held)
                continue
            try:
                room = self._room_from_row(row)
            except ChukoError as error:
                log.error("Room %s cannot be restored: %s", row.id, error)
                continue
            self.rooms[room.id] = room
            self.kick(room)
            self.schedule(room)
            count += 1
        return count

    async def lead(self) -> None:
        """This worker took the cluster's lease: it runs the bots and the sweep now. When the
        rooms in play cannot be read just then, it says so and goes on leading: each such
        room is rebuilt, its bots and clocks going on, when it is next asked for."""
        if not self._closing:
            try:
                await self.restore()
            except db.Unavailable as error:
                log.warning("The rooms in play could not be read to resume them: %s", error)

    def step_down(self) -> list[asyncio.Task]:
        """Stop the bots and the sweep (another worker runs them now); the tasks stopped."""
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        for task in (self._sweeper, self._timer):
            if task is not None:
                tasks.append(task)
        self._sweeper = self._timer = None
        self._deadlines.clear()  # the timers' new runner rebuilds them from the store
        self._heap.clear()
        for task in tasks:
            task.cancel()
        return tasks

    async def close(self) -> None:
        self._closing = True
        for task in self.step_down():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _room_from_row(self, row: db.RoomRow) -> Room:
        """The room as it was (`rebuild`), its last move too, so `last` reads the same after
        a restart."""
        clocks = (None if row.clock is None
                  else Clocks.new(row.clock, len(row.seats), people(row.seats)))
        state, last = rebuild(row, clocks, [s.seat for s in row.seats if s.kind == "human"])
        seats = [Seat(s.seat, s.kind, s.level, s.token_hash, s.invite_hash, s.joined, s.name,
                      s.player, s.gone) for s in row.seats]
        room = Room(row.id, row.game, row.options, state, seats, row.version, row.status,
                    last, row.rematch, row.rematch_of, created=row.created, rated=row.rated,
                    clocks=clocks, started=row.started, ended=row.ended, result=row.result)
        if room.status == "expired":
            room.closed = expired_sentence(self.waiting_ttl)
        self._attend(room)
        self._make_bots(room)
        return room

    def _attend(self, room: Room) -> None:
        """Tie a room in memory to the hub's clock and timer; its people's seats count as
        away from now until their sockets come. In a cluster the lease holder decides
        absences from every worker's sockets, and tells the others (`presence.py`)."""
        room.now, room.grace, room.on_away = self.now, self.grace, self.schedule
        room.watch_away = self.cluster is None
        now = self.clock()
        room.away = {s.seat: now for s in room.seats
                     if s.kind == "human" and not s.connections and room.watch_away}
        if self.cluster is not None:
            self.cluster.attend(room)

    async def room(self, room_id: str) -> Room:
        """A room by id, loaded from the database if it is not in memory; a room that has
        waited too long for its players expires now."""
        room = self.rooms.get(room_id)
        if room is None:
            row = None
            if isinstance(room_id, str) and 0 < len(room_id) <= 32:
                row = await self.store.fetch_room(room_id)
            if row is None:
                raise NotFound(f"There is no room {room_id!r}.")
            room = self.rooms.get(room_id)
            if room is None:
                room = self.rooms[room_id] = self._room_from_row(row)
                if self.cluster is not None:
                    # A move another worker stored while the row was being read was announced
                    # before this worker held the room, so nothing here caught it up.
                    async with room.lock:
                        await self.catch_up(room)
                self.kick(room)
                self.schedule(room)
        elif self.cluster is not None and (room.status == "waiting" or (
                room.status == "over" and room.rematch is None)):
            # A seat taken or a rematch asked for on another worker may not have been
            # announced yet, and its player may come here next: read the header again.
            async with room.lock:
                await self.catch_up(room, reload=True)
        if room.status == "waiting" and room.created <= self.clock() - self.waiting_ttl:
            await self._expire(room)
        return room
