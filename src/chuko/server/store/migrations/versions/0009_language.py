"""The language an account chose (`players.language`: a shipped language's code, null for
the browser's own), so it follows the account to every browser it logs in from.

Only a new nullable column: every row stored before is untouched.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("language", sa.String(8)))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
