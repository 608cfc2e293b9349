"""The store's reads and writes of challenges (`schema.challenges`): reads are functions of
a connection for `Store.read`/`fetch`, writes are `Write`s for `Store.submit`. A pending
challenge past its `expires` counts as expired wherever it is read, before the sweep
(`expire_due`) marks it so. What a challenge may be is `challenge/challenges.py`'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql import ColumnElement

from chuko.server.store.schema import challenges, players
from chuko.server.store.writes import Write

STATUSES = ("pending", "accepted", "declined", "cancelled", "expired")


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored, with the usernames and names of both players."""

    id: str
    challenger: str
    challenged: str
    game: str
    options: dict[str, Any]
    clock: dict[str, Any] | None
    rated: bool
    created: float
    expires: float
    status: str
    reason: str | None = None
    room: str | None = None
    names: tuple[str, str] = ("", "")  # the challenger's and the challenged's
    usernames: tuple[str | None, str | None] = (None, None)


def _pending(now: float) -> ColumnElement[bool]:
    return and_(challenges.c.status == "pending", challenges.c.expires > now)


def _read(conn: Connection, where: ColumnElement[bool], count: int) -> list[Challenge]:
    by, to = players.alias("by"), players.alias("to")
    rows = conn.execute(
        select(challenges, by.c.name.label("by_name"), by.c.username.label("by_username"),
               to.c.name.label("to_name"), to.c.username.label("to_username"))
        .join(by, by.c.id == challenges.c.challenger)
        .join(to, to.c.id == challenges.c.challenged)
        .where(where).order_by(challenges.c.created.desc()).limit(count)).all()
    return [Challenge(row.id, row.challenger, row.challenged, row.game,
                      json.loads(row.options), None if row.clock is None
                      else json.loads(row.clock), row.rated, row.created, row.expires,
                      row.status, row.reason, row.room, (row.by_name, row.to_name),
                      (row.by_username, row.to_username)) for row in rows]


def challenge(conn: Connection, challenge_id: str) -> Challenge | None:
    found = _read(conn, challenges.c.id == challenge_id, 1)
    return found[0] if found else None


def pending_of(conn: Connection, player: str, now: float,
               count: int) -> tuple[list[Challenge], list[Challenge]]:
    """The pending challenges `player` received and those they sent, newest first (none
    with a deleted account: it can no longer be answered)."""
    live = and_(_pending(now), challenges.c.challenger.not_in(_deleted()),
                challenges.c.challenged.not_in(_deleted()))
    return (_read(conn, and_(challenges.c.challenged == player, live), count),
            _read(conn, and_(challenges.c.challenger == player, live), count))


def _deleted() -> Select[tuple[str]]:
    return select(players.c.id).where(players.c.deleted.is_(True))


def send(made: Challenge, most: int) -> Write:
    """The write that stores a new pending challenge unless its challenger has `most`
    pending already; whether it was stored."""

    def write(conn: Connection) -> bool:
        held = conn.execute(select(func.count()).select_from(challenges).where(
            challenges.c.challenger == made.challenger, _pending(made.created))).scalar_one()
        if held >= most:
            return False
        conn.execute(insert(challenges).values(
            id=made.id, challenger=made.challenger, challenged=made.challenged,
            game=made.game, options=json.dumps(made.options),
            clock=None if made.clock is None else json.dumps(made.clock), rated=made.rated,
            created=made.created, expires=made.expires, status="pending"))
        return True

    return write


def answer(challenge_id: str, status: str, now: float, *, reason: str | None = None,
           room: str | None = None) -> Write:
    """The write that moves a challenge still pending (and not past its time) to `status`;
    whether it did (another answer, a cancel or its time may have come first)."""

    def write(conn: Connection) -> bool:
        done = conn.execute(update(challenges).where(
            challenges.c.id == challenge_id, _pending(now))
            .values(status=status, reason=reason, room=room))
        return bool(done.rowcount)

    return write


def expire_due(now: float, count: int) -> Write:
    """The write that marks up to `count` pending challenges past their time expired; the
    (id, challenger, challenged) of each."""

    def write(conn: Connection) -> list[tuple[str, str, str]]:
        due = conn.execute(
            select(challenges.c.id, challenges.c.challenger, challenges.c.challenged)
            .where(challenges.c.status == "pending", challenges.c.expires <= now)
            .limit(count)).all()
        if due:
            conn.execute(update(challenges).where(
                challenges.c.id.in_([row.id for row in due]),
                challenges.c.status == "pending").values(status="expired"))
        return [(row.id, row.challenger, row.challenged) for row in due]

    return write
