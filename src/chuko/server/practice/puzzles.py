"""Crossroads puzzles as the server serves them: the next puzzle for a player (near their
puzzle rating, one they have not tried), a puzzle with both ratings, and a try judged by
the exact solver, which moves the player's and the puzzle's ratings as a duel
(`chuko.practice.puzzle_ratings`); `web/puzzles_api.py` answers the requests.

A player's rating lives in `puzzle_ratings`, a tried puzzle's in `puzzles` (an untried one
is at its shipped rating), and each try in `puzzle_tries`: a puzzle rates a player once,
so a second try of it is judged but changes no rating.
"""

from __future__ import annotations

import asyncio
import time
from random import Random

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.practice.puzzle_ratings import Belief, duel, next_puzzle
from chuko.practice.puzzles import by_id, catalogue, judge, task
from chuko.server.shared.players import Player
from chuko.server.store import puzzle_rows as rows
from chuko.server.store.database import Connection, Store


def rating_json(belief: Belief) -> Json:
    return {"rating": belief.shown, "tries": belief.tries}


def shipped(ident: str) -> Belief:
    """A puzzle's first rating, as shipped."""
    return Belief.of_puzzle(by_id(ident).rating)


def all_beliefs(conn: Connection) -> dict[str, Belief]:
    """Every shipped puzzle's belief: its stored one once tried, else its shipped rating."""
    beliefs = {p.id: Belief.of_puzzle(p.rating) for p in catalogue().values()}
    for ident, belief in rows.tried_beliefs(conn).items():
        if ident in beliefs:
            beliefs[ident] = belief
    return beliefs


class Puzzles:
    """The puzzles and their ratings on `store`; `rng` picks among the nearest puzzles."""

    def __init__(self, store: Store, rng: Random | None = None) -> None:
        self.store, self.rng = store, rng or Random()

    async def next(self, player: Player | None) -> Json:
        """A puzzle `player` has not tried, near their rating (a newcomer's for nobody),
        with the player's rating."""

        def query(conn: Connection) -> tuple[Belief, dict[str, Belief], set[str]]:
            if player is None:
                return Belief(), all_beliefs(conn), set()
            return (rows.player_belief(conn, player.id), all_beliefs(conn),
                    rows.tried_by(conn, player.id))

        mine, beliefs, tried = await self.store.fetch(query)
        ident = next_puzzle(mine, beliefs, tried, self.rng)
        if ident is None:
            raise ConfigError(Text("You have tried every puzzle: there is none left to give you."))
        return await self._task(ident, mine)

    async def one(self, ident: str, player: Player | None) -> Json:
        """The puzzle `ident` with its rating and the player's."""
        by_id(ident)  # an unknown id is refused before anything is read
        mine = Belief() if player is None else await self.store.fetch(
            lambda conn: rows.player_belief(conn, player.id))
        return await self._task(ident, mine)

    async def _task(self, ident: str, mine: Belief) -> Json:
        shown = await asyncio.to_thread(task, by_id(ident))
        its = await self.store.fetch(lambda conn: rows.puzzle_belief(conn, ident,
                                                                    shipped(ident)))
        return {"puzzle": {**shown, "rating": its.shown}, "player": rating_json(mine)}

    @staticmethod
    async def judged(ident: str, move: str) -> Json:
        """The solver's verdict on `move` in the puzzle `ident`."""
        return await asyncio.to_thread(judge, by_id(ident), move)

    async def rate(self, ident: str, verdict: Json, player: Player) -> Json:
        """A judged try kept for `player`: both ratings moved (its first try only)."""
        before, after, its = await self.store.submit(rows.record_try(
            player.id, ident, verdict["solved"], time.time(), shipped(ident), duel))
        return {"verdict": verdict, "player": rating_json(after),
                "change": after.shown - before.shown, "puzzle_rating": its.shown}
