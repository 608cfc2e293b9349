"""Tournaments: their settings and state, who entered each, and each pairing recorded (its
room's id chosen before the room is made).

Only new tables: everything stored before is untouched.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _tournament() -> sa.Column:
    return sa.Column("tournament", sa.String(16), sa.ForeignKey("tournaments.id"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("system", sa.String(8), nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("minutes", sa.Integer),
        sa.Column("rounds", sa.Integer),
        sa.Column("rating_min", sa.Integer),
        sa.Column("rating_max", sa.Integer),
        sa.Column("password_hash", sa.String(64)),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("players.id")),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("schedule_key", sa.String(96), unique=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("started", sa.Float),
        sa.Column("ended", sa.Float),
    )
    op.create_index("tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("tournaments_creator", "tournaments", ["created_by", "status"])
    op.create_table(
        "tournament_players",
        _tournament(),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tournament_games",
        _tournament(),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("slot", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("room_id", sa.String(32), unique=True),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("tournament_games", "tournament_players"):
        op.drop_table(table)
    op.drop_index("tournaments_creator", "tournaments")
    op.drop_index("tournaments_status", "tournaments")
    op.drop_table("tournaments")
