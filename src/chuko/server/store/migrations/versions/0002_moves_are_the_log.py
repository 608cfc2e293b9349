"""One truth: a room stores the record its move log starts from (for a new room, the deal)
and a secret seed for the chance still to come; each accepted move only appends a `moves`
row, and the game is rebuilt by replaying the record, reseeding, and playing the moves.

`base` counts the moves the stored record already holds. A room stored before this revision
keeps its whole record as it was (base = its version), and gets a fresh seed: its game goes
on from there, appending its later moves like any other.

Revision ID: 0002
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("base", sa.Integer, nullable=False, server_default="0"))
    op.add_column("rooms", sa.Column("seed", sa.BigInteger))
    rooms = sa.table("rooms", sa.column("id", sa.String), sa.column("version", sa.Integer),
                     sa.column("base", sa.Integer), sa.column("seed", sa.BigInteger))
    bind = op.get_bind()
    bind.execute(rooms.update().values(base=rooms.c.version))
    seeds = [{"room": room_id, "chance": secrets.randbits(63)}
             for (room_id,) in bind.execute(sa.select(rooms.c.id)).all()]
    if seeds:
        bind.execute(rooms.update().where(rooms.c.id == sa.bindparam("room"))
                     .values(seed=sa.bindparam("chance")), seeds)

