"""The store's writes, run in the writer thread inside its transaction: a new room, a seat
taken, rooms expired, a move appended.

A move's row has the primary key (room, number), and accepting move n also moves the room's
`version` from n − 1 to n in the same transaction: two writers of the same move, even in two
processes on one PostgreSQL database, cannot both succeed (the second gets `Conflict`). That is
what lets several workers share rooms (`cluster/workers.py`): whichever commits first decides
the move, and the other catches up from `Store.moves(room, after=version)`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.store.schema import RoomRow, moves, rooms, seats

Write = Callable[[Connection], Any]


class Conflict(ChukoError):
    """The stored room changed under the write (a seat already taken, a move raced)."""


# What the database raises when it refuses a statement (a constraint, a value it cannot
# hold), and when a row's key is taken: the names the rest of the server catches them by.
Refused = SQLAlchemyError
Duplicate = IntegrityError


class Direct:
    """A statement compiled once for each dialect and run with its rows of parameters straight
    on the database driver's cursor, in the connection's transaction. The writer's statements
    of every move and every new room or seat go this way: SQLAlchemy's execution around a
    statement costs about as much CPU as SQLite's own work for it. Each row names every
    parameter but those the statement gives a value itself."""

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], tuple[str, list[str] | None, dict[str, Any]]] = {}

    def run(self, conn: Connection, rows: list[dict[str, Any]]) -> int:
        """Run the statement once per row of parameters; the count of rows it changed."""
        dialect = conn.dialect
        key = (dialect.name, dialect.paramstyle)
        found = self._compiled.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            given = {name: value for name, value in compiled.params.items()
                     if value is not None}
            found = self._compiled[key] = (str(compiled), compiled.positiontup, given)
        sql, order, given = found
        if given:
            rows = [{**given, **row} for row in rows]
        params = rows if order is None else [tuple(row[name] for name in order)
                                             for row in rows]
        cursor = conn.connection.cursor()
        try:
            cursor.executemany(sql, params)
            return int(cursor.rowcount)
        finally:
            cursor.close()


# The statements of the writes made at every move, join and new room, built once: building
# an SQLAlchemy statement anew for each write cost more than the database's own work. A move
# advances a game in play only: a forfeit ends one without moving its version, and a worker
# that missed that end must not store a move after it (and set the game playing again).
_ADVANCE = Direct(update(rooms)
                  .where(rooms.c.id == bindparam("room_id"),
                         rooms.c.version == bindparam("before"), rooms.c.status == "playing")
                  .values(version=bindparam("number"), status=bindparam("status_after"),
                          updated=bindparam("now"), ended=bindparam("ended")))
_APPEND = Direct(moves.insert())
_TAKE_SEAT = Direct(update(seats)
                    .where(seats.c.room == bindparam("room_id"),
                           seats.c.seat == bindparam("number"), seats.c.joined.is_(False))
                    .values(joined=True, token_hash=bindparam("token"),
                            name=bindparam("player"), player=bindparam("holder")))
_OPEN = Direct(update(rooms)
               .where(rooms.c.id == bindparam("room_id"), rooms.c.status != "expired")
               .values(status=bindparam("status_after"), updated=bindparam("now"),
                       started=bindparam("started")))
_INSERT_ROOM = Direct(rooms.insert())
_INSERT_SEATS = Direct(seats.insert())


def insert_room(room: RoomRow) -> Write:
    """A new room with its seats; a rematch (`rematch_of` set) is also written into the
    finished room, Conflict when that room has one already. Its time of creation is
    `room.created` when set."""
    now = room.created or time.time()

    def write(conn: Connection) -> None:
        if room.rematch_of is not None:
            linked = conn.execute(
                update(rooms)
                .where(rooms.c.id == room.rematch_of, rooms.c.rematch.is_(None))
                .values(rematch=room.id, updated=now)
            )
            if linked.rowcount != 1:
                raise Conflict(Text("This game has a rematch already."))
        _INSERT_ROOM.run(conn, [{
            "id": room.id, "game": room.game, "options": json.dumps(room.options),
            "status": room.status, "version": room.version, "record": json.dumps(room.record),
            "base": room.base, "seed": room.seed, "created": now, "updated": now,
            "rematch": None, "rematch_of": room.rematch_of, "rated": room.rated,
            "clock": None if room.clock is None else json.dumps(room.clock),
            "started": room.started, "ended": room.ended,
            "result": None if room.result is None else json.dumps(room.result),
        }])
        _INSERT_SEATS.run(conn, [
            {"room": room.id, "seat": s.seat, "kind": s.kind, "level": s.level,
             "token_hash": s.token_hash, "invite_hash": s.invite_hash, "joined": s.joined,
             "name": s.name, "player": s.player, "gone": s.gone}
            for s in room.seats
        ])

    return write


def join_seat(room_id: str, seat: int, token_hash: str, name: str | None, status: str,
              refusal: str = Text("That invite has already been used."),
              closed: str = Text("This room has closed."), player: str | None = None,
              started: float | None = None) -> Write:
    """Take a seat that is still open, under `name` (held by `player`, when known); Conflict
    (saying `refusal`) when someone took it first, or (saying `closed`) when the room has
    expired. `started`: when play began, for the seat that fills the room (the clocks run
    from then)."""

    def write(conn: Connection) -> None:
        taken = _TAKE_SEAT.run(conn, [{"room_id": room_id, "number": seat,
                                       "token": token_hash, "player": name,
                                       "holder": player}])
        if taken != 1:
            raise Conflict(refusal)
        opened = _OPEN.run(conn, [{"room_id": room_id, "status_after": status,
                                   "now": time.time(), "started": started}])
        if opened != 1:
            raise Conflict(closed)  # the transaction, and so the seat, rolls back

    return write


def expire_waiting(created_before: float, room_id: str | None = None) -> Write:
    """Close the rooms still waiting that were created by `created_before` (only
    `room_id`, when given); the ids of those closed (so other workers can be told)."""

    def write(conn: Connection) -> list[str]:
        chosen = update(rooms).where(rooms.c.status == "waiting",
                                     rooms.c.created <= created_before)
        if room_id is not None:
            chosen = chosen.where(rooms.c.id == room_id)
        closed = conn.execute(chosen.values(status="expired", updated=time.time())
                              .returning(rooms.c.id))
        return [found for (found,) in closed]

    return write


class Append:
    """Move `number` (1, 2, …) appended to the room's log, with the room's status after it
    (`append_move`): a Write that the writer also runs many at once (`run_many`). `at` is
    when it was played (the hub's clock, which the clocks are worked out from); None: when
    it is committed. `then`: a write run after it in its transaction (a rated game's end
    carries its ratings: `ratings.apply_result`), whose answer is `outcome` once
    committed."""

    __slots__ = ("room_id", "number", "seat", "move", "status", "at", "then", "outcome")

    def __init__(self, room_id: str, number: int, seat: int, move: str, status: str,
                 at: float | None = None, then: Write | None = None) -> None:
        self.room_id, self.number, self.seat = room_id, number, seat
        self.move, self.status, self.at = move, status, at
        self.then, self.outcome = then, None

    def __call__(self, conn: Connection) -> None:
        self.run_many(conn, [self])

    @staticmethod
    def run_many(conn: Connection, appends: list[Append]) -> None:
        """Every append in two statements (each room's update, then each move's row), then
        their `then` writes; Conflict, rolling all of them back, unless every room was at
        the move before its own. The writer then runs each alone, so only the late one
        fails."""
        if len(appends) > 1 and not conn.dialect.supports_sane_multi_rowcount:
            for append in appends:  # the count of rows changed is only told one at a time
                Append.run_many(conn, [append])
            return
        if not appends:
            return
        now = time.time()
        changed = _ADVANCE.run(conn, [
            {"room_id": a.room_id, "before": a.number - 1, "number": a.number,
             "status_after": a.status, "now": now,
             "ended": (a.at or now) if a.status == "over" else None} for a in appends])
        if changed != len(appends):
            raise Conflict(Text("The game moved on meanwhile; look again and retry."))
        _APPEND.run(conn, [{"room": a.room_id, "number": a.number, "seat": a.seat,
                            "move": a.move, "at": a.at or now} for a in appends])
        for append in appends:
            if append.then is not None:
                append.outcome = append.then(conn)


def append_move(room_id: str, number: int, seat: int, move: str, status: str,
                at: float | None = None, then: Write | None = None) -> Append:
    """Append move `number` (1, 2, …) to the room's log, and its status after it; Conflict
    unless the stored room is in play at move `number − 1`. The room's row is updated first: on
    PostgreSQL that locks it, so a second writer of the same number waits for the first
    and then finds the version moved on. `then` runs after it, in the same transaction."""
    return Append(room_id, number, seat, move, status, at, then)


def forfeit(room_id: str, version: int, result: dict[str, Any], *, over: bool, at: float,
            seat: int | None = None, reason: str | None = None,
            level: str | None = None, then: Write | None = None) -> Write:
    """A forfeit, in one transaction checked against the room's version: the room's `result`
    (and with `over`, its end: status over at `at`); with `level`, seat `seat` handed to a
    bot of that level for `reason`; then `then` (a rated game's end carries its ratings),
    whose answer is the write's. Conflict when the room moved on meanwhile (a move stored,
    the game over, the seat already gone)."""

    def write(conn: Connection) -> Any:
        values: dict[str, Any] = {"result": json.dumps(result), "updated": time.time()}
        if over:
            values.update(status="over", ended=at)
        changed = conn.execute(update(rooms).where(
            rooms.c.id == room_id, rooms.c.version == version, rooms.c.status == "playing",
        ).values(**values))
        if changed.rowcount != 1:
            raise Conflict(Text("The game moved on meanwhile; look again and retry."))
        if level is not None:
            taken = conn.execute(update(seats).where(
                seats.c.room == room_id, seats.c.seat == seat, seats.c.gone.is_(None),
            ).values(kind="bot", level=level, gone=reason))
            if taken.rowcount != 1:
                raise Conflict(Text("That seat is played by a bot already."))
        return None if then is None else then(conn)

    return write
