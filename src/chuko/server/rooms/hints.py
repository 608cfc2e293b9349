"""Hints: advice on a seat's move, where the game gives it and no second human plays."""

from __future__ import annotations

from typing import cast
from weakref import WeakKeyDictionary

from chuko.bots import Adviser, make_adviser
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.shared.work import Pool


class Hints:
    """Hints, worked out in the pool (`work`) by an adviser made once per room."""

    def __init__(self, work: Pool) -> None:
        self.work = work
        # Made once per room in memory: an adviser may keep what it learns about the deal.
        self.advisers: WeakKeyDictionary[Room, Adviser] = WeakKeyDictionary()

    async def hint(self, room: Room, seat: int | None) -> Json:
        if seat is None:
            raise Forbidden(Text("Spectators get no hints."))
        if room.descriptor.integrations.hints is None:
            raise ConfigError(Text("{title} gives no hints.", title=room.descriptor.title))
        if not room.hintable:
            raise ConfigError(Text("Hints are only for games without a second human player."))
        if room.status != "playing" or seat not in room.state.to_move:
            raise ConfigError(Text("Hints are given on your turn."))
        adviser = self.advisers.get(room)
        if adviser is None:
            # The descriptor names a provider (checked above), so one is made.
            adviser = cast(Adviser, await self.work.run(make_adviser, room.state.game))
            adviser = self.advisers.setdefault(room, adviser)
        state = room.state.copy()
        return {"type": "hint", **await self.work.run(adviser.hint, state, seat)}
