"""A room's time control and its clocks (docs/web-protocol.md, "Clocks").

A control is a room's setting, not a game's option: none (casual with friends), per move
(`{"kind": "move", "seconds": 30, "reserve": 60}`: each move has `seconds`; time over them
eats the seat's reserve, which never refills) or correspondence (`{"kind": "days",
"days": 2}`: days a move, no reserve). Each seat to move (several at once in a simultaneous
game) runs its own clock from when it became to move; bots' seats, and seats a bot took over,
have none.

A seat's first move has at most FIRST_MOVE_SECONDS under a per-move clock in a game between
people (`first_move`): until it has moved (`opened`), a seat's clock runs out then, or when
its own time does if that is sooner; a correspondence clock's first move has its days. A
seat whose time runs out before its first move aborts the game (`forfeits.py`).

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
from chuko.core.text import Text

DAY = 86_400.0
MOVE_SECONDS = (5, 600)  # the bounds of a per-move clock's seconds a move
RESERVE_SECONDS = (0, 3600)  # and of its reserve
DAYS = (1, 14)  # a correspondence clock's days a move
# Seconds a seat has for its first move under a per-move clock in a game between people:
# from when play began for the first to move, from the first move for the second.
FIRST_MOVE_SECONDS = 30.0


def _whole(control: dict[str, Any], key: str, bounds: tuple[int, int], what: str) -> int:
    value = control.get(key)
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(Text("A clock's {what} must be a whole number from {low} to {high}, "
                               "not {value!r}.", what=what, low=low, high=high, value=value))
    return value


def read_control(value: Any) -> Json | None:
    """A room's time control as a request gives it, checked and with only its own keys; None
    for no clock. ConfigError (one sentence) for anything else."""
    if value is None:
        return None
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind == "move":
        if set(value) - {"kind", "seconds", "reserve"}:
            raise ConfigError(Text('A per-move clock takes only "seconds" and "reserve".'))
        return {"kind": "move",
                "seconds": _whole(value, "seconds", MOVE_SECONDS, Text("seconds a move")),
                "reserve": _whole({"reserve": value.get("reserve", 0)}, "reserve",
                                  RESERVE_SECONDS, Text("reserve in seconds"))}
    if kind == "days":
        if set(value) - {"kind", "days"}:
            raise ConfigError(Text('A correspondence clock takes only "days".'))
        return {"kind": "days", "days": _whole(value, "days", DAYS, Text("days a move"))}
    raise ConfigError(Text("A clock is null (none), {move} or {days}, not {value!r}.",
                           move='{"kind": "move", "seconds": …, "reserve": …}',
                           days='{"kind": "days", "days": …}', value=value))


def realtime(control: Json | None) -> bool:
    """Whether players are expected to stay at the table (a per-move clock, or none): a
    player whose sockets are all gone for the grace period then counts as having left. A
    correspondence clock is its own limit."""
    return control is None or control.get("kind") != "days"


@dataclass
class Clocks:
    """The seats' clocks under `control`: each seat's reserve left, when each running
    clock started (seconds since the epoch, the hub's clock), the seats that have made
    their first move, and the seconds a first move has at most (None: its clock's)."""

    control: Json
    reserve: list[float]
    since: dict[int, float] = field(default_factory=dict)
    opened: set[int] = field(default_factory=set)
    first_move: float | None = None

    @classmethod
    def new(cls, control: Json, seats: int, people: int) -> Clocks:
        """The clocks of `seats` seats, `people` of them played by people."""
        first = FIRST_MOVE_SECONDS if people >= 2 and control["kind"] == "move" else None
        return cls(control, [float(control.get("reserve", 0))] * seats, first_move=first)

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
        self.opened.add(seat)
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
        """When the seat's running clock runs out (before its first move, its first move's
        limit when sooner); None when it is not running."""
        started = self.since.get(seat)
        return None if started is None else started + self.allowed(seat)

    def allowed(self, seat: int) -> float:
        """Seconds the seat's next move has from when its clock starts: the move's and the
        reserve, at most the first move's limit before it has moved."""
        whole = self.per_move + self.reserve[seat]
        if self.first_move is not None and seat not in self.opened:
            return min(whole, self.first_move)
        return whole

    def left(self, seat: int, now: float) -> float:
        """Seconds the seat has left: on its running clock as of `now`, else for its next
        move."""
        deadline = self.deadline(seat)
        if deadline is None:
            return self.allowed(seat)
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
        (the part of them that is reserve: a move's own seconds go first), whether it runs,
        and `now`, so a client counts down."""
        seats = []
        for seat in range(len(self.reserve)):
            left = self.left(seat, now)
            started = self.since.get(seat, now)
            reserve = max(0.0, left - max(0.0, self.per_move - (now - started)))
            seats.append({"left": round(left, 1), "reserve": round(reserve, 1),
                          "running": seat in self.since})
        return {"control": self.control, "seats": seats, "now": round(now, 3)}
