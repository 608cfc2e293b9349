"""Storage: rooms, seats and moves in one SQLAlchemy Core schema for SQLite and PostgreSQL.

`Store` opens a database, runs the Alembic migrations shipped in `chuko.server.store.migrations`
(so a database of any older schema keeps its games), writes through its writer's lanes
(`writer.py`, `lane.py`: group commit, a time limit on each write, and the database going
away and coming back) and reads rooms back. The schema is `schema.py`, the writes
`writes.py`; this module is the storage's one face, so the rest of the server reaches all
of it as `store`.

The server reads through the async forms (`fetch`, `fetch_room`, `fetch_timed_moves`,
`fetch_resumable`), which run on the store's own reader threads and are bounded in time
(`reader.py`): no database call is made on the event loop. The synchronous forms are for
code that runs off the loop already (tools, tests). While the database is away
(`Store.available` false), reads are refused at once with `Unavailable`, as writes are.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.store import migrations
from chuko.server.store.engine import make_engine
from chuko.server.store.reader import READ_TIMEOUT, Reader
from chuko.server.store.schema import (
    RoomRow,
    SeatRow,
    moves,
    rooms,
    seats,
    secret_hash,
)
from chuko.server.store.writer import RETRY_AFTER, WRITE_TIMEOUT, Unavailable, Writer
from chuko.server.store.writes import (
    Conflict,
    Duplicate,
    Refused,
    Write,
    append_move,
    expire_waiting,
    forfeit,
    insert_room,
    join_seat,
)

__all__ = [
    "READ_TIMEOUT", "RETRY_AFTER", "WRITE_TIMEOUT", "Conflict", "Connection", "Duplicate",
    "Refused", "RoomRow", "SeatRow", "Store", "Unavailable", "Write",
    "append_move", "expire_waiting", "forfeit", "insert_room", "join_seat", "make_engine",
    "moves", "rooms", "seats", "secret_hash",
]

log = logging.getLogger("chuko.server")
T = TypeVar("T")
RESUME_TIMEOUT = 60.0  # seconds to read the rooms a worker resumes as it starts or leads


class Store(Writer):
    """A database's rooms: written through the writer's lanes, read here (small reads, on
    the reader's threads when made from the event loop). A read takes at most
    `read_timeout` seconds, a write `write_timeout`; `lanes`: the writer's lanes for rooms
    (by default one on SQLite, where writers take turns on the whole file anyway, and
    four on PostgreSQL, where a row lock holds up only its lane). ConfigError, with the
    database's reason, when it cannot be reached."""

    def __init__(self, url: str, *, read_timeout: float = READ_TIMEOUT,
                 write_timeout: float = WRITE_TIMEOUT, lanes: int | None = None) -> None:
        engine = make_engine(url, timeout=max(read_timeout, write_timeout))
        try:
            migrations.upgrade(engine)
        except OperationalError as error:
            engine.dispose()
            raise ConfigError(Text("The database cannot be reached: {reason}.",
                                   reason=reason(error))) from None
        if lanes is None:
            lanes = 1 if engine.dialect.name == "sqlite" else 4
        super().__init__(engine, lanes=lanes, timeout=write_timeout)
        self.reader = Reader(timeout=read_timeout)

    def close(self) -> None:
        self.reader.close()
        super().close()

    @property
    def key_taken(self) -> tuple[type[Exception], ...]:
        """What a write raises for a row whose key is taken: SQLAlchemy's `Duplicate`, or
        the driver's own error (the writes of `writes.Direct` run on its cursor)."""
        return (Duplicate, self.engine.dialect.loaded_dbapi.IntegrityError)

    async def fetch(self, query: Callable[[Connection], T]) -> T:
        """`read` off the event loop, within the read timeout: Unavailable past it."""
        return await self.reader.run(self.read, query)

    async def fetch_room(self, room_id: str, with_moves: bool = True) -> RoomRow | None:
        """`load` off the event loop, within the read timeout."""
        return await self.reader.run(self.load, room_id, with_moves)

    async def fetch_timed_moves(self, room_id: str,
                                after: int = 0) -> list[tuple[int, str, float]]:
        """`timed_moves` off the event loop, within the read timeout."""
        return await self.reader.run(self.timed_moves, room_id, after)

    async def fetch_resumable(self) -> list[RoomRow]:
        """`resumable` off the event loop; it may read many rooms, so it has longer than a
        request's read (each of its statements is still bounded by the database's own
        timeouts)."""
        return await self.reader.run(self.resumable, timeout=RESUME_TIMEOUT)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection for a read; Unavailable while the database is away, or when it
        cannot be read (refused at once: the writer finds out when it is back)."""
        if not self.available:
            raise Unavailable()
        try:
            with self.engine.connect() as conn:
                yield conn
        except (DBAPIError, PoolTimeout) as error:
            log.warning("A read from the database failed: %s", str(error).splitlines()[0])
            raise Unavailable() from None

    def read(self, query: Callable[[Connection], T]) -> T:
        """`query`'s answer on a connection of its own (the other parts' small reads, such
        as a session's player); Unavailable while the database is away."""
        with self._reading() as conn:
            return query(conn)

    def load(self, room_id: str, with_moves: bool = True) -> RoomRow | None:
        """The room's header and seats, and its moves unless `with_moves` is False (a worker
        of a cluster refreshing a room it holds reads its moves with `moves`)."""
        with self._reading() as conn:
            row = conn.execute(select(rooms).where(rooms.c.id == room_id)).first()
            if row is None:
                return None
            return _room_row(conn, row, with_moves)

    def resumable(self) -> list[RoomRow]:
        """The rooms in play with a bot seat or a clock: those whose bots may have a move to
        make, or whose clocks may run out."""
        with self._reading() as conn:
            with_bots = select(seats.c.room).where(seats.c.kind == "bot")
            rows = conn.execute(select(rooms).where(
                rooms.c.status == "playing",
                rooms.c.id.in_(with_bots) | rooms.c.clock.is_not(None))).all()
            return [_room_row(conn, row) for row in rows]

    def moves(self, room_id: str, after: int = 0) -> list[tuple[int, str]]:
        """The room's moves numbered after `after`, in order, as (seat, move text): what a
        state at version `after` must play to catch up."""
        return [(seat, move) for seat, move, _ in self.timed_moves(room_id, after)]

    def timed_moves(self, room_id: str, after: int = 0) -> list[tuple[int, str, float]]:
        """`moves`, each with when it was played (for the clocks)."""
        with self._reading() as conn:
            return _moves(conn, room_id, after)


def reason(error: Exception) -> str:
    """The first line of a database driver's reason for `error` (never the URL, which may
    hold a password)."""
    return str(getattr(error, "orig", None) or error).splitlines()[0].rstrip(".")


def _moves(conn: Connection, room_id: str, after: int,
           upto: int | None = None) -> list[tuple[int, str, float]]:
    query = select(moves.c.seat, moves.c.move, moves.c.at).where(moves.c.room == room_id,
                                                                  moves.c.number > after)
    if upto is not None:
        query = query.where(moves.c.number <= upto)
    found = conn.execute(query.order_by(moves.c.number)).all()
    return [(seat, move, at) for seat, move, at in found]


def _room_row(conn: Connection, row: Any, with_moves: bool = True) -> RoomRow:
    found = conn.execute(select(seats).where(seats.c.room == row.id).order_by(seats.c.seat)).all()
    # Only the moves the header counts: another worker may append one between the two
    # reads, and the room must hold together at the header's version.
    logged = _moves(conn, row.id, row.base, row.version) if with_moves else []
    return RoomRow(
        id=row.id,
        game=row.game,
        options=json.loads(row.options),
        status=row.status,
        version=row.version,
        record=json.loads(row.record),
        seats=[
            SeatRow(s.seat, s.kind, s.level, s.token_hash, s.invite_hash, bool(s.joined), s.name,
                    s.player, s.gone)
            for s in found
        ],
        rematch=row.rematch,
        rematch_of=row.rematch_of,
        created=row.created,
        seed=row.seed,
        base=row.base,
        rated=bool(row.rated),
        clock=None if row.clock is None else json.loads(row.clock),
        started=row.started,
        ended=row.ended,
        result=None if row.result is None else json.loads(row.result),
        moves=[(seat, move) for seat, move, _ in logged],
        times=[at for _, _, at in logged],
    )
