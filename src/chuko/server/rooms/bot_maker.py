"""The bots of the rooms' bot seats (`BotMaker`): made from the game's levels, and for a seat
a bot takes over from its player."""

from __future__ import annotations

import secrets
from random import Random
from typing import Any

from chuko.bots import make_bot
from chuko.server.rooms.room import Room


class BotMaker:
    """The bots of the rooms' bot seats, made from the game's levels and `options` (by game
    and level), each with a random generator of its own (`rng`'s children, for tests)."""

    def __init__(self, rng: Random | None, options: dict[str, dict[str, Any]]) -> None:
        self.rng, self.options = rng, options

    def _child_rng(self) -> Random:
        return secrets.SystemRandom() if self.rng is None else Random(self.rng.getrandbits(64))

    def seat_bots(self, room: Room) -> None:
        """A bot for each bot seat without one yet (a seat a bot took over, too)."""
        for seat in room.seats:
            if seat.kind == "bot" and seat.level is not None and seat.bot is None:
                options = self.options.get(room.game_id, {}).get(seat.level, {})
                seat.bot = make_bot(room.game_id, seat.level, self._child_rng(), **options)

    def take_over(self, room: Room, seat: int, level: str, reason: str) -> None:
        """A bot of `level` plays `seat` from now on (stored already)."""
        held = room.seats[seat]
        held.kind, held.level, held.gone = "bot", level, reason
        held.bot = None
        room.renamed()
        self.seat_bots(room)
        if room.clocks is not None:
            room.clocks.stop(seat)
        room.away.pop(seat, None)
