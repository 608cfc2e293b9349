"""The server's event bus (`Bus`): what happened in one domain, told to the others that care,
without either importing the other (lila's `Bus` is the model).

An event is a small frozen value (`MoveStored`, `GameOver`, `SeatLeft`, `ClockFlagged`,
`PlayerPaired`, `RoomChanged`), published once what it tells is committed, by the worker
that committed it (in a cluster the others catch up without telling their bus). A
subscriber is a plain function of the event, called in the order subscribers were added, on
the event loop's thread: it must not block (work that takes time is scheduled by the
subscriber as a task or on a pool of its own). One that raises is logged and the others
still hear the event: the room that published it goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MoveStored:
    """A room's move is committed: the room is at `version` now, by the move of `seat`
    (a person's or a bot's)."""

    room_id: str
    version: int
    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """A room's game has ended and its end is committed (`result` as stored: its kind,
    and why a rated game changed no rating, when so)."""

    room_id: str
    game_id: str
    rated: bool
    places: tuple[int, ...] | None
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A seat's player is out of the game before its end, and a bot plays the seat from now
    on (a table of three or more; heads-up, the game ends instead: `GameOver`). `reason`:
    "resigned", "timeout", or "left" (every socket gone past the grace)."""

    room_id: str
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class ClockFlagged:
    """A seat's clock ran out, and the forfeit that follows is committed (`GameOver` or
    `SeatLeft` tells what it did)."""

    room_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerPaired:
    """The lobby seated a player in a room (a pool's wave, or a seek taken)."""

    player: str
    room_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class RoomChanged:
    """A room's stored state changed and the change is committed (a move, a seat taken or
    left, a rematch linked, an expiry, an end), or its round's pause moved on: what another
    worker holding the room must catch up on. `version` is its moves now; `reload`, that its
    header changed; `bots`, that the worker running the bots and timers must hold it (its
    bots have a move to make, or its clocks run); `kind` "change", else "next" (a seat ends
    the round's pause) or "state" (the pause is over)."""

    room_id: str
    version: int
    reload: bool = False
    bots: bool = False
    kind: str = "change"


Event = MoveStored | GameOver | SeatLeft | ClockFlagged | PlayerPaired | RoomChanged
E = TypeVar("E", MoveStored, GameOver, SeatLeft, ClockFlagged, PlayerPaired, RoomChanged)


class Bus:
    """Subscribers by the kind of event they hear, and the call that tells them."""

    def __init__(self) -> None:
        self._subscribers: dict[type, list[Callable[[Any], None]]] = {}

    def subscribe(self, kind: type[E], subscriber: Callable[[E], None]) -> None:
        """Have `subscriber` hear every event of `kind` from now on."""
        self._subscribers.setdefault(kind, []).append(subscriber)

    def unsubscribe(self, kind: type[E], subscriber: Callable[[E], None]) -> None:
        """Stop telling `subscriber` of `kind` (nothing when it was not subscribed)."""
        listeners = self._subscribers.get(kind, [])
        if subscriber in listeners:
            listeners.remove(subscriber)

    def publish(self, event: Event) -> None:
        """Tell every subscriber of the event's kind, in order; one that fails is logged."""
        for subscriber in list(self._subscribers.get(type(event), ())):
            try:
                subscriber(event)
            except Exception:
                log.exception("a subscriber to %s failed", type(event).__name__)
