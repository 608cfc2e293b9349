"""A room's time control and its clocks (docs/web-protocol.md, "Clocks").

A control is a room's setting, not a game's option: none (casual with friends), per move
(`{"kind": "move", "seconds": 30, "reserve": 60}`: each move has `seconds`; time over them
eats the seat's reserve, which never refills) or correspondence (`{"kind": "days",
"days": 2}`: days a move, no reserve). Each seat to move (several at once in a simultaneous
game) runs its own clock from when it became to move; bots' seats, and seats a bot took over,
have none.

Nothing here is kept that the database does not say: the clocks are worked out again from
when play began (`rooms.started`) and each stored move's time (`moves.at`) whenever a room is
rebuilt, so they survive a restart, `kill -9` included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json

DAY = 86_400.0
MOVE_SECONDS = (5, 600)  # the bounds of a per-move clock's seconds a move
RESERVE_SECONDS = (0, 3600)  # and of its reserve
DAYS = (1, 14)  # a correspondence clock's days a move


def _whole(control: dict[str, Any], key: str, bounds: tuple[int, int], what: str) -> int:
    value = control.get(key)
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"A clock's {what} must be a whole number from {low} to {high}, "
                          f"not {value!r}.")
    return value


def read_control(value: Any) -> Json | None:
    """A room's time control as a request gives it, checked and with only its own keys; None
    for no clock. ConfigError (one sentence) for anything else."""
    if value is None:
        return None
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind == "move":
        if set(value) - {"kind", "seconds", "reserve"}:
            raise ConfigError('A per-move clock takes only "seconds" and "reserve".')
        return {"kind": "move",
                "seconds": _whole(value, "seconds", MOVE_SECONDS, "seconds a move"),
                "reserve": _whole({"reserve": value.get("reserve", 0)}, "reserve",
                                  RESERVE_SECONDS, "reserve in seconds")}
    if kind == "days":
        if set(value) - {"kind", "days"}:
            raise ConfigError('A correspondence clock takes only "days".')
        return {"kind": "days", "days": _whole(value, "days", DAYS, "days a move")}
    raise ConfigError('A clock is null (none), {"kind": "move", "seconds": …, "reserve": …} '
                      f'or {{"kind": "days", "days": …}}, not {value!r}.')


def realtime(control: Json | None) -> bool:
    """Whether players are expected to stay at the table (a per-move clock, or none): a
    player whose sockets are all gone for the grace period then counts as having left. A
    correspondence clock is its own limit."""
    return control is None or control.get("kind") != "days"


@dataclass
class Clocks:
    """The seats' clocks under `control`: each seat's reserve left, and when each running
    clock started (seconds since the epoch, the hub's clock)."""

    control: Json
    reserve: list[float]
    since: dict[int, float] = field(default_factory=dict)

    @classmethod
    def new(cls, control: Json, seats: int) -> Clocks:
        return cls(control, [float(control.get("reserve", 0))] * seats)

    @property
    def per_move(self) -> float:
        control = self.control
        return float(control["seconds"]) if control["kind"] == "move" else control["days"] * DAY

    def start(self, to_move: Iterable[int], clocked: set[int], at: float) -> None:
        """Play began at `at`: the clocks of the clocked seats to move run from then."""
        self.since = {seat: at for seat in to_move if seat in clocked}

    def moved(self, seat: int, to_move: Iterable[int], clocked: set[int], at: float) -> None:
        """`seat` moved at `at`, after which `to_move` are to move: its time over its move's
        seconds comes off its reserve; its clock, and those of seats that became to move,
        run from `at`; the clocks of seats to move still run on."""
        started = self.since.pop(seat, None)
        if started is not None:
            over = max(0.0, at - started - self.per_move)
            self.reserve[seat] = max(0.0, self.reserve[seat] - over)
        self.since = {s: (at if s == seat else self.since.get(s, at))
                      for s in to_move if s in clocked}

    def stop(self, seat: int) -> None:
        """The seat has no clock any more (a bot took it over)."""
        self.since.pop(seat, None)

    def deadline(self, seat: int) -> float | None:
        """When the seat's running clock runs out; None when it is not running."""
        started = self.since.get(seat)
        if started is None:
            return None
        return started + self.per_move + self.reserve[seat]

    def left(self, seat: int, now: float) -> float:
        """Seconds the seat has left: on its running clock as of `now`, else for its next
        move."""
        deadline = self.deadline(seat)
        if deadline is None:
            return self.per_move + self.reserve[seat]
        return max(0.0, deadline - now)

    def earliest(self) -> tuple[float, int] | None:
        """The earliest deadline of a running clock, and its seat."""
        found = [(deadline, seat) for seat in self.since
                 if (deadline := self.deadline(seat)) is not None]
        return min(found) if found else None

    def out(self, now: float) -> list[int]:
        """The seats whose clocks have run out by `now`."""
        return sorted(seat for seat in self.since
                      if (deadline := self.deadline(seat)) is not None and deadline <= now)

    def to_json(self, now: float) -> Json:
        """The state message's `clock`: the control, each seat's seconds left as of `now`
        (the reserve too), whether it runs, and `now`, so a client counts down."""
        seats = []
        for seat, reserve in enumerate(self.reserve):
            left = self.left(seat, now)
            seats.append({"left": round(left, 1), "reserve": round(min(reserve, left), 1),
                          "running": seat in self.since})
        return {"control": self.control, "seats": seats, "now": round(now, 3)}
