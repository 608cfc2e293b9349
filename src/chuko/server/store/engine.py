"""The engine that reaches the database (`make_engine`): SQLite or PostgreSQL, each bounded
in time when the store asks (`store/database.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from chuko.core.errors import ConfigError
from chuko.core.text import Text

CONNECT_TIMEOUT = 2  # seconds to reach PostgreSQL (libpq's least)
BUSY_TIMEOUT = 5.0  # seconds SQLite waits for another connection's lock, unless told
POOL_TIMEOUT = 1.0  # seconds to wait for a free connection of the pool


def make_engine(url: str, timeout: float | None = None) -> Engine:
    """An engine for `sqlite:///path`, `sqlite://` (memory) or `postgresql://…` (psycopg 3).
    With `timeout` (seconds), the database itself gives up a statement, or a wait for a
    lock, after that long (the store's reads and writes are bounded in time: a thread left
    waiting on the database is freed soon after its waiter was refused), and the pool lends
    a connection within a second or refuses."""
    try:
        parsed = make_url(url)
    except Exception:
        raise ConfigError(
            Text("{url!r} is not a database URL: use sqlite:///var/chuko.db or postgresql://…",
                 url=url)
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = parsed.database
        memory = path in (None, "", ":memory:")
        if path and not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # A file's pool lends a connection within POOL_TIMEOUT when the store is timed.
        waiting = {} if memory or timeout is None else {"pool_timeout": POOL_TIMEOUT}
        engine = create_engine(
            parsed,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
            **waiting,
        )
        busy = round((timeout or BUSY_TIMEOUT) * 1000)
        event.listen(engine, "connect", lambda connection, _: _sqlite_pragmas(connection, busy))
        return engine
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        # A bounded wait to connect: while the database is away, a read or the writer's
        # attempt to reach it again must not hang (libpq waits for ever by default).
        connect_args: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT}
        if timeout is None:
            return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
        waits = round(timeout * 1000)
        given = parsed.query.get("options")  # the URL's own (a search_path, say) come first
        connect_args["options"] = " ".join([*([given] if isinstance(given, str) else []),
                                            f"-c statement_timeout={waits}",
                                            f"-c lock_timeout={waits}"])
        # Room for the reader's threads, the writer's lanes and those left waiting on a
        # stuck statement; a connection not free within POOL_TIMEOUT is a refusal.
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args,
                             pool_size=12, max_overflow=12, pool_timeout=POOL_TIMEOUT)
    raise ConfigError(Text("The database must be sqlite or postgresql, not {backend!r}.",
                           backend=backend))


def _sqlite_pragmas(connection: Any, busy_ms: int) -> None:
    cursor = connection.cursor()
    # WAL lets readers go on while the writer commits; FULL keeps every commit on disk.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
