"""The store's reads and writes of ratings (`schema.ratings`, `schema.rating_history`): the
statements `club/ratings.py`'s `apply_result` runs in the transaction that ends a rated
room, and the lobby's read of a player's rating. Each is a function of a connection; what
they decide (whether a game counts, the new ratings) is the club's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from chuko.server.store.schema import moves, players, rating_history, ratings, rooms, seats


class RatingRow(NamedTuple):
    """A stored rating: openskill's mean and uncertainty, and the games behind it (a history
    point has no count: 0)."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0


class RoomHeader(NamedTuple):
    """What rating a finished room starts from: whether it is rated, when it ended and its
    result as stored."""

    rated: bool
    ended: float | None
    result: dict[str, Any]


def room_header(conn: Connection, room_id: str) -> RoomHeader | None:
    row = conn.execute(select(rooms.c.rated, rooms.c.ended, rooms.c.result)
                       .where(rooms.c.id == room_id)).first()
    if row is None:
        return None
    return RoomHeader(bool(row.rated), row.ended, json.loads(row.result) if row.result else {})


def rated_already(conn: Connection, room_id: str) -> bool:
    """Whether the room's ratings were applied (another worker, or a second call)."""
    return conn.execute(select(rating_history.c.player)
                        .where(rating_history.c.room == room_id).limit(1)).first() is not None


def seat_holders(conn: Connection, room_id: str) -> list[Any]:
    """The room's seats in order: each one's kind, player and when it was left (`gone`)."""
    return list(conn.execute(select(seats.c.kind, seats.c.player, seats.c.gone)
                             .where(seats.c.room == room_id).order_by(seats.c.seat)).all())


def lock_ratings(conn: Connection, game: str, klass: str,
                 holders: list[str]) -> dict[str, RatingRow]:
    """Lock the players' rows (each rating write of a player waits for the one before, even
    of a first rating, which has no row yet to lock) and read their ratings in `game` and
    `klass`."""
    conn.execute(select(players.c.id).where(players.c.id.in_(holders))
                 .order_by(players.c.id).with_for_update(key_share=True)).all()
    return {row.player: RatingRow(row.mu, row.sigma, row.games, row.wins)
            for row in conn.execute(select(ratings).where(
                ratings.c.player.in_(holders), ratings.c.game == game,
                ratings.c["class"] == klass).with_for_update())}


def moves_by_seat(conn: Connection, room_id: str) -> dict[int, int]:
    """How many moves each seat of the room made."""
    return dict(conn.execute(select(moves.c.seat, func.count()).where(moves.c.room == room_id)
                             .group_by(moves.c.seat)).all())


def pair_counts(conn: Connection, holders: list[str], since: float) -> list[int]:
    """For each two of `holders`, their rated games together since `since`."""
    mine, theirs = rating_history.alias("mine"), rating_history.alias("theirs")
    return list(conn.execute(
        select(func.count()).select_from(mine.join(theirs, mine.c.room == theirs.c.room))
        .where(mine.c.player.in_(holders), theirs.c.player.in_(holders),
               mine.c.player < theirs.c.player, mine.c.at > since)
        .group_by(mine.c.player, theirs.c.player)).scalars().all())


def recent_counts(conn: Connection, holders: list[str], game: str, klass: str,
                  since: float) -> list[int]:
    """For each of `holders`, their rated games in `game` and `klass` since `since`."""
    if not holders:
        return []
    return list(conn.execute(
        select(func.count()).where(rating_history.c.player.in_(holders),
                                   rating_history.c.game == game,
                                   rating_history.c["class"] == klass,
                                   rating_history.c.at > since)
        .group_by(rating_history.c.player)).scalars().all())


def mark_unrated(conn: Connection, room_id: str, result: dict[str, Any]) -> None:
    """Store the room's result, which says why it changed no rating."""
    conn.execute(update(rooms).where(rooms.c.id == room_id).values(result=json.dumps(result)))


def store_rating(conn: Connection, player: str, game: str, klass: str, room_id: str,
                 rating: RatingRow, at: float, *, first: bool) -> None:
    """The player's new rating in `game` and `klass` (`first`: they had none) and its history
    point for the room, dated `at`."""
    values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
              "wins": rating.wins, "updated": at}
    if first:
        conn.execute(insert(ratings).values(player=player, game=game, **{"class": klass},
                                            **values))
    else:
        conn.execute(update(ratings).where(ratings.c.player == player, ratings.c.game == game,
                                           ratings.c["class"] == klass).values(**values))
    conn.execute(insert(rating_history).values(
        player=player, room=room_id, game=game, **{"class": klass}, mu=rating.mu,
        sigma=rating.sigma, at=at))


def rating_of(player: str, game: str, klass: str) -> Callable[[Connection], RatingRow | None]:
    """The player's rating in `game` and `klass` (None: they have none)."""

    def read(conn: Connection) -> RatingRow | None:
        row = conn.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.games,
                                  ratings.c.wins).where(
            ratings.c.player == player, ratings.c.game == game,
            ratings.c["class"] == klass)).first()
        return None if row is None else RatingRow(row.mu, row.sigma, row.games, row.wins)

    return read


class SeatPoint(NamedTuple):
    """A rated room's seat as its player's rating shows there: `rating` after the room when
    it was rated (`games`: their rated games in its class up to it), else as it stands
    (None: no rating yet); `before`, their rating before the room when it was rated (None:
    it was their first)."""

    rating: RatingRow | None
    rated_here: bool
    before: RatingRow | None = None


def seat_points(conn: Connection, room_id: str, game: str, klass: str) -> list[SeatPoint | None]:
    """Each seat's rating in the room (None: a seat with no player, or a bot's own); for a
    player the room rated, the history point it made and the point before it."""
    found = seat_holders(conn, room_id)
    players_of = [None if row.player is None or (row.kind == "bot" and row.gone is None)
                  else str(row.player) for row in found]
    held = [p for p in players_of if p is not None]
    if not held:
        return [None] * len(found)
    here = {row.player: row for row in conn.execute(
        select(rating_history).where(rating_history.c.room == room_id,
                                     rating_history.c.player.in_(held)))}
    current = {row.player: row for row in conn.execute(
        select(ratings).where(ratings.c.player.in_(held), ratings.c.game == game,
                              ratings.c["class"] == klass))}
    points: list[SeatPoint | None] = []
    for player in players_of:
        if player is None:
            points.append(None)
        elif player in here:
            points.append(rated_point(conn, here[player]))
        else:
            row = current.get(player)
            points.append(SeatPoint(None if row is None else
                                    RatingRow(row.mu, row.sigma, row.games, row.wins), False))
    return points


def rated_point(conn: Connection, point: Any) -> SeatPoint:
    """The rating a history point shows, its games counted, with the point before it."""
    earlier = or_(rating_history.c.at < point.at,
                  and_(rating_history.c.at == point.at, rating_history.c.room < point.room))
    same = (rating_history.c.player == point.player, rating_history.c.game == point.game,
            rating_history.c["class"] == point._mapping["class"])
    games = conn.execute(select(func.count()).where(*same, earlier)).scalar() or 0
    before = conn.execute(select(rating_history.c.mu, rating_history.c.sigma)
                          .where(*same, earlier)
                          .order_by(rating_history.c.at.desc(), rating_history.c.room.desc())
                          .limit(1)).first()
    return SeatPoint(RatingRow(point.mu, point.sigma, games + 1), True,
                     None if before is None else RatingRow(before.mu, before.sigma, games))
