"""The daily Caravan over HTTP (docs/web-protocol.md): `GET /api/daily[/{day}]`, the day's
page, and `POST /api/daily/play` and `/api/daily/result`, answered as bare ASGI by the
router. What they answer is `practice/daily.py`'s; this module finds the request's player
(a visitor who plays a move is made a guest for it, so their time can start)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from starlette.types import Scope

from chuko.core.protocol import Json
from chuko.server.practice.daily import Daily, position
from chuko.server.web.identify import Identify
from chuko.server.web.router import Post, ReadBody


class DailyApi:
    """The daily's requests on `daily`; `identify` finds a request's player."""

    def __init__(self, daily: Daily, identify: Identify) -> None:
        self.daily, self.identify = daily, identify

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {"/api/daily/play": self.play, "/api/daily/result": self.result}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/daily")(self.today)
        app.get("/api/daily/{day}")(self.day)

    async def today(self, request: Request) -> Json:
        return await self._page(request.scope, None)

    async def day(self, request: Request, day: str) -> Json:
        return await self._page(request.scope, day)

    async def _page(self, scope: Scope, day: str | None) -> Json:
        found = self.daily.day(day)
        return await self.daily.page(found, await self.identify(scope, create=False))

    async def play(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The position after the moves sent, each judged by the engine. A move played times
        the player from then at the latest (a visitor is made a guest for it), and the
        answer says how long their game has taken so far (`elapsed`)."""
        data = await body()
        day = self.daily.day(data.get("date"))
        state = await self.daily.played(day, data.get("moves"))
        answer = position(state)
        if state.moves:
            player = await self.identify(scope, create=True)
            assert player is not None  # `create` always gives one
            answer["elapsed"] = await self.daily.elapsed(day, player)
        return 200, answer

    async def result(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A finished game's moves, stored for the session's player; then the day's page. A
        `seconds` the page sends is not read."""
        data = await body()
        day = self.daily.day(data.get("date"))
        return 200, await self.daily.finish(day, data.get("moves"),
                                            lambda: self.identify(scope, create=False))
