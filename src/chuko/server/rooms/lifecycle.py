"""The rooms' lifecycle in this worker (`Rooms`): rebuilt from the store when first asked for,
or at start (the rooms in play with bots, which may have moves to make), swept for those that
waited too long for their players, their sockets come and gone. The hub starts the sweep
with the timer, and stops them with the bots at a stop or when another worker of a cluster
takes over the bots and timers (`Hub.restore`, `Hub.step_down`).

A room is stored as the record of its deal, a secret seed and its moves (`store/database.py`), and
rebuilt from them (`rebuild`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from typing import Any

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import State
from chuko.core.text import Text
from chuko.games import game_class
from chuko.server.rooms.bot_maker import BotMaker
from chuko.server.rooms.bots import Bots
from chuko.server.rooms.clocks import Clocks
from chuko.server.rooms.deadlines import Deadlines
from chuko.server.rooms.endings import people
from chuko.server.rooms.expiry import Expiry
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.outbox import Client
from chuko.server.rooms.peers import Peers
from chuko.server.rooms.room import NotFound, Room, Seat
from chuko.server.rooms.terms import ClubTerms
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

SWEEP_EVERY = 3600.0  # the longest time between two sweeps for rooms that have waited too long


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
        raise ConfigError(Text("The room is at move {version}, but its log holds "
                               "{moves}.", version=row.version, moves=row.base + len(row.moves)))
    return state, last[0] if last else None


class Rooms:
    """The rooms in memory (`held`, by id): loaded when asked for, resumed at start, swept."""

    def __init__(self, store: db.Store, clock: Callable[[], float], grace: float,
                 held: dict[str, Room], peers: Peers, terms: ClubTerms, deadlines: Deadlines,
                 maker: BotMaker, moves: MovePath, bots: Bots, expiry: Expiry) -> None:
        self.store, self.clock, self.grace, self.held = store, clock, grace, held
        self.peers, self.terms, self.deadlines = peers, terms, deadlines
        self.maker, self.moves, self.bots, self.expiry = maker, moves, bots, expiry

    async def resume(self) -> int:
        """Rebuild the rooms in play with bots (whose bots may have moves to make) and start
        them; the count rebuilt. Other rooms are loaded when first asked for."""
        count = 0
        for row in await self.store.fetch_resumable():
            kept = self.held.get(row.id)
            if kept is not None:  # in memory already, and kept up to date
                self._go_on(kept)
                continue
            try:
                room = self.from_row(row)
            except ChukoError as error:
                log.error("Room %s cannot be restored: %s", row.id, error)
                continue
            self.held[room.id] = room
            self._go_on(room)
            count += 1
        return count

    def _go_on(self, room: Room) -> None:
        """A room in memory goes on: its bots move if they must, its deadline is noted."""
        self.bots.kick(room)
        self.deadlines.schedule(room)

    def from_row(self, row: db.RoomRow) -> Room:
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
        self.terms.word(room)
        if room.status == "expired":
            room.closed = self.expiry.sentence
        self.attend(room)
        self.maker.seat_bots(room)
        return room

    def attend(self, room: Room) -> None:
        """Tie a room in memory to the clock; its people's seats count as away from now
        until their sockets come. In a cluster the lease holder decides absences from every
        worker's sockets, and tells the others (`presence.py`)."""
        room.now, room.grace = self.clock, self.grace
        now = self.clock()
        room.away = {s.seat: now for s in room.seats
                     if s.kind == "human" and not s.connections and self.peers.alone}
        self.peers.attend(room)

    def connect(self, room: Room, client: Client) -> None:
        """A socket on the room opened: it is sent the state now, and its seat, if any, is
        present (alone, as this worker's sockets say; in a cluster, as the lease holder
        decides from every worker's: `presence.py`)."""
        first = room.join(client)
        if client.seat is not None and self.peers.alone:
            room.away.pop(client.seat, None)
        if first:
            self.peers.seat_changed(room)

    def disconnect(self, room: Room, client: Client) -> None:
        """A socket on the room closed: when it was its seat's last, the seat is away from
        now (the timer ends its grace) and the cluster, if any, shares it."""
        if room.forget(client) and client.seat is not None:
            if self.peers.alone:
                room.away[client.seat] = self.clock()
                self.deadlines.schedule(room)
            self.peers.seat_changed(room)

    async def room(self, room_id: str) -> Room:
        """A room by id, loaded from the database if it is not in memory; a room that has
        waited too long for its players expires now."""
        room = self.held.get(room_id)
        if room is None:
            row = None
            if isinstance(room_id, str) and 0 < len(room_id) <= 32:
                row = await self.store.fetch_room(room_id)
            if row is None:
                raise NotFound(Text("There is no room {room_id!r}.", room_id=room_id))
            room = self.held.get(room_id)
            if room is None:
                room = self.held[room_id] = self.from_row(row)
                if not self.peers.alone:
                    # A move another worker stored while the row was being read was announced
                    # before this worker held the room, so nothing here caught it up.
                    async with room.lock:
                        await self.moves.catch_up(room)
                self._go_on(room)
        elif not self.peers.alone and (room.status == "waiting" or (
                room.status == "over" and room.rematch is None)):
            # A seat taken or a rematch asked for on another worker may not have been
            # announced yet, and its player may come here next: read the header again.
            async with room.lock:
                await self.moves.catch_up(room, reload=True)
        if room.status == "waiting" and room.created <= self.expiry.cutoff():
            await self.expiry.expire(room)
        if room.rated and room.ratings is None:
            # Shown beside the seats' names; read again when asked next if the database
            # cannot say just now.
            with contextlib.suppress(db.Unavailable):
                await self.terms.read_ratings(self.store, room)
        return room

    async def sweep(self) -> int:
        """Expire every room, stored or in memory, that has waited too long; rooms in memory
        that nobody watches leave it. How many stored rooms were closed."""
        cutoff = self.expiry.cutoff()
        closed = await self.expiry.expire_stored(cutoff)
        for room in list(self.held.values()):
            if room.status == "waiting" and room.created <= cutoff:
                await self.expiry.expire(room)
                if not room.clients:
                    self.held.pop(room.id, None)
        return closed

    async def sweep_now_and_then(self) -> None:
        """Sweep at once, then every SWEEP_EVERY seconds at most (a quarter of the time a
        room may wait, when that is shorter), until stopped."""
        while True:
            try:
                closed = await self.sweep()
            except db.Unavailable:
                log.warning("The sweep for expired rooms waits for the database.")
            except Exception:  # a failed sweep must not stop the next one
                log.exception("The sweep for expired rooms failed.")
            else:
                if closed:
                    log.info("Closed %d room(s) that waited too long for players.", closed)
            await asyncio.sleep(min(SWEEP_EVERY, max(self.expiry.waiting_ttl / 4, 1.0)))
