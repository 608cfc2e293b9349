"""The store's reads and writes of the daily Caravan (`schema.daily_results`,
`schema.daily_starts`): reads are functions of a connection for `Store.read`/`fetch`,
writes are `Write`s for `Store.submit`. A day is its ISO date (YYYY-MM-DD); what the rows
mean (a streak, a share line) is `practice/daily.py`'s.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import and_, insert, nulls_last, select
from sqlalchemy.engine import Connection

from chuko.server.store.schema import daily_results, daily_starts, players
from chuko.server.store.writes import Write


class Result(NamedTuple):
    """A player's stored result of a day: the seconds are the server's count (None, or a
    NaN or an infinity an older server stored from a page's count)."""

    won: bool
    bridges: int
    par: int
    seconds: float | None


class Winner(NamedTuple):
    """A row of a day's leaderboard."""

    name: str
    bridges: int
    seconds: float | None


def winners(conn: Connection, day: str, count: int) -> list[Winner]:
    """The day's first `count` winners: those at par first (the fewest bridges), then the
    fastest, then the earlier result; a result without a time comes after the timed ones."""
    rows = conn.execute(
        select(players.c.name, daily_results.c.bridges, daily_results.c.seconds)
        .join(players, players.c.id == daily_results.c.player)
        .where(and_(daily_results.c.day == day, daily_results.c.won))
        .order_by(daily_results.c.bridges, nulls_last(daily_results.c.seconds),
                  daily_results.c.at).limit(count)).all()
    return [Winner(row.name, row.bridges, row.seconds) for row in rows]


def result_of(conn: Connection, day: str, player: str) -> Result | None:
    row = conn.execute(select(daily_results).where(and_(
        daily_results.c.day == day, daily_results.c.player == player))).first()
    return None if row is None else Result(row.won, row.bridges, row.par, row.seconds)


def started(conn: Connection, day: str, player: str) -> float | None:
    """When the day's deal was first served to the player (None: not yet)."""
    found = conn.execute(select(daily_starts.c.at).where(and_(
        daily_starts.c.day == day, daily_starts.c.player == player))).scalar()
    return None if found is None else float(found)


def won_days(conn: Connection, player: str, count: int) -> list[tuple[str, float]]:
    """The player's latest `count` won days, newest first: each day and when its result
    was stored."""
    return [(row.day, row.at) for row in conn.execute(
        select(daily_results.c.day, daily_results.c.at).where(and_(
            daily_results.c.player == player, daily_results.c.won))
        .order_by(daily_results.c.day.desc()).limit(count))]


def start_once(day: str, player: str, now: float) -> Write:
    """The write that keeps when the day's deal was first served to the player: the start
    stored, else `now` stored; the start it leaves."""

    def write(conn: Connection) -> float:
        found = started(conn, day, player)
        if found is not None:
            return found
        conn.execute(insert(daily_starts).values(day=day, player=player, at=now))
        return now

    return write


def store_result(day: str, player: str, won: bool, bridges: int, par: int,
                 now: float) -> Write:
    """The write that keeps a player's first result of a day, timed from its start: True
    when stored, False when one is kept already, None when the deal was never served to
    the player (no start, so no time)."""

    def write(conn: Connection) -> bool | None:
        if result_of(conn, day, player) is not None:
            return False
        start = started(conn, day, player)
        if start is None:
            return None
        conn.execute(insert(daily_results).values(
            day=day, player=player, won=won, bridges=bridges, par=par,
            seconds=max(0.0, now - start), at=now))
        return True

    return write
