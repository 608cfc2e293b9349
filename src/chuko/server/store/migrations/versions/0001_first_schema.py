"""The schema before Alembic: rooms whose record is rewritten at each move, their seats, and
a row per move. A database made before this revision has these tables, perhaps without the
columns added later (seats' names, rooms' rematch links: all nullable); they are created or
completed here, so every older database starts from the same point.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _later() -> dict[str, list[sa.Column]]:
    """The nullable columns added after the first release, before migrations, by table: new
    each time (a column belongs to the one table it is given to)."""
    return {"rooms": [sa.Column("rematch", sa.String(32)),
                      sa.Column("rematch_of", sa.String(32))],
            "seats": [sa.Column("name", sa.String(24))]}


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "rooms" not in have:
        op.create_table(
            "rooms",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("record", sa.Text, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            *_later()["rooms"],
        )
        op.create_index("rooms_status", "rooms", ["status"])
    if "seats" not in have:
        op.create_table(
            "seats",
            sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("level", sa.String(16)),
            sa.Column("token_hash", sa.String(64)),
            sa.Column("invite_hash", sa.String(64)),
            sa.Column("joined", sa.Boolean, nullable=False),
            *_later()["seats"],
        )
    if "moves" not in have:
        op.create_table(
            "moves",
            sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("move", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
    inspector = sa.inspect(op.get_bind())
    for table, columns in _later().items():
        present = {column["name"] for column in inspector.get_columns(table)}
        for column in columns:
            if column.name not in present:
                op.add_column(table, column)

