"""Practice: how far a player got in each game's lessons, each day's Caravan results, and
the puzzles' ratings, the players' puzzle ratings and which puzzles each has tried.

Only new tables: the rooms, seats and players stored before are untouched.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _player() -> sa.Column:
    return sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        _player(),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_results",
        sa.Column("day", sa.String(10), primary_key=True),
        _player(),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("bridges", sa.Integer, nullable=False),
        sa.Column("par", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("daily_board", "daily_results", ["day", "won", "seconds"])
    op.create_table(
        "puzzle_ratings",
        _player(),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_tries",
        _player(),
        sa.Column("puzzle", sa.String(16), primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("puzzle_tries", "puzzles", "puzzle_ratings", "daily_results",
                  "lesson_progress"):
        op.drop_table(table)
