"""Lessons over HTTP (docs/web-protocol.md): `GET /api/lessons`, `GET /api/lessons/{game}`
and `POST /api/lessons/{game}/{step}`. What they answer is `practice/lessons.py`'s; this
module reads the requests and finds their player (one who tries a step is made a guest).
"""

from __future__ import annotations

from fastapi import FastAPI, Request

from chuko.core.errors import ParseError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.practice.lessons import Lessons, step_of, steps_of
from chuko.server.shared.limits import MAX_BODY
from chuko.server.shared.players import Player
from chuko.server.store.database import Unavailable
from chuko.server.web.identify import Identify
from chuko.server.web.router import parse_object


class LessonApi:
    """The lesson routes on `lessons`; `identify` finds a request's player."""

    def __init__(self, lessons: Lessons, identify: Identify) -> None:
        self.lessons, self.identify = lessons, identify

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/lessons")(self.index)
        app.get("/api/lessons/{game_id}")(self.course)
        app.post("/api/lessons/{game_id}/{number}")(self.attempt)

    async def _progress(self, request: Request) -> dict[str, int]:
        """Steps done per game by the request's player; none for no player (or no database)."""
        try:
            player = await self.identify(request.scope, create=False)
            return await self.lessons.progress(player)
        except Unavailable:
            return {}

    async def index(self, request: Request) -> Json:
        return self.lessons.index(await self._progress(request))

    async def course(self, game_id: str, request: Request) -> Json:
        steps_of(game_id)  # an unknown game is refused before anything is read
        done = (await self._progress(request)).get(game_id, 0)
        return self.lessons.course(game_id, done)

    async def attempt(self, game_id: str, number: int, request: Request) -> Json:
        """The engine's judgement of `{"move": text}` at step `number`."""
        found = step_of(game_id, number)  # refused before the body is read
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ParseError(Text("The request body is too long."))
        move = parse_object(raw or b"{}").get("move")

        async def player() -> Player:  # made a guest if nobody yet
            made = await self.identify(request.scope, create=True)
            assert made is not None  # `create` always gives one
            return made

        return await self.lessons.attempt(found, move, player)
