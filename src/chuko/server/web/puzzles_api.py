"""Crossroads puzzles over HTTP (docs/web-protocol.md, "Puzzles"): `GET /api/puzzles/next`
(a puzzle near the player's puzzle rating that they have not tried), `GET
/api/puzzles/{id}` and `POST /api/puzzles/try` (a move judged by the exact solver; the
player's and the puzzle's ratings move as a duel, `practice/puzzle_ratings.py`).

The player is the session's (a guest too: the page makes one first with `POST /api/me`).
A player's rating lives in `puzzle_ratings`, a tried puzzle's in `puzzles` (an untried one
is at its shipped rating), and each try in `puzzle_tries`: a puzzle rates a player once,
so a second try of it is judged but changes no rating.
"""

from __future__ import annotations

import asyncio
import time
from random import Random
from typing import Any

from fastapi import Request
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.practice.puzzle_ratings import Belief, duel, next_puzzle
from chuko.practice.puzzles import by_id, catalogue, judge, task
from chuko.server.shared.players import Player
from chuko.server.store.database import Store
from chuko.server.store.schema import puzzle_ratings, puzzle_tries, puzzles
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import App, ReadBody


def rating_json(belief: Belief) -> Json:
    return {"rating": belief.shown, "tries": belief.tries}


def player_belief(conn: Connection, player: str) -> Belief:
    row = conn.execute(select(puzzle_ratings).where(puzzle_ratings.c.player == player)).first()
    return Belief() if row is None else Belief(row.mu, row.sigma, row.tries)


def puzzle_belief(conn: Connection, ident: str) -> Belief:
    row = conn.execute(select(puzzles).where(puzzles.c.id == ident)).first()
    if row is None:
        return Belief.of_puzzle(by_id(ident).rating)
    return Belief(row.mu, row.sigma, row.tries)


def all_beliefs(conn: Connection) -> dict[str, Belief]:
    """Every shipped puzzle's belief: its stored one once tried, else its shipped rating."""
    beliefs = {p.id: Belief.of_puzzle(p.rating) for p in catalogue().values()}
    for row in conn.execute(select(puzzles)):
        if row.id in beliefs:
            beliefs[row.id] = Belief(row.mu, row.sigma, row.tries)
    return beliefs


def tried_by(conn: Connection, player: str) -> set[str]:
    query = select(puzzle_tries.c.puzzle).where(puzzle_tries.c.player == player)
    return {row.puzzle for row in conn.execute(query)}


def _put(conn: Connection, table: Any, key: Any, values: dict[str, Any]) -> None:
    """Update the row at `key`, or insert it when there is none."""
    if not conn.execute(update(table).where(key).values(**values)).rowcount:
        conn.execute(insert(table).values(**values))


def record_try(player: str, ident: str, solved: bool, now: float) -> Any:
    """The write of one try: both ratings moved (the first try of a puzzle only) and the
    try kept; returns the player's beliefs before and after."""

    def write(conn: Connection) -> tuple[Belief, Belief, Belief]:
        mine, its = player_belief(conn, player), puzzle_belief(conn, ident)
        if ident in tried_by(conn, player):
            return mine, mine, its
        after, its_after = duel(mine, its, solved)
        _put(conn, puzzle_ratings, puzzle_ratings.c.player == player,
             {"player": player, "mu": after.mu, "sigma": after.sigma, "tries": after.tries,
              "updated": now})
        _put(conn, puzzles, puzzles.c.id == ident,
             {"id": ident, "mu": its_after.mu, "sigma": its_after.sigma,
              "tries": its_after.tries})
        conn.execute(insert(puzzle_tries).values(player=player, puzzle=ident, solved=solved,
                                                 at=now))
        return mine, after, its_after

    return write


class PuzzleApi:
    """The puzzles' routes on `store`, for the player `player` finds."""

    def __init__(self, store: Store, player: PlayerLookup, rng: Random | None = None) -> None:
        self.store, self.player, self.rng = store, player, rng or Random()

    def add_routes(self, app: App) -> None:
        """The routes: the try as one of `router.App`'s bare POST paths, the rest FastAPI's."""
        app.paths["/api/puzzles/try"] = self.attempt
        app.get("/api/puzzles/next")(self.next)
        app.get("/api/puzzles/{ident}")(self.one)

    async def _read(self, query: Any) -> Any:
        return await self.store.fetch(query)

    async def next(self, request: Request) -> Json:
        """A puzzle the player has not tried, near their rating (a newcomer's without a
        session), with the player's rating."""
        player = await self.player(request.scope)

        def query(conn: Connection) -> tuple[Belief, dict[str, Belief], set[str]]:
            if player is None:
                return Belief(), all_beliefs(conn), set()
            return player_belief(conn, player.id), all_beliefs(conn), tried_by(conn, player.id)

        mine, beliefs, tried = await self._read(query)
        ident = next_puzzle(mine, beliefs, tried, self.rng)
        if ident is None:
            raise ConfigError("You have tried every puzzle: there is none left to give you.")
        return await self._task(ident, mine)

    async def one(self, ident: str, request: Request) -> Json:
        player = await self.player(request.scope)
        by_id(ident)  # an unknown id is refused before anything is read
        mine = Belief() if player is None else await self._read(
            lambda conn: player_belief(conn, player.id))
        return await self._task(ident, mine)

    async def _task(self, ident: str, mine: Belief) -> Json:
        shown = await asyncio.to_thread(task, by_id(ident))
        its = await self._read(lambda conn: puzzle_belief(conn, ident))
        return {"puzzle": {**shown, "rating": its.shown}, "player": rating_json(mine)}

    async def attempt(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A move judged by the solver; ratings moved for the session's player."""
        data = await body()
        ident, move = data.get("id"), data.get("move")
        if not isinstance(ident, str) or not isinstance(move, str):
            raise ConfigError('A try names the puzzle and the move: {"id": "12", "move": "BR"}.')
        verdict = await asyncio.to_thread(judge, by_id(ident), move)
        player: Player | None = await self.player(scope)
        if player is None:
            raise ConfigError("Nobody to rate: become a guest first (POST /api/me).")
        before, after, its = await self.store.submit(
            record_try(player.id, ident, verdict["solved"], time.time()))
        return 200, {"verdict": verdict, "player": rating_json(after),
                     "change": after.shown - before.shown, "puzzle_rating": its.shown}
