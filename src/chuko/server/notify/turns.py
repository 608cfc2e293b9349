"""Whose turn it is in which room, as each player's channel tells them (`Turns`): the rooms
in play where a player holds a seat and the engine's `to_move` names it (`yours`), read
when a page opens (`of`), and told again as rooms change.

It hears every committed change of a room (`RoomChanged` on the hub's bus: a move, a seat
taken, an end, a round's pause over), on the worker that committed it, which holds the
room; it tells each person seated whether it is their turn there now, through the channel
(on whichever worker their pages are). A page keeps the set of rooms told to be its
player's turn; nothing of whose turn it is is worked out in the browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from chuko.core.errors import ChukoError
from chuko.server.rooms.room import Room
from chuko.server.shared.bus import Bus, RoomChanged
from chuko.server.store import people_rows
from chuko.server.store.database import Store

Tell = Callable[[str, dict[str, Any]], None]
LoadRoom = Callable[[str], Awaitable[Room]]
MOST_ROOMS = 50  # rooms in play read for one player's count


def yours(room: Room, seat: int) -> bool:
    """Whether it is `seat`'s turn in `room`, as its engine says."""
    return (room.status == "playing" and seat in room.state.to_move
            and room.seats[seat].gone is None)


class Turns:
    """The rooms of `rooms` (in memory) and `load` (any room by id) on `store`, told on
    `tell` as `bus` says they change."""

    def __init__(self, store: Store, rooms: dict[str, Room], load: LoadRoom, bus: Bus,
                 tell: Tell) -> None:
        self.store, self.rooms, self.load, self.tell = store, rooms, load, tell
        bus.subscribe(RoomChanged, self.changed)

    def changed(self, event: RoomChanged) -> None:
        room = self.rooms.get(event.room_id)
        if room is None:
            return
        for seat in room.seats:
            if seat.kind == "human" and seat.player is not None:
                self.tell(seat.player, {"type": "turn", "room": room.id,
                                        "yours": yours(room, seat.seat)})

    async def of(self, player: str) -> list[str]:
        """The rooms in play where it is `player`'s turn (of their latest MOST_ROOMS); a
        room that cannot be read just now is left out."""
        held = await self.store.fetch(lambda conn: people_rows.playing(conn, [player]))
        mine = []
        for room_id, _ in held.get(player, [])[:MOST_ROOMS]:
            try:
                room = await self.load(room_id)
            except ChukoError:
                continue
            if any(yours(room, seat.seat) for seat in room.seats if seat.player == player):
                mine.append(room.id)
        return mine
