"""Crossroads puzzles over HTTP (docs/web-protocol.md, "Puzzles"): `GET /api/puzzles/next`
(a puzzle near the player's puzzle rating that they have not tried; `?theme=` one of
`GET /api/puzzles/themes`), `GET /api/puzzles/{id}`, `POST /api/puzzles/try` (a move
judged by the exact solver; the player's and the puzzle's ratings move as a duel, the first
try only), and a streak: `POST /api/puzzles/streak/start` and `POST
/api/puzzles/streak/try`. What they answer is `practice/puzzles.py`'s; this module reads
the requests and finds their player.

The player is the session's (a guest too: the page makes one first with `POST /api/me`).
"""

from __future__ import annotations

from fastapi import Request
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.practice.puzzle_themes import read_theme
from chuko.server.practice.puzzles import Puzzles, themes
from chuko.server.shared.players import Player
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import App, ReadBody


class PuzzleApi:
    """The puzzles' routes on `puzzles`, for the player `player` finds."""

    def __init__(self, puzzles: Puzzles, player: PlayerLookup) -> None:
        self.puzzles, self.player = puzzles, player

    def add_routes(self, app: App) -> None:
        """The routes: the try as one of `router.App`'s bare POST paths, the rest FastAPI's."""
        app.paths["/api/puzzles/try"] = self.attempt
        app.paths["/api/puzzles/streak/start"] = self.start_streak
        app.paths["/api/puzzles/streak/try"] = self.streak_try
        app.get("/api/puzzles/next")(self.next)
        app.get("/api/puzzles/themes")(self.themes)
        app.get("/api/puzzles/{ident}")(self.one)  # after the fixed paths it would shadow

    async def next(self, request: Request) -> Json:
        theme = read_theme(request.query_params.get("theme"))
        return await self.puzzles.next(await self.player(request.scope), theme)

    @staticmethod
    async def themes() -> Json:
        return {"themes": themes()}

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
        return 200, await self.puzzles.rate(ident, verdict, await self._someone(scope))

    async def start_streak(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A new streak for the session's player: its first puzzle."""
        await body()
        return 200, await self.puzzles.start_streak(await self._someone(scope))

    async def streak_try(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A move in the streak's puzzle: the verdict and the next puzzle, or the run's end."""
        move = (await body()).get("move")
        if not isinstance(move, str):
            raise ConfigError(Text('A streak\'s try names the move: {example}.',
                                   example='{"move": "BR"}'))
        return 200, await self.puzzles.streak_try(move, await self._someone(scope))

    async def _someone(self, scope: Scope) -> Player:
        player = await self.player(scope)
        if player is None:
            raise ConfigError(Text("Nobody to rate: become a guest first (POST /api/me)."))
        return player
