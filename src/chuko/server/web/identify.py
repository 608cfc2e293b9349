"""Who a request is, as the web's parts are told (`Identify`: the accounts' `player`, or a
test's own; `PlayerLookup`: the same, never making a guest), and the seat it holds in a
room."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from starlette.types import Scope

from chuko.server.shared.players import Player
from chuko.server.store.writer import Unavailable


class Identify(Protocol):
    """How the other parts find a request's player (`accounts.Accounts.player`), given to
    them so that a test may pass its own."""

    async def __call__(self, scope: Scope, *, create: bool) -> Player | None: ...


PlayerLookup = Callable[[Scope], Awaitable[Player | None]]


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
