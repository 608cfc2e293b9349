"""The daily Caravan over HTTP (docs/web-protocol.md): the day's deal, its moves judged by
the engine, a finished game's result stored for the session's player, the day's
leaderboard, the player's streak and, once they have finished, the solver's facts.

The deal is the date's (`chuko.practice.daily`), the same as `chuko daily` plays. The server keeps
no game in progress: the page sends the moves so far and gets the position back, so an undo
is the same list less its last move. A finished game is stored once (the first result of a
day counts). Its time is the server's: from when the day's deal was first served to the
player (`daily_starts`: the day's page asked with a session, or the first move played) to
the result; a number the page sends is never taken for it.
"""

from __future__ import annotations

import asyncio
import datetime
import math
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import and_, insert, nulls_last, select
from sqlalchemy.engine import Connection
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.practice import daily
from chuko.server.club.players import Identify, Player
from chuko.server.shared.limits import Clock
from chuko.server.store.database import Store
from chuko.server.store.schema import daily_results, daily_starts, players
from chuko.server.web.router import Post, ReadBody

BOARD = 20  # the leaderboard's rows: the winners, at par first, then the fastest
STREAK_DAYS = 400  # won days read back for a streak
UNSTARTED = ("The server has not dealt you this day's Caravan yet: play it from its page, "
             "where your time starts.")


def _day(text: Any, today: datetime.date) -> datetime.date:
    """A day whose deal is out by `today`, from the request; ConfigError in one sentence
    otherwise."""
    if text is None:
        return today
    if not isinstance(text, str):
        raise ConfigError("Say the day as text written YYYY-MM-DD.")
    return daily.playable(daily.read_day(text), today)


def position(state: Any) -> Json:
    """What the page draws the table from: the engine's view, its legal moves, a version."""
    return {"view": state.view(0), "legal": [str(m) for m in state.legal_moves(0)],
            "version": len(state.moves)}


def shown_seconds(stored: Any) -> int | None:
    """A stored time as a page shows it: whole seconds, or None for no time (a NaN or an
    infinity an older server stored from a page's count)."""
    if stored is None or not math.isfinite(stored):
        return None
    return round(stored)


def board(conn: Connection, day: str) -> list[Json]:
    """The day's winners: those at par first (the fewest bridges), then the fastest, then
    the earlier result; a result without a time comes after the timed ones."""
    rows = conn.execute(
        select(players.c.name, daily_results.c.bridges, daily_results.c.seconds)
        .join(players, players.c.id == daily_results.c.player)
        .where(and_(daily_results.c.day == day, daily_results.c.won))
        .order_by(daily_results.c.bridges, nulls_last(daily_results.c.seconds),
                  daily_results.c.at).limit(BOARD)).all()
    return [{"name": row.name, "bridges": row.bridges, "seconds": shown_seconds(row.seconds)}
            for row in rows]


def mine(conn: Connection, day: str, player: str) -> Json | None:
    row = conn.execute(select(daily_results).where(and_(
        daily_results.c.day == day, daily_results.c.player == player))).first()
    if row is None:
        return None
    return {"won": row.won, "bridges": row.bridges, "par": row.par,
            "seconds": shown_seconds(row.seconds)}


def started(conn: Connection, day: str, player: str) -> float | None:
    """When the day's deal was first served to the player (None: not yet)."""
    found = conn.execute(select(daily_starts.c.at).where(and_(
        daily_starts.c.day == day, daily_starts.c.player == player))).scalar()
    return None if found is None else float(found)


def start_once(day: str, player: str, now: float) -> Callable[[Connection], float]:
    """The write that keeps when the day's deal was first served to the player: the start
    stored, else `now` stored; the start it leaves."""

    def write(conn: Connection) -> float:
        found = started(conn, day, player)
        if found is not None:
            return found
        conn.execute(insert(daily_starts).values(day=day, player=player, at=now))
        return now

    return write


def streak(conn: Connection, player: str, today: datetime.date) -> Json:
    """Days in a row the player won the daily on its day (a result stored on a later day,
    an archive day's, counts for neither): the run that ends today or yesterday
    (`current`) and the longest (`best`)."""
    days = [day for row in conn.execute(
        select(daily_results.c.day, daily_results.c.at).where(and_(
            daily_results.c.player == player, daily_results.c.won))
        .order_by(daily_results.c.day.desc()).limit(STREAK_DAYS))
        if (day := datetime.date.fromisoformat(row.day)) == daily.day_of(row.at)]
    best, run, current = 0, 0, 0
    for index, day in enumerate(days):
        run = run + 1 if index and (days[index - 1] - day).days == 1 else 1
        best = max(best, run)
        if index + 1 == run and (today - days[0]).days <= 1:
            current = run
    return {"current": current, "best": best}


def store_result(day: str, player: str, won: bool, bridges: int, par: int,
                 now: float) -> Callable[[Connection], bool | None]:
    """The write that keeps a player's first result of a day, timed from its start: True
    when stored, False when one is kept already, None when the deal was never served to
    the player (no start, so no time)."""

    def write(conn: Connection) -> bool | None:
        if mine(conn, day, player) is not None:
            return False
        start = started(conn, day, player)
        if start is None:
            return None
        conn.execute(insert(daily_results).values(
            day=day, player=player, won=won, bridges=bridges, par=par,
            seconds=max(0.0, now - start), at=now))
        return True

    return write


class DailyApi:
    """The daily's requests on `store`; `identify` finds a request's player, and `clock`
    (seconds since the epoch) times their games and says which day it is."""

    def __init__(self, store: Store, identify: Identify, clock: Clock = time.time) -> None:
        self.store, self.identify, self.clock = store, identify, clock

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {"/api/daily/play": self.play, "/api/daily/result": self.result}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/daily")(self.today)
        app.get("/api/daily/{day}")(self.day)

    async def today(self, request: Request) -> Json:
        return await self._page(request.scope, daily.day_of(self.clock()))

    async def day(self, request: Request, day: str) -> Json:
        return await self._page(request.scope, _day(day, daily.day_of(self.clock())))

    async def _page(self, scope: Scope, day: datetime.date) -> Json:
        """The day's deal and par, the start position, the leaderboard and, for a player
        with a session, their result, streak, share line and (once finished) the facts, or
        the seconds their game has taken so far (`elapsed`; serving it starts the time)."""
        deal = await asyncio.to_thread(daily.deal_for, day)
        player = await self.identify(scope, create=False)
        today = daily.day_of(self.clock())
        answer = {"date": day.isoformat(), "game": daily.GAME.id, "deal": deal.deal,
                  "bridges": daily.LIMIT, "par": deal.par, "today": today.isoformat(),
                  "first": daily.FIRST_DAY.isoformat(), "elapsed": None,
                  **position(deal.start())}
        answer.update(await self._read_for(day, today, player))
        start = answer.pop("started")
        if answer["mine"] is not None:
            answer.update(await self._finished(day, answer["mine"]))
        elif player is not None:
            answer["elapsed"] = await self._elapsed(day, player, start)
        return answer

    async def _read_for(self, day: datetime.date, today: datetime.date,
                        player: Player | None) -> Json:
        def read(conn: Connection) -> Json:
            found: Json = {"board": board(conn, day.isoformat()), "mine": None,
                           "streak": None, "started": None}
            if player is not None:
                found["mine"] = mine(conn, day.isoformat(), player.id)
                found["streak"] = streak(conn, player.id, today)
                found["started"] = started(conn, day.isoformat(), player.id)
            return found

        return dict(await self.store.fetch(read))

    async def _elapsed(self, day: datetime.date, player: Player,
                       start: float | None) -> float:
        """The seconds since the day's deal was first served to the player (`start`, as
        read), the start stored now where there is none."""
        now = self.clock()
        if start is None:
            start = await self.store.submit(start_once(day.isoformat(), player.id, now))
        return max(0.0, now - start)

    @staticmethod
    async def _finished(day: datetime.date, result: Json) -> Json:
        """What a finished player sees: the share line and the solver's facts."""
        facts = await asyncio.to_thread(daily.facts_for, day)
        return {"share": daily.share_line(day, result["won"], result["bridges"],
                                          result["par"], result["seconds"]),
                "facts": {"winning_starts": facts.winning_starts, "starts": facts.starts,
                          "line": [str(move) for move in facts.line]}}

    async def play(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The position after the moves sent, each judged by the engine. A move played times
        the player from then at the latest (a visitor is made a guest for it), and the
        answer says how long their game has taken so far (`elapsed`)."""
        data = await body()
        day = _day(data.get("date"), daily.day_of(self.clock()))
        state = await asyncio.to_thread(daily.played, day, data.get("moves"))
        answer = position(state)
        if state.moves:
            player = await self.identify(scope, create=True)
            assert player is not None  # `create` always gives one
            start = await self.store.fetch(lambda conn: started(
                conn, day.isoformat(), player.id))
            answer["elapsed"] = await self._elapsed(day, player, start)
        return 200, answer

    async def result(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A finished game's moves: stored for the session's player, timed by the server,
        unless they have a result for that day; then the day's page. A `seconds` the page
        sends is not read."""
        data = await body()
        day = _day(data.get("date"), daily.day_of(self.clock()))
        state = await asyncio.to_thread(daily.played, day, data.get("moves"))
        outcome = state.outcome
        if outcome is None:
            raise ConfigError("The game is not over yet: play it to its end first.")
        player = await self.identify(scope, create=False)
        if player is None:
            raise ConfigError(UNSTARTED)
        par = (await asyncio.to_thread(daily.deal_for, day)).par
        stored = await self.store.submit(store_result(
            day.isoformat(), player.id, bool(outcome.winners), state.bridges_used, par,
            self.clock()))
        if stored is None:
            raise ConfigError(UNSTARTED)
        return 200, await self._page(scope, day)
