"""Crossroads puzzles over HTTP (docs/web-protocol.md, "Puzzles"): `GET /api/puzzles/next`
(a puzzle near the player's puzzle rating that they have not tried), `GET
/api/puzzles/{id}` and `POST /api/puzzles/try` (a move judged by the exact solver; the
player's and the puzzle's ratings move as a duel). What they answer is
`practice/puzzles.py`'s; this module reads the requests and finds their player.

The player is the session's (a guest too: the page makes one first with `POST /api/me`).
"""

from __future__ import annotations

from fastapi import Request
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.practice.puzzles import Puzzles
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import App, ReadBody


class PuzzleApi:
    """The puzzles' routes on `puzzles`, for the player `player` finds."""

    def __init__(self, puzzles: Puzzles, player: PlayerLookup) -> None:
        self.puzzles, self.player = puzzles, player

    def add_routes(self, app: App) -> None:
        """The routes: the try as one of `router.App`'s bare POST paths, the rest FastAPI's."""
        app.paths["/api/puzzles/try"] = self.attempt
        app.get("/api/puzzles/next")(self.next)
        app.get("/api/puzzles/{ident}")(self.one)

    async def next(self, request: Request) -> Json:
        return await self.puzzles.next(await self.player(request.scope))

    async def one(self, ident: str, request: Request) -> Json:
        return await self.puzzles.one(ident, await self.player(request.scope))

    async def attempt(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A move judged by the solver; ratings moved for the session's player."""
        data = await body()
        ident, move = data.get("id"), data.get("move")
        if not isinstance(ident, str) or not isinstance(move, str):
            raise ConfigError(Text("A try names the puzzle and the move: {example}.",
                                   example='{"id": "12", "move": "BR"}'))
        verdict = await self.puzzles.judged(ident, move)
        player = await self.player(scope)
        if player is None:
            raise ConfigError(Text("Nobody to rate: become a guest first (POST /api/me)."))
        return 200, await self.puzzles.rate(ident, verdict, player)
