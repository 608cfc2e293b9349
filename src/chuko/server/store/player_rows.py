"""The store's reads and writes of players and their sessions (`schema.players`,
`schema.sessions`): reads are functions of a connection for `Store.read`, writes are
`Write`s for `Store.submit` (run in the writer's transaction).

A session row is keyed by the SHA-256 of its cookie's secret, so the database never holds a
secret that would let anyone in. A deleted account's row stays (its seats, ratings and
history point at it) with `deleted` set and no password; its username stays taken, so
nobody can pass for it in the games it played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from chuko.core.text import Text
from chuko.server.shared.players import GUEST_LABEL, Player
from chuko.server.store.schema import players, seats, sessions
from chuko.server.store.writes import Conflict, Write

TAKEN = Text("That username is taken: choose another.")


@dataclass(frozen=True)
class Session:
    """A session as stored: whose it is, and when it was last used."""

    player: Player
    seen: float


@dataclass(frozen=True)
class Account:
    """An account's listing for `chuko accounts list`."""

    username: str
    created: float
    games: int


def _player(row: Any) -> Player:
    return Player(row.id, row.name or row.username or "Guest", row.username)


def session_of(id_hash: str) -> Callable[[Connection], Session | None]:
    """The session keyed by `id_hash` and its player, unless there is none or its player is
    deleted."""

    def read(conn: Connection) -> Session | None:
        row = conn.execute(
            select(players.c.id, players.c.name, players.c.username, sessions.c.seen)
            .join(sessions, sessions.c.player == players.c.id)
            .where(sessions.c.id_hash == id_hash, players.c.deleted.is_(False))).first()
        return None if row is None else Session(_player(row), row.seen)

    return read


def login_of(key: str) -> Callable[[Connection], tuple[Player, str] | None]:
    """The account whose username key is `key` and its password hash; None for no such
    account (or a deleted one)."""

    def read(conn: Connection) -> tuple[Player, str] | None:
        row = conn.execute(
            select(players.c.id, players.c.name, players.c.username, players.c.password_hash)
            .where(players.c.username_key == key, players.c.deleted.is_(False),
                   players.c.password_hash.is_not(None))).first()
        return None if row is None else (_player(row), row.password_hash)

    return read


def password_of(player_id: str) -> Callable[[Connection], str | None]:
    """The password hash of a player's account (None for a guest or a deleted account)."""

    def read(conn: Connection) -> str | None:
        return conn.execute(select(players.c.password_hash).where(
            players.c.id == player_id, players.c.deleted.is_(False))).scalar()

    return read


def accounts(conn: Connection) -> list[Account]:
    """Every account that is not deleted, by username, with the count of its seats in
    games."""
    played = (select(seats.c.player, func.count().label("games"))
              .where(seats.c.player.is_not(None)).group_by(seats.c.player).subquery())
    rows = conn.execute(
        select(players.c.username, players.c.created, played.c.games)
        .outerjoin(played, played.c.player == players.c.id)
        .where(players.c.username.is_not(None), players.c.deleted.is_(False))
        .order_by(players.c.username_key)).all()
    return [Account(row.username, row.created, row.games or 0) for row in rows]


def new_guest(player: Player, id_hash: str, now: float) -> Write:
    """A guest's row and its first session."""

    def write(conn: Connection) -> None:
        conn.execute(insert(players).values(id=player.id, name=player.name, created=now,
                                            deleted=False))
        conn.execute(insert(sessions).values(id_hash=id_hash, player=player.id, created=now,
                                             seen=now))

    return write


def open_session(player_id: str, id_hash: str, now: float, ending: str | None = None,
                 others: bool = False) -> Write:
    """A new session for the player, ending the session keyed `ending` (the one it replaces:
    a new secret at every log-in, so a secret planted before it is worth nothing) and, with
    `others`, every other session of the player's (a new password ends them)."""

    def write(conn: Connection) -> None:
        if ending is not None:
            conn.execute(delete(sessions).where(sessions.c.id_hash == ending))
        if others:
            conn.execute(delete(sessions).where(sessions.c.player == player_id))
        conn.execute(insert(sessions).values(id_hash=id_hash, player=player_id, created=now,
                                             seen=now))

    return write


def end_session(id_hash: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(delete(sessions).where(sessions.c.id_hash == id_hash))

    return write


def sweep(unseen_since: float) -> Write:
    """Delete the sessions unused since `unseen_since`: over, whoever presents them."""

    def write(conn: Connection) -> None:
        conn.execute(delete(sessions).where(sessions.c.seen < unseen_since))

    return write


def seen(id_hash: str, now: float) -> Write:
    """The session was used at `now` (renewed at most now and then: `accounts.RENEW`)."""

    def write(conn: Connection) -> None:
        conn.execute(update(sessions).where(sessions.c.id_hash == id_hash).values(seen=now))

    return write


def make_account(player_id: str, username: str, key: str, password_hash: str,
                 name: str) -> Write:
    """A guest's row becomes an account (its id, and so its games and ratings, stay), and
    the seats it held under no name of its choosing (none, or the server's "Guest 4821")
    carry the account's `name` from now on; Conflict when the username is taken or the
    player has an account already."""

    def write(conn: Connection) -> None:
        if conn.execute(select(players.c.id).where(players.c.username_key == key)).first():
            raise Conflict(TAKEN)
        done = conn.execute(
            update(players).where(players.c.id == player_id, players.c.username.is_(None),
                                  players.c.deleted.is_(False))
            .values(username=username, username_key=key, password_hash=password_hash,
                    name=name))
        if done.rowcount != 1:
            raise Conflict(Text("You have an account already: log out to make another."))
        _name_unnamed_seats(conn, player_id, name)

    return write


def _name_unnamed_seats(conn: Connection, player_id: str, name: str) -> None:
    held = conn.execute(select(seats.c.room, seats.c.seat, seats.c.name)
                        .where(seats.c.player == player_id)).all()
    for row in held:
        if row.name is None or GUEST_LABEL.fullmatch(row.name):
            conn.execute(update(seats).where(seats.c.room == row.room, seats.c.seat == row.seat)
                         .values(name=name))


def set_name(player_id: str, name: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(update(players).where(players.c.id == player_id).values(name=name))

    return write


def language_of(player_id: str) -> Callable[[Connection], str | None]:
    """The language an account chose, if it chose one."""

    def read(conn: Connection) -> str | None:
        return conn.execute(select(players.c.language).where(
            players.c.id == player_id)).scalar()

    return read


def set_language(player_id: str, language: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(update(players).where(players.c.id == player_id)
                     .values(language=language))

    return write


def set_password(player_id: str, password_hash: str) -> Write:
    def write(conn: Connection) -> None:
        conn.execute(update(players).where(players.c.id == player_id)
                     .values(password_hash=password_hash))

    return write


def delete_account(player_id: str) -> Write:
    """The account deleted: no password, no sessions, marked deleted; its row (and so its
    games, ratings and username) stays."""

    def write(conn: Connection) -> None:
        conn.execute(delete(sessions).where(sessions.c.player == player_id))
        conn.execute(update(players).where(players.c.id == player_id)
                     .values(password_hash=None, deleted=True))

    return write


def account_id(key: str) -> Callable[[Connection], str | None]:
    """The id of the account whose username key is `key`, unless deleted."""

    def read(conn: Connection) -> str | None:
        return conn.execute(select(players.c.id).where(
            players.c.username_key == key, players.c.deleted.is_(False),
            players.c.username.is_not(None))).scalar()

    return read
