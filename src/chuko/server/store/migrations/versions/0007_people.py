"""People: who follows whom, who blocks whom, the challenges players send each other, and
whom an account takes challenges from (`players.challenges`: null for everyone, "follows"
for those it follows, "nobody").

Only new tables and a new nullable column: every row stored before is untouched.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _pair(table: str, one: str, other: str) -> None:
    op.create_table(
        table,
        sa.Column(one, sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column(other, sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_index(f"{table}_{other}", table, [other])


def upgrade() -> None:
    _pair("follows", "follower", "followed")
    _pair("blocks", "blocker", "blocked")
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("challenged", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(16)),
        sa.Column("room", sa.String(32)),
    )
    op.create_index("challenges_to", "challenges", ["challenged", "status"])
    op.create_index("challenges_from", "challenges", ["challenger", "status"])
    op.create_index("challenges_due", "challenges", ["status", "expires"])
    op.add_column("players", sa.Column("challenges", sa.String(8)))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("challenges")
    for index in ("challenges_due", "challenges_from", "challenges_to"):
        op.drop_index(index, "challenges")
    op.drop_table("challenges")
    op.drop_index("blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("follows_followed", "follows")
    op.drop_table("follows")
