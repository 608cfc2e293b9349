"""The database's schema, version by version: Alembic revisions that `Store` applies when it
opens a database (`upgrade`), so every database, however old, reaches today's schema and
keeps its games. A new revision goes in `versions/`, named `NNNN_what.py`, with
`down_revision` naming the one before; it never imports the live schema of `schema.py`,
which moves on while the revision must not. There are no downgrades: a
database only moves forward, and a backup is the way back."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

# A lock number of our own, so that servers starting together on one PostgreSQL database
# migrate it one after the other.
_PG_LOCK = 0x6368756B6F


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the database up to the newest revision (or to `target`, as a test builds a
    database of an older release), in one transaction."""
    config = Config()
    config.set_main_option("script_location", "chuko.server.store:migrations")
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # A migration may take longer than the server's own statements are allowed.
            conn.execute(text("SET LOCAL statement_timeout = 0"))
            conn.execute(text("SET LOCAL lock_timeout = 0"))
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
        config.attributes["connection"] = conn
        command.upgrade(config, target)


def revision(engine: Engine) -> str | None:
    """The database's revision (None: one that no migration has touched)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
