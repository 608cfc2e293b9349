"""Recent rated games: an index on each player's rating history by time, which the rules of
who is rated read in the transaction that ends every rated game (a pair's games together in
the last day, a provisional rating's in the last hour).

Only a new index: every row stored before is untouched.

Revision ID: 0006
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("rating_history_recent", "rating_history", ["player", "at"])


def downgrade() -> None:
    op.drop_index("rating_history_recent", "rating_history")
