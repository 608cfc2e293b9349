"""The club: players (guests and accounts), their sessions and ratings; a seat names the player
who holds it and whether a bot took it over; a room says whether it is rated, its time
control, when play began and ended, and how it ended when the engine did not say (a forfeit).

Every new column is nullable or has a default, so the rooms stored before go on as they were:
unrated, without clocks, their seats held by nobody known.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(24)),
        sa.Column("username_key", sa.String(24), unique=True),
        sa.Column("name", sa.String(24)),
        sa.Column("password_hash", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("sessions_player", "sessions", ["player"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("class", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["game", "class", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("class", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    # Plain ADD COLUMNs: SQLite takes them in place (a batch would copy `rooms`, which
    # `seats` and `moves` refer to). A seat's player is not a foreign key for the same reason.
    op.add_column("rooms", sa.Column("rated", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    for name, kind in (("clock", sa.Text), ("started", sa.Float), ("ended", sa.Float),
                       ("result", sa.Text)):
        op.add_column("rooms", sa.Column(name, kind))
    op.add_column("seats", sa.Column("player", sa.String(32)))
    op.add_column("seats", sa.Column("gone", sa.String(8)))
    op.create_index("seats_player", "seats", ["player"])
