"""Puzzle ratings kept as Glicko-2 (`practice/puzzle_ratings.py`): a rating, its deviation
and its volatility for each player and each tried puzzle, converted from the openskill
mean and uncertainty they were kept as (the club's scale: 1500 + (mu − 25) × 60, the
deviation the uncertainty on that scale, within Glicko's 45–500); and each player's puzzle
streak (`puzzle_streaks`: the puzzle in play, those solved in a row, the best run).

Revision ID: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

RATED = ("puzzle_ratings", "puzzles")
_TO_GLICKO = """
UPDATE {table} SET rating = 1500 + (mu - 25) * 60,
  deviation = CASE WHEN sigma * 60 > 500 THEN 500 WHEN sigma * 60 < 45 THEN 45
                   ELSE sigma * 60 END,
  volatility = 0.09
"""
_TO_OPENSKILL = "UPDATE {table} SET mu = 25 + (rating - 1500) / 60.0, sigma = deviation / 60.0"


def upgrade() -> None:
    for table in RATED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("rating", sa.Float))
            batch.add_column(sa.Column("deviation", sa.Float))
            batch.add_column(sa.Column("volatility", sa.Float))
        op.execute(_TO_GLICKO.format(table=table))
        with op.batch_alter_table(table) as batch:
            for name in ("rating", "deviation", "volatility"):
                batch.alter_column(name, existing_type=sa.Float, nullable=False)
            batch.drop_column("mu")
            batch.drop_column("sigma")
    op.create_table(
        "puzzle_streaks",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("puzzle", sa.String(16)),  # the one in play; null once the run ended
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("given", sa.Text, nullable=False),  # the run's puzzles, comma-separated
        sa.Column("started", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_streaks")
    for table in RATED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("mu", sa.Float))
            batch.add_column(sa.Column("sigma", sa.Float))
        op.execute(_TO_OPENSKILL.format(table=table))
        with op.batch_alter_table(table) as batch:
            batch.alter_column("mu", existing_type=sa.Float, nullable=False)
            batch.alter_column("sigma", existing_type=sa.Float, nullable=False)
            for name in ("rating", "deviation", "volatility"):
                batch.drop_column(name)
