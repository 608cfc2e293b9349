"""Storage: rooms, seats and moves in one SQLAlchemy Core schema for SQLite and PostgreSQL.

A game is stored once (docs/architecture.md, 'Storage'): its room's row is the header (the
game, its options, the record its moves start from — for a new room the deal, `record()`
right after dealing —, a secret seed for the chance still to come, the seats) and `moves` is
its append-only log, one row per accepted move. Nothing is rewritten per move: the game is
rebuilt by replaying the header's record, reseeding the state with the seed, and playing
the moves (`chuko.server.rooms.rebuild`). `base` counts the moves the header's record holds
already (0, but for rooms stored before the log was the truth).

A move's row has the primary key (room, number), and accepting move n also moves the room's
`version` from n − 1 to n in the same transaction: two writers of the same move, even in two
processes on one PostgreSQL database, cannot both succeed (the second gets `Conflict`). That is
what lets several workers share rooms (`cluster.py`): whichever commits first decides the move,
and the other catches up from `moves(room, after=version)`.

A room's `status` is waiting, playing, over, or expired (a waiting room whose seats were
not all taken in time, `expire_waiting`). Seats keep only SHA-256 hashes of their tokens and
invite codes. A finished room names its rematch, and a rematch the room it follows.

The schema is versioned: `Store` runs the Alembic migrations shipped in
`chuko.server.migrations` when it opens a database, so a database of any older schema keeps
its games.

Writes go through one writer thread that commits whatever is queued in one transaction
(group commit): a move is durable before its future resolves, and a busy server pays one
commit for many moves instead of one each.

The database may go away and come back (a restart, a failover, a network cut). The writer
never dies of it: when its connection is lost and a new one cannot be made, the store is
*away* (`Store.available` false), every write and read is refused at once with `Unavailable`
(a sentence; nothing is acknowledged that is not stored), and the writer tries to connect
again with backoff, up to `RETRY_MAX` seconds apart, until it can: then writes go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from chuko.core.errors import ChukoError, ConfigError

from . import migrations

log = logging.getLogger("chuko.server")

# The schema as the newest migration leaves it (migrations/versions), for the queries.
metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),  # any registered game's id, plug-ins too
    Column("options", Text, nullable=False),
    Column("status", String(8), nullable=False),
    Column("version", Integer, nullable=False),  # the moves accepted so far
    Column("record", Text, nullable=False),  # the record the move log starts from
    Column("base", Integer, nullable=False),  # the moves `record` holds already
    Column("seed", BigInteger),  # reseeds the rebuilt state: its chance still to come
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rematch", String(32)),  # the room that replays this one's seats, once asked for
    Column("rematch_of", String(32)),  # the finished room whose seats this one takes over
    Index("rooms_status", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("room", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16)),
    Column("token_hash", String(64)),
    Column("invite_hash", String(64)),
    Column("joined", Boolean, nullable=False),
    Column("name", String(24)),  # the player's display name; null: the default label
)

moves = Table(
    "moves",
    metadata,
    Column("room", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("at", Float, nullable=False),
)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Conflict(ChukoError):
    """The stored room changed under the write (a seat already taken, a move raced)."""


# Seconds a client is told to wait (HTTP Retry-After) while the database is away; also the
# longest wait between two of the writer's attempts to reach it again.
RETRY_AFTER = 2
RETRY_FIRST, RETRY_MAX = 0.1, float(RETRY_AFTER)
CONNECT_TIMEOUT = 2  # seconds to reach PostgreSQL (libpq's least)
CLOSE_TIMEOUT = 5.0  # seconds `close` waits for the writer to finish what is queued


class Unavailable(ChukoError):
    """The database cannot be reached now: HTTP 503 with Retry-After, or an `error` on the
    socket. Nothing was stored."""

    def __init__(self, message: str = "The games cannot be reached right now: try again "
                 "in a moment.") -> None:
        super().__init__(message)


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" | "bot"
    level: str | None
    token_hash: str | None
    invite_hash: str | None
    joined: bool
    name: str | None = None


@dataclass
class RoomRow:
    """A room's header, and (as loaded) the moves its log adds to `record`."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    record: dict[str, Any]  # the record the moves start from: the deal, for a new room
    seats: list[SeatRow]
    rematch: str | None = None
    rematch_of: str | None = None
    created: float = 0.0  # seconds since the epoch (time.time, or the server's clock)
    seed: int | None = None  # secret: never leaves the server
    base: int = 0  # the moves `record` holds already
    moves: list[tuple[int, str]] = field(default_factory=list)  # (seat, move) after `base`


def make_engine(url: str) -> Engine:
    """An engine for `sqlite:///path`, `sqlite://` (memory) or `postgresql://…` (psycopg 3)."""
    try:
        parsed = make_url(url)
    except Exception:
        raise ConfigError(
            f"{url!r} is not a database URL: use sqlite:///var/chuko.db or postgresql://…"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = parsed.database
        memory = path in (None, "", ":memory:")
        if path and not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            parsed,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        # A bounded wait to connect: while the database is away, a read or the writer's
        # attempt to reach it again must not hang (libpq waits for ever by default).
        return create_engine(parsed, pool_pre_ping=True,
                             connect_args={"connect_timeout": CONNECT_TIMEOUT})
    raise ConfigError(f"The database must be sqlite or postgresql, not {backend!r}.")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    # WAL lets readers go on while the writer commits; FULL keeps every commit on disk.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


Write = Callable[[Connection], Any]
_STOP = object()
COMMIT_DELAY = 0.001  # seconds the writer waits for more writes when they come together


class Committing(asyncio.Future):
    """A queued write's future, which cancelling leaves alone: once queued, the write is
    committed or fails whatever its waiter does, so the waiter learns which before its own
    cancellation goes on. It keeps what it holds (a room's lock) meanwhile, and memory can
    follow the database (where `asyncio.shield` lets the waiter leave at once, the write
    still to come; a shield also costs two more callbacks and a future on every move)."""

    def cancel(self, msg: Any = None) -> bool:
        return False


Job = tuple[Write, asyncio.Future, asyncio.AbstractEventLoop]


class Store:
    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        migrations.upgrade(self.engine)
        # SimpleQueue: its put is one call in C, where Queue's takes locks and a condition
        # in Python for each write.
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # Held to queue a write, and to close: no write is queued after the writer's stop,
        # where nothing would settle its future (which cannot be cancelled).
        self._closing = threading.Lock()
        self._closed = False
        # False while the database is away: writes and reads are refused at once, and the
        # writer alone tries to reach it (set only by the writer thread).
        self.available = True
        self.commits = 0  # transactions committed (the group commit's effect is moves/commits)

    # -- writes ---------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="chuko-db-writer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Commit what is queued, stop the writer, release the database; a write submitted
        from now on fails at once. Waits at most CLOSE_TIMEOUT for the writer, whatever the
        database does (the writer's thread is a daemon: a stop does not wait for it)."""
        with self._closing:
            self._closed = True
            if self._thread is not None:
                self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(CLOSE_TIMEOUT)
            if self._thread.is_alive():
                log.warning("The database writer did not finish within %.0f s; stopping "
                            "without it.", CLOSE_TIMEOUT)
            self._thread = None
        self.engine.dispose()

    def submit(self, write: Write) -> asyncio.Future:
        """Queue a write; the future resolves once it is committed (or with its error:
        Unavailable at once while the database is away). It cannot be cancelled
        (`Committing`): a task cancelled while it waits goes on waiting until the write is
        done, then gets its CancelledError."""
        loop = asyncio.get_running_loop()
        future = Committing(loop=loop)
        with self._closing:
            if self._closed:
                future.set_exception(ChukoError("The server is stopping, so nothing more is "
                                                "stored: try again in a moment."))
            elif not self.available:
                future.set_exception(Unavailable())
            else:
                self._queue.put((write, future, loop))
        return future

    def _run(self) -> None:
        together = 1  # writes in the last batch
        conn: Connection | None = None
        try:
            while True:
                if conn is None:
                    conn = self._reconnect()
                    if conn is None:  # stopping while the database was away
                        return
                batch = [self._queue.get()]
                if together > 1:
                    # Others are writing at once: a moment's wait lets one commit (and its
                    # sync to disk, most of a commit's cost) carry more of them. Alone, a
                    # write goes at once.
                    time.sleep(COMMIT_DELAY)
                while len(batch) < 512:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = _STOP in batch
                jobs = [job for job in batch if job is not _STOP]
                together = len(jobs)
                if jobs:
                    conn = self._commit(conn, jobs)
                if stop:
                    return
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
            self._refuse_queued()

    def _reconnect(self) -> Connection | None:
        """A connection for the writer, waiting as long as the database is away (writes are
        refused meanwhile, `available`); None when the store is closing first."""
        wait = RETRY_FIRST
        while True:
            conn = self._connect()
            if conn is not None:
                if not self.available:
                    log.warning("The database is back: storing moves again.")
                    self.available = True
                return conn
            if self.available:
                log.warning("The database cannot be reached: moves are refused until it "
                            "is back.")
                self.available = False
            # Writes queued before the store was known to be away are refused now; the
            # stop is waited for meanwhile, so a closing store does not wait on the backoff.
            deadline = time.monotonic() + wait
            while (left := deadline - time.monotonic()) > 0:
                try:
                    job = self._queue.get(timeout=left)
                except queue.Empty:
                    break
                if job is _STOP:
                    return None
                _fail(job, Unavailable())
            wait = min(wait * 2, RETRY_MAX)

    def _connect(self) -> Connection | None:
        """A new connection that answers, or None (the database is away)."""
        try:
            conn = self.engine.connect()
        except SQLAlchemyError:
            return None
        return conn

    def _refuse_queued(self) -> None:
        """Fail what is still queued when the writer stops: nothing would settle it."""
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is not _STOP:
                _fail(job, Unavailable())

    def _commit(self, conn: Connection, jobs: list[Job],
                retry: bool = True) -> Connection | None:
        """Commit the jobs' writes in one transaction on `conn`; the connection to go on with
        (a fresh one after an error, which may have been the connection's; None when the
        database is away, every job then failed with Unavailable)."""
        try:
            with conn.begin():
                # The batch's moves go in together, after its other writes (a move's room
                # is stored before the move is made): two statements, not two a move.
                results = [None if isinstance(write, Append) else write(conn)
                           for write, _, _ in jobs]
                Append.run_many(conn, [write for write, _, _ in jobs
                                       if isinstance(write, Append)])
            self.commits += 1
        except Exception as error:
            lost = self._lost(conn, error)
            with contextlib.suppress(Exception):
                conn.close()
            fresh = self._connect()
            if fresh is None:
                # Away: nothing of the batch is acknowledged (a commit cut off may have
                # landed, which the room's next move finds as a Conflict and catches up).
                for job in jobs:
                    _fail(job, Unavailable())
                return None
            if lost and retry:
                # The database dropped the connection (it restarted, say), which a pool
                # would have found before lending it: the batch goes again on a new one.
                return self._commit(fresh, jobs, retry=False)
            if len(jobs) == 1:
                _fail(jobs[0], Unavailable() if lost else error)
                return fresh
            # One write failed: run each alone so only that one fails.
            next_conn: Connection | None = fresh
            for index, job in enumerate(jobs):
                if next_conn is None:
                    for rest in jobs[index:]:
                        _fail(rest, Unavailable())
                    break
                next_conn = self._commit(next_conn, [job])
            return next_conn
        _settle_all(jobs, results)
        return conn

    def _lost(self, conn: Connection, error: Exception) -> bool:
        """Whether `error` says the database dropped the writer's connection."""
        if isinstance(error, DBAPIError):
            return bool(error.connection_invalidated)
        dialect = self.engine.dialect
        if not isinstance(error, dialect.loaded_dbapi.Error):
            return False
        try:
            raw = conn.connection.dbapi_connection
        except Exception:  # SQLAlchemy found it unusable already
            return True
        return bool(dialect.is_disconnect(error, raw, None))

    # -- reads (small, synchronous) ----------------------------------------------------------

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection for a read; Unavailable while the database is away, or when it
        cannot be read (refused at once: the writer finds out when it is back)."""
        if not self.available:
            raise Unavailable()
        try:
            with self.engine.connect() as conn:
                yield conn
        except DBAPIError as error:
            log.warning("A read from the database failed: %s", str(error).splitlines()[0])
            raise Unavailable() from None

    def load(self, room_id: str, with_moves: bool = True) -> RoomRow | None:
        """The room's header and seats, and its moves unless `with_moves` is False (a worker
        of a cluster refreshing a room it holds reads its moves with `moves`)."""
        with self._reading() as conn:
            row = conn.execute(select(rooms).where(rooms.c.id == room_id)).first()
            if row is None:
                return None
            return _room_row(conn, row, with_moves)

    def resumable(self) -> list[RoomRow]:
        """The rooms in play with a bot seat: those whose bots may have a move to make."""
        with self._reading() as conn:
            with_bots = select(seats.c.room).where(seats.c.kind == "bot")
            rows = conn.execute(select(rooms).where(
                rooms.c.status == "playing", rooms.c.id.in_(with_bots))).all()
            return [_room_row(conn, row) for row in rows]

    def moves(self, room_id: str, after: int = 0) -> list[tuple[int, str]]:
        """The room's moves numbered after `after`, in order, as (seat, move text): what a
        state at version `after` must play to catch up."""
        with self._reading() as conn:
            return _moves(conn, room_id, after)


def _moves(conn: Connection, room_id: str, after: int,
           upto: int | None = None) -> list[tuple[int, str]]:
    query = select(moves.c.seat, moves.c.move).where(moves.c.room == room_id,
                                                      moves.c.number > after)
    if upto is not None:
        query = query.where(moves.c.number <= upto)
    found = conn.execute(query.order_by(moves.c.number)).all()
    return [(seat, move) for seat, move in found]


def _settle_all(jobs: list[Job], results: list[Any]) -> None:
    """Resolve a committed batch's futures with one wake-up of each loop, not one a write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, Any]]] = {}
    for (_, future, loop), result in zip(jobs, results, strict=True):
        by_loop.setdefault(loop, []).append((future, result))

    def resolve(settled: list[tuple[asyncio.Future, Any]]) -> None:
        for future, result in settled:
            future.set_result(result)

    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(resolve, settled)


def _fail(job: Job, error: BaseException) -> None:
    _, future, loop = job

    def resolve() -> None:
        future.set_exception(error)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(resolve)


def _room_row(conn: Connection, row: Any, with_moves: bool = True) -> RoomRow:
    found = conn.execute(select(seats).where(seats.c.room == row.id).order_by(seats.c.seat)).all()
    return RoomRow(
        id=row.id,
        game=row.game,
        options=json.loads(row.options),
        status=row.status,
        version=row.version,
        record=json.loads(row.record),
        seats=[
            SeatRow(s.seat, s.kind, s.level, s.token_hash, s.invite_hash, bool(s.joined), s.name)
            for s in found
        ],
        rematch=row.rematch,
        rematch_of=row.rematch_of,
        created=row.created,
        seed=row.seed,
        base=row.base,
        # Only the moves the header counts: another worker may append one between the two
        # reads, and the room must hold together at the header's version.
        moves=_moves(conn, row.id, row.base, row.version) if with_moves else [],
    )


# -- the writes (run in the writer thread, inside its transaction) --------------------------


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
# an SQLAlchemy statement anew for each write cost more than the database's own work.
_ADVANCE = Direct(update(rooms)
                  .where(rooms.c.id == bindparam("room_id"),
                         rooms.c.version == bindparam("before"))
                  .values(version=bindparam("number"), status=bindparam("status_after"),
                          updated=bindparam("now")))
_APPEND = Direct(moves.insert())
_TAKE_SEAT = Direct(update(seats)
                    .where(seats.c.room == bindparam("room_id"),
                           seats.c.seat == bindparam("number"), seats.c.joined.is_(False))
                    .values(joined=True, token_hash=bindparam("token"),
                            name=bindparam("player")))
_OPEN = Direct(update(rooms)
               .where(rooms.c.id == bindparam("room_id"), rooms.c.status != "expired")
               .values(status=bindparam("status_after"), updated=bindparam("now")))
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
                raise Conflict("This game has a rematch already.")
        _INSERT_ROOM.run(conn, [{
            "id": room.id, "game": room.game, "options": json.dumps(room.options),
            "status": room.status, "version": room.version, "record": json.dumps(room.record),
            "base": room.base, "seed": room.seed, "created": now, "updated": now,
            "rematch": None, "rematch_of": room.rematch_of,
        }])
        _INSERT_SEATS.run(conn, [
            {"room": room.id, "seat": s.seat, "kind": s.kind, "level": s.level,
             "token_hash": s.token_hash, "invite_hash": s.invite_hash, "joined": s.joined,
             "name": s.name}
            for s in room.seats
        ])

    return write


def join_seat(room_id: str, seat: int, token_hash: str, name: str | None, status: str,
              refusal: str = "That invite has already been used.",
              closed: str = "This room has closed.") -> Write:
    """Take a seat that is still open, under `name`; Conflict (saying `refusal`) when someone
    took it first, or (saying `closed`) when the room has expired."""

    def write(conn: Connection) -> None:
        taken = _TAKE_SEAT.run(conn, [{"room_id": room_id, "number": seat,
                                       "token": token_hash, "player": name}])
        if taken != 1:
            raise Conflict(refusal)
        opened = _OPEN.run(conn, [{"room_id": room_id, "status_after": status,
                                   "now": time.time()}])
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
    (`append_move`): a Write that the writer also runs many at once (`run_many`)."""

    __slots__ = ("room_id", "number", "seat", "move", "status")

    def __init__(self, room_id: str, number: int, seat: int, move: str, status: str) -> None:
        self.room_id, self.number, self.seat = room_id, number, seat
        self.move, self.status = move, status

    def __call__(self, conn: Connection) -> None:
        self.run_many(conn, [self])

    @staticmethod
    def run_many(conn: Connection, appends: list[Append]) -> None:
        """Every append in two statements (each room's update, then each move's row);
        Conflict, rolling all of them back, unless every room was at the move before its
        own. The writer then runs each alone, so only the late one fails."""
        if len(appends) > 1 and not conn.dialect.supports_sane_multi_rowcount:
            for append in appends:  # the count of rows changed is only told one at a time
                Append.run_many(conn, [append])
            return
        if not appends:
            return
        now = time.time()
        changed = _ADVANCE.run(conn, [
            {"room_id": a.room_id, "before": a.number - 1, "number": a.number,
             "status_after": a.status, "now": now} for a in appends])
        if changed != len(appends):
            raise Conflict("The game moved on meanwhile; look again and retry.")
        _APPEND.run(conn, [{"room": a.room_id, "number": a.number, "seat": a.seat,
                            "move": a.move, "at": now} for a in appends])


def append_move(room_id: str, number: int, seat: int, move: str, status: str) -> Append:
    """Append move `number` (1, 2, …) to the room's log, and its status after it; Conflict
    unless the stored room is at move `number − 1`. The room's row is updated first: on
    PostgreSQL that locks it, so a second writer of the same number waits for the first
    and then finds the version moved on."""
    return Append(room_id, number, seat, move, status)
