"""The daily Caravan timed by the server: when each day's deal was first served to each
player, from which their result's time is counted.

Only a new table: the results stored before keep the times they have.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_starts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_starts")
