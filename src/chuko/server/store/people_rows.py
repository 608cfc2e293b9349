"""The store's reads and writes of the relations between players (`schema.follows`,
`schema.blocks`) and of whom an account takes challenges from (`players.challenges`):
reads are functions of a connection for `Store.read`/`fetch`, writes are `Write`s for
`Store.submit`. What they mean (who may follow, whose phrases are hidden) is
`club/relations.py`'s.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Column, Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from chuko.server.store.schema import blocks, follows, players, rooms, seats
from chuko.server.store.writes import Write


class Person(NamedTuple):
    """An account as a list of people shows it (its id stays on the server)."""

    id: str
    username: str
    name: str


class Between(NamedTuple):
    """What holds between a player and another: whether the first follows, blocks, or is
    blocked by the second."""

    follows: bool
    blocks: bool
    blocked_by: bool


class Finished(NamedTuple):
    """A finished game of a followed account: the room, its game, when it ended, who."""

    room: str
    game: str
    ended: float
    username: str
    name: str


def between(conn: Connection, player: str, other: str) -> Between:
    found = conn.execute(select(follows.c.follower).where(
        follows.c.follower == player, follows.c.followed == other)).first()
    held = {(row.blocker, row.blocked) for row in conn.execute(
        select(blocks.c.blocker, blocks.c.blocked).where(or_(
            and_(blocks.c.blocker == player, blocks.c.blocked == other),
            and_(blocks.c.blocker == other, blocks.c.blocked == player))))}
    return Between(found is not None, (player, other) in held, (other, player) in held)


def _people(conn: Connection, table: Table, mine: Column[str], theirs: Column[str],
            player: str, count: int) -> list[Person]:
    rows = conn.execute(
        select(players.c.id, players.c.username, players.c.name)
        .join(table, theirs == players.c.id)
        .where(mine == player, players.c.deleted.is_(False),
               players.c.username.is_not(None))
        .order_by(players.c.username_key).limit(count)).all()
    return [Person(row.id, row.username, row.name) for row in rows]


def followed(conn: Connection, player: str, count: int) -> list[Person]:
    """The accounts `player` follows (at most `count`, by name; deleted ones left out)."""
    return _people(conn, follows, follows.c.follower, follows.c.followed, player, count)


def blocked(conn: Connection, player: str, count: int) -> list[Person]:
    """The accounts `player` blocks (at most `count`, by name)."""
    return _people(conn, blocks, blocks.c.blocker, blocks.c.blocked, player, count)


def blocked_ids(conn: Connection, player: str) -> frozenset[str]:
    """The ids of every player `player` blocks."""
    return frozenset(conn.execute(select(blocks.c.blocked).where(
        blocks.c.blocker == player)).scalars())


def username_of(conn: Connection, player: str) -> str | None:
    """The username of an account not deleted; None for a guest or a deleted account."""
    return conn.execute(select(players.c.username).where(
        players.c.id == player, players.c.deleted.is_(False))).scalar()


def preference(conn: Connection, player: str) -> str | None:
    """Whom the player takes challenges from: None (everyone), "follows" or "nobody"."""
    return conn.execute(select(players.c.challenges).where(players.c.id == player)).scalar()


def recent_games(conn: Connection, player: str, count: int) -> list[Finished]:
    """The latest `count` finished games of the accounts `player` follows, newest first
    (a game two of them played is listed once for each)."""
    rows = conn.execute(
        select(rooms.c.id, rooms.c.game, rooms.c.ended, players.c.username, players.c.name)
        .join(seats, seats.c.room == rooms.c.id)
        .join(follows, follows.c.followed == seats.c.player)
        .join(players, players.c.id == seats.c.player)
        .where(follows.c.follower == player, rooms.c.status == "over",
               rooms.c.ended.is_not(None), players.c.deleted.is_(False))
        .order_by(rooms.c.ended.desc()).limit(count)).all()
    return [Finished(row.id, row.game, row.ended, row.username, row.name) for row in rows]


def follow(player: str, other: str, now: float, most: int) -> Write:
    """The write that has `player` follow `other`: "new", "already", or "full" when
    `player` follows `most` already (nothing written)."""

    def write(conn: Connection) -> str:
        if conn.execute(select(follows.c.since).where(
                follows.c.follower == player, follows.c.followed == other)).first():
            return "already"
        held = conn.execute(select(func.count()).select_from(follows).where(
            follows.c.follower == player)).scalar_one()
        if held >= most:
            return "full"
        conn.execute(insert(follows).values(follower=player, followed=other, since=now))
        return "new"

    return write


def unfollow(player: str, other: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(delete(follows).where(follows.c.follower == player,
                                           follows.c.followed == other))

    return write


def block(player: str, other: str, now: float, most: int) -> Write:
    """The write that has `player` block `other`, and ends each one's follow of the other:
    "new", "already", or "full" when `player` blocks `most` already (nothing written)."""

    def write(conn: Connection) -> str:
        if conn.execute(select(blocks.c.since).where(
                blocks.c.blocker == player, blocks.c.blocked == other)).first():
            return "already"
        held = conn.execute(select(func.count()).select_from(blocks).where(
            blocks.c.blocker == player)).scalar_one()
        if held >= most:
            return "full"
        conn.execute(insert(blocks).values(blocker=player, blocked=other, since=now))
        conn.execute(delete(follows).where(or_(
            and_(follows.c.follower == player, follows.c.followed == other),
            and_(follows.c.follower == other, follows.c.followed == player))))
        return "new"

    return write


def unblock(player: str, other: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(delete(blocks).where(blocks.c.blocker == player,
                                          blocks.c.blocked == other))

    return write


def set_preference(player: str, choice: str | None) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(update(players).where(players.c.id == player).values(challenges=choice))

    return write


def playing(conn: Connection, ids: list[str]) -> dict[str, list[tuple[str, str]]]:
    """The rooms in play where each of `ids` holds a seat still theirs: player → [(room,
    game)], newest first."""
    if not ids:
        return {}
    rows = conn.execute(
        select(seats.c.player, rooms.c.id, rooms.c.game)
        .join(rooms, rooms.c.id == seats.c.room)
        .where(seats.c.player.in_(ids), seats.c.gone.is_(None), rooms.c.status == "playing")
        .order_by(rooms.c.created.desc())).all()
    held: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        held.setdefault(row.player, []).append((row.id, row.game))
    return held
