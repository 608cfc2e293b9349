"""The daily Caravan over HTTP (docs/web-protocol.md): the day's deal, its moves judged by
the engine, a finished game's result stored for the session's player, the day's
leaderboard, the player's streak and, once they have finished, the solver's facts.

The deal is the date's (`chuko.practice.daily`), the same as `chuko daily` plays. The server keeps
no game in progress: the page sends the moves so far and gets the position back, so an undo
is the same list less its last move. A finished game is stored once (the first result of a
day counts); its time is the page's count, as the player's own clock.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import and_, insert, select
from sqlalchemy.engine import Connection
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.practice import daily

from .players import Identify, Player
from .router import Post, ReadBody
from .schema import daily_results, players
from .store import Store

BOARD = 20  # the leaderboard's rows: players who reached par, fastest first
LONGEST = 24 * 3600  # the most seconds a result may say
STREAK_DAYS = 400  # won days read back for a streak


def _day(text: Any) -> datetime.date:
    """A day whose deal is out, from the request; ConfigError in one sentence otherwise."""
    if text is None:
        return daily.today()
    if not isinstance(text, str):
        raise ConfigError("Say the day as text written YYYY-MM-DD.")
    return daily.playable(daily.read_day(text))


def position(state: Any) -> Json:
    """What the page draws the table from: the engine's view, its legal moves, a version."""
    return {"view": state.view(0), "legal": [str(m) for m in state.legal_moves(0)],
            "version": len(state.moves)}


def board(conn: Connection, day: str, par: int) -> list[Json]:
    """The day's players who reached par, fastest first (the earlier result on a tie)."""
    rows = conn.execute(
        select(players.c.name, daily_results.c.bridges, daily_results.c.seconds)
        .join(players, players.c.id == daily_results.c.player)
        .where(and_(daily_results.c.day == day, daily_results.c.won,
                    daily_results.c.bridges <= par))
        .order_by(daily_results.c.seconds, daily_results.c.at).limit(BOARD)).all()
    return [{"name": row.name, "bridges": row.bridges, "seconds": round(row.seconds)}
            for row in rows]


def mine(conn: Connection, day: str, player: str) -> Json | None:
    row = conn.execute(select(daily_results).where(and_(
        daily_results.c.day == day, daily_results.c.player == player))).first()
    if row is None:
        return None
    return {"won": row.won, "bridges": row.bridges, "par": row.par,
            "seconds": round(row.seconds)}


def streak(conn: Connection, player: str, today: datetime.date) -> Json:
    """Days in a row the player won the daily: the run that ends today or yesterday
    (`current`) and the longest (`best`)."""
    days = [datetime.date.fromisoformat(row.day) for row in conn.execute(
        select(daily_results.c.day).where(and_(daily_results.c.player == player,
                                               daily_results.c.won))
        .order_by(daily_results.c.day.desc()).limit(STREAK_DAYS))]
    best, run, current = 0, 0, 0
    for index, day in enumerate(days):
        run = run + 1 if index and (days[index - 1] - day).days == 1 else 1
        best = max(best, run)
        if index + 1 == run and (today - days[0]).days <= 1:
            current = run
    return {"current": current, "best": best}


def store_result(day: str, player: str, won: bool, bridges: int, par: int,
                 seconds: float, now: float) -> Any:
    """The write that keeps a player's first result of a day; False when one is kept."""

    def write(conn: Connection) -> bool:
        if mine(conn, day, player) is not None:
            return False
        conn.execute(insert(daily_results).values(day=day, player=player, won=won,
                                                  bridges=bridges, par=par, seconds=seconds,
                                                  at=now))
        return True

    return write


class DailyApi:
    """The daily's requests on `store`; `identify` finds a request's player."""

    def __init__(self, store: Store, identify: Identify) -> None:
        self.store, self.identify = store, identify

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {"/api/daily/play": self.play, "/api/daily/result": self.result}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/daily")(self.today)
        app.get("/api/daily/{day}")(self.day)

    async def today(self, request: Request) -> Json:
        return await self._page(request.scope, daily.today())

    async def day(self, request: Request, day: str) -> Json:
        return await self._page(request.scope, _day(day))

    async def _page(self, scope: Scope, day: datetime.date) -> Json:
        """The day's deal and par, the start position, the leaderboard and, for a player
        with a session, their result, streak, share line and (once finished) the facts."""
        deal = await asyncio.to_thread(daily.deal_for, day)
        player = await self.identify(scope, create=False)
        answer = {"date": day.isoformat(), "game": daily.GAME.id, "deal": deal.deal,
                  "bridges": daily.LIMIT, "par": deal.par, "today": daily.today().isoformat(),
                  "first": daily.FIRST_DAY.isoformat(),
                  **position(deal.start())}
        answer.update(await self._read_for(day, deal.par, player))
        if answer["mine"] is not None:
            answer.update(await self._finished(day, answer["mine"]))
        return answer

    async def _read_for(self, day: datetime.date, par: int, player: Player | None) -> Json:
        def read(conn: Connection) -> Json:
            found: Json = {"board": board(conn, day.isoformat(), par), "mine": None,
                           "streak": None}
            if player is not None:
                found["mine"] = mine(conn, day.isoformat(), player.id)
                found["streak"] = streak(conn, player.id, daily.today())
            return found

        return dict(await self.store.fetch(read))

    @staticmethod
    async def _finished(day: datetime.date, result: Json) -> Json:
        """What a finished player sees: the share line and the solver's facts."""
        facts = await asyncio.to_thread(daily.facts_for, day)
        return {"share": daily.share_line(day, result["won"], result["bridges"],
                                          result["par"], result["seconds"]),
                "facts": {"winning_starts": facts.winning_starts, "starts": facts.starts,
                          "line": [str(move) for move in facts.line]}}

    async def play(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The position after the moves sent, each judged by the engine."""
        data = await body()
        state = await asyncio.to_thread(daily.played, _day(data.get("date")), data.get("moves"))
        return 200, position(state)

    async def result(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A finished game's moves and time: stored for the player (made a guest if they
        have no session) unless they have a result for that day; then the day's page."""
        data = await body()
        day = _day(data.get("date"))
        state = await asyncio.to_thread(daily.played, day, data.get("moves"))
        outcome = state.outcome
        if outcome is None:
            raise ConfigError("The game is not over yet: play it to its end first.")
        seconds = data.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ConfigError("Say the seconds the game took as a number.")
        player = await self.identify(scope, create=True)
        assert player is not None  # `create` always gives one
        par = (await asyncio.to_thread(daily.deal_for, day)).par
        await self.store.submit(store_result(
            day.isoformat(), player.id, bool(outcome.winners), state.bridges_used, par,
            min(max(float(seconds), 0.0), LONGEST), time.time()))
        return 200, await self._page(scope, day)
