"""Who a request is: a player of the club, a guest or an account holder."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.types import Scope

from chuko.server.store.writer import Unavailable


@dataclass(frozen=True)
class Player:
    """A player as the server knows them; `id` never leaves the server.

    A guest has no username; an account holder has one (shown as their
    profile name), and `name` is the display name either way.
    """

    id: str
    name: str
    username: str | None

    @property
    def is_guest(self) -> bool:
        """Whether this player plays without an account."""
        return self.username is None


class Identify(Protocol):
    """How the other parts find a request's player (`accounts.Accounts.player`), given to
    them so that a test may pass its own."""

    async def __call__(self, scope: Scope, *, create: bool) -> Player | None: ...


def seat_of(seats: Iterable[Any], player: Player | None) -> int | None:
    """The number of the seat `player` holds among a room's `seats`, if any."""
    if player is None:
        return None
    return next((seat.seat for seat in seats if seat.player == player.id), None)


async def held_seat(identify: Identify, scope: Scope, seats: Iterable[Any]) -> int | None:
    """The seat the request's player holds among `seats`, if any. While the database is
    away the session cannot be read: the request is a spectator's, as one without a
    cookie (a room in memory is still watched)."""
    try:
        player = await identify(scope, create=False)
    except Unavailable:
        return None
    return seat_of(seats, player)
