"""The daily Caravan as the server serves it: the day's deal, its moves judged by the engine,
a finished game's result stored for its player, the day's leaderboard, the player's streak
and, once they have finished, the solver's facts (`web/daily_api.py` answers the requests).

The deal is the date's (`chuko.practice.daily`), the same as `chuko daily` plays. The server keeps
no game in progress: the page sends the moves so far and gets the position back, so an undo
is the same list less its last move. A finished game is stored once (the first result of a
day counts). Its time is the server's: from when the day's deal was first served to the
player (`daily_starts`: the day's page asked for by a player, or the first move played) to
the result; a number the page sends is never taken for it.
"""

from __future__ import annotations

import asyncio
import datetime
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.practice import daily
from chuko.server.shared.limits import Clock
from chuko.server.shared.players import Player
from chuko.server.store import daily_rows as rows
from chuko.server.store.database import Connection, Store

BOARD = 20  # the leaderboard's rows: the winners, at par first, then the fastest
STREAK_DAYS = 400  # won days read back for a streak
UNSTARTED = Text("The server has not dealt you this day's Caravan yet: play it from its page, "
                 "where your time starts.")


def requested_day(text: Any, today: datetime.date) -> datetime.date:
    """A day whose deal is out by `today`, from a request (None: today); ConfigError in one
    sentence otherwise."""
    if text is None:
        return today
    if not isinstance(text, str):
        raise ConfigError(Text("Say the day as text written YYYY-MM-DD."))
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


def shown_result(result: rows.Result | None) -> Json | None:
    if result is None:
        return None
    return {"won": result.won, "bridges": result.bridges, "par": result.par,
            "seconds": shown_seconds(result.seconds)}


def streak(won: list[tuple[str, float]], today: datetime.date) -> Json:
    """Days in a row the player won the daily on its day (`won`: their won days, newest
    first, each with when its result was stored; a result stored on a later day, an archive
    day's, counts for neither): the run that ends today or yesterday (`current`) and the
    longest (`best`)."""
    days = [day for text, at in won
            if (day := datetime.date.fromisoformat(text)) == daily.day_of(at)]
    best, run, current = 0, 0, 0
    for index, day in enumerate(days):
        run = run + 1 if index and (days[index - 1] - day).days == 1 else 1
        best = max(best, run)
        if index + 1 == run and (today - days[0]).days <= 1:
            current = run
    return {"current": current, "best": best}


def streak_of(player: str, today: datetime.date) -> Callable[[Connection], Json]:
    """The read of the player's streak (`streak`) as of `today`."""
    return lambda conn: streak(rows.won_days(conn, player, STREAK_DAYS), today)


class Daily:
    """The daily on `store`; `clock` (seconds since the epoch) times the games and says
    which day it is."""

    def __init__(self, store: Store, clock: Clock = time.time) -> None:
        self.store, self.clock = store, clock

    def today(self) -> datetime.date:
        return daily.day_of(self.clock())

    def day(self, text: Any) -> datetime.date:
        """The day a request names (`requested_day`), as of today."""
        return requested_day(text, self.today())

    async def page(self, day: datetime.date, player: Player | None) -> Json:
        """The day's deal and par, the start position, the leaderboard and, for a player,
        their result, streak, share line and (once finished) the facts, or the seconds their
        game has taken so far (`elapsed`; serving it starts the time)."""
        deal = await asyncio.to_thread(daily.deal_for, day)
        today = self.today()
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
            found: Json = {"board": [{"name": row.name, "bridges": row.bridges,
                                      "seconds": shown_seconds(row.seconds)}
                                     for row in rows.winners(conn, day.isoformat(), BOARD)],
                           "mine": None, "streak": None, "started": None}
            if player is not None:
                found["mine"] = shown_result(rows.result_of(conn, day.isoformat(), player.id))
                found["streak"] = streak_of(player.id, today)(conn)
                found["started"] = rows.started(conn, day.isoformat(), player.id)
            return found

        return dict(await self.store.fetch(read))

    async def elapsed(self, day: datetime.date, player: Player) -> float:
        """The seconds the player's game of `day` has taken so far (a move played starts
        the time at the latest)."""
        start = await self.store.fetch(lambda conn: rows.started(
            conn, day.isoformat(), player.id))
        return await self._elapsed(day, player, start)

    async def _elapsed(self, day: datetime.date, player: Player,
                       start: float | None) -> float:
        """The seconds since the day's deal was first served to the player (`start`, as
        read), the start stored now where there is none."""
        now = self.clock()
        if start is None:
            start = await self.store.submit(rows.start_once(day.isoformat(), player.id, now))
        return max(0.0, now - start)

    @staticmethod
    async def _finished(day: datetime.date, result: Json) -> Json:
        """What a finished player sees: the share line and the solver's facts."""
        facts = await asyncio.to_thread(daily.facts_for, day)
        return {"share": daily.share_line(day, result["won"], result["bridges"],
                                          result["par"], result["seconds"]),
                "facts": {"winning_starts": facts.winning_starts, "starts": facts.starts,
                          "line": [str(move) for move in facts.line]}}

    @staticmethod
    async def played(day: datetime.date, moves: Any) -> Any:
        """The day's game after `moves` (as a page sends them), each judged by the engine."""
        return await asyncio.to_thread(daily.played, day, moves)

    async def finish(self, day: datetime.date, moves: Any,
                     player_of: Callable[[], Awaitable[Player | None]]) -> Json:
        """A finished game's moves: stored for its player (`player_of`, asked once the game
        is found over), timed by the server, unless they have a result for that day; then
        the day's page. ConfigError for a game not over, or one whose deal was never served
        to the player."""
        state = await self.played(day, moves)
        outcome = state.outcome
        if outcome is None:
            raise ConfigError(Text("The game is not over yet: play it to its end first."))
        player = await player_of()
        if player is None:
            raise ConfigError(UNSTARTED)
        par = (await asyncio.to_thread(daily.deal_for, day)).par
        stored = await self.store.submit(rows.store_result(
            day.isoformat(), player.id, bool(outcome.winners), state.bridges_used, par,
            self.clock()))
        if stored is None:
            raise ConfigError(UNSTARTED)
        return await self.page(day, player)
