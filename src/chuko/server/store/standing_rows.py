"""The store's reads behind leaderboards, profiles and a player's own games: small queries
on one connection (`Store.read`, `Store.fetch`), each bounded by a count.

Nothing read here leaves the server as it is: a player's id is only ever a key between these
reads and `web/profiles_api.py`, which answers with usernames, display names and room ids (a
room id is public: it is the address of its replay).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.engine import Connection

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.store.rating_rows import RatingRow, SeatPoint, rated_point
from chuko.server.store.schema import players, rating_history, ratings, rooms, seats

DELETED = "deleted player"  # what a deleted account's seats and names read
MAX_USERNAME = 24
# A finished room's time in the game lists: when it ended, or (a room stored before rooms
# said so) its last change, which for a finished room is its last move.
FINISHED_AT = func.coalesce(rooms.c.ended, rooms.c.updated)


@dataclass(frozen=True)
class Account:
    """An account holder as their profile shows them; `id` stays on the server."""

    id: str
    username: str
    name: str | None
    created: float


@dataclass
class Listed:
    """A room in a player's game list: its header and every seat, each with its player's
    username (an account's) or DELETED."""

    id: str
    game: str
    status: str
    rated: bool
    at: float  # when it ended (a finished room) or last changed
    seat: int  # the listed player's seat
    seats: list[dict[str, Any]] = field(default_factory=list)
    rating: SeatPoint | None = None  # the player's rating after it and before, if it rated them


def account(conn: Connection, username: str) -> Account | None:
    """The account named `username` (compared casefolded, as names are); None for a name
    nobody holds, a deleted account, or a name too long to be one."""
    if not isinstance(username, str) or not 0 < len(username) <= MAX_USERNAME:
        return None
    row = conn.execute(select(players.c.id, players.c.username, players.c.name,
                              players.c.created)
                       .where(players.c.username_key == username.casefold(),
                              players.c.deleted.is_(False))).first()
    if row is None or row.username is None:
        return None
    return Account(row.id, row.username, row.name, row.created)


def leaderboard(conn: Connection, game: str, klass: str, count: int, *, least_games: int,
                most_sigma: float, settled: bool = True) -> list[dict[str, Any]]:
    """The `count` best settled ratings of accounts in `game` and `klass` (of `least_games`
    games or more and a `sigma` of `most_sigma` at most), best first (by the shown rating,
    the mean: as lichess ranks); with `settled` false, the best provisional ones (the
    others). Guests are not listed: a guest has no page to link to."""
    is_settled = and_(ratings.c.games >= least_games, ratings.c.sigma <= most_sigma)
    found = conn.execute(
        select(players.c.username, ratings.c.mu, ratings.c.sigma, ratings.c.games,
               ratings.c.wins)
        .join(players, players.c.id == ratings.c.player)
        .where(ratings.c.game == game, ratings.c["class"] == klass,
               is_settled if settled else ~is_settled,
               players.c.username.is_not(None), players.c.deleted.is_(False))
        .order_by(ratings.c.mu.desc(), players.c.username_key).limit(count)).all()
    return [{"username": row.username,
             "rating": RatingRow(row.mu, row.sigma, row.games, row.wins)} for row in found]


def player_ratings(conn: Connection, player: str) -> list[tuple[str, str, RatingRow]]:
    """Every rating the player has, as (game, class, rating)."""
    found = conn.execute(select(ratings).where(ratings.c.player == player)
                         .order_by(ratings.c.game, ratings.c["class"])).all()
    return [(row.game, row._mapping["class"], RatingRow(row.mu, row.sigma, row.games, row.wins))
            for row in found]


def rating_points(conn: Connection, player: str, count: int) -> list[dict[str, Any]]:
    """The player's newest `count` rating-history points, oldest first: (game, class, at,
    mu, sigma, games — the rated games in that class up to this one)."""
    found = conn.execute(
        select(rating_history.c.game, rating_history.c["class"], rating_history.c.at,
               rating_history.c.mu, rating_history.c.sigma)
        .where(rating_history.c.player == player)
        .order_by(rating_history.c.at.desc(), rating_history.c.room.desc())
        .limit(count)).all()
    return [{"game": row.game, "class": row._mapping["class"], "at": row.at,
             "mu": row.mu, "sigma": row.sigma} for row in reversed(found)]


def games_page(conn: Connection, player: str, statuses: tuple[str, ...], count: int,
               before: str | None = None) -> list[Listed]:
    """The player's rooms in `statuses`, newest first, at most `count`: those listed
    after the room `before` (a room id from an earlier page) when it is given; ConfigError
    when `before` is not one of them."""
    mine = (select(rooms.c.id, rooms.c.game, rooms.c.status, rooms.c.rated,
                   FINISHED_AT.label("at"), seats.c.seat)
            .join(seats, seats.c.room == rooms.c.id)
            .where(seats.c.player == player, rooms.c.status.in_(statuses)))
    if before is not None:
        mark = conn.execute(mine.where(rooms.c.id == before)).first() if isinstance(
            before, str) and len(before) <= 32 else None
        if mark is None:
            raise ConfigError(Text("A game list's `before` must be a room listed on an "
                                   "earlier page."))
        ended = FINISHED_AT
        mine = mine.where(or_(ended < mark.at, and_(ended == mark.at, rooms.c.id < mark.id)))
    found = conn.execute(mine.order_by(FINISHED_AT.desc(), rooms.c.id.desc())
                         .limit(count)).all()
    listed = {row.id: Listed(row.id, row.game, row.status, bool(row.rated), row.at, row.seat)
              for row in found}
    _seat_everyone(conn, listed)
    _rate_rated(conn, player, listed)
    return list(listed.values())


def _seat_everyone(conn: Connection, listed: dict[str, Listed]) -> None:
    """Fill each listed room's seats: kind, level, name, the holder's username (or DELETED:
    the name of a deleted account's seat), and whether the seat was left to a bot."""
    if not listed:
        return
    found = conn.execute(
        select(seats.c.room, seats.c.seat, seats.c.kind, seats.c.level, seats.c.name,
               seats.c.invite_hash, seats.c.gone, players.c.username, players.c.deleted)
        .outerjoin(players, players.c.id == seats.c.player)
        .where(seats.c.room.in_(list(listed)))
        .order_by(seats.c.room, seats.c.seat)).all()
    for row in found:
        listed[row.room].seats.append({
            "seat": row.seat, "kind": row.kind, "level": row.level,
            "name": DELETED if row.deleted else row.name,
            "friend": row.invite_hash is not None,  # an unnamed seat's label says so
            "profile": None if row.deleted else row.username, "gone": row.gone})


def _rate_rated(conn: Connection, player: str, listed: dict[str, Listed]) -> None:
    """The player's rating after each listed room that rated them, and before it."""
    rated = [room_id for room_id, room in listed.items() if room.rated]
    if not rated:
        return
    for row in conn.execute(select(rating_history).where(
            rating_history.c.player == player, rating_history.c.room.in_(rated))):
        listed[row.room].rating = rated_point(conn, row)
