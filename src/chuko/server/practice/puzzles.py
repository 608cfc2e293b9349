"""Crossroads puzzles as the server serves them: the next puzzle for a player (near their
puzzle rating, one they have not tried, of a theme if they chose one), a puzzle with both
ratings, a try judged by the exact solver, which moves the player's and the puzzle's
ratings as a duel (`chuko.practice.puzzle_ratings`), and streaks: puzzles of rising
difficulty, unrated, until the first miss. `web/puzzles_api.py` answers the requests.

A player's rating lives in `puzzle_ratings`, a tried puzzle's in `puzzles` (an untried one
is at its calibrated rating), and each try in `puzzle_tries`: a puzzle rates a player once,
so a second try of it (a retry after a miss) is judged but changes no rating. A streak is
kept in `puzzle_streaks`, so the server, not the page, counts the run.
"""

from __future__ import annotations

import asyncio
import time
from random import Random

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.practice.puzzle_ratings import Belief, duel, next_puzzle, streak_puzzle
from chuko.practice.puzzle_themes import CHOICES, Theme
from chuko.practice.puzzles import by_id, catalogue, judge, task
from chuko.server.shared.players import Player
from chuko.server.store import puzzle_rows as rows
from chuko.server.store.database import Connection, Store
from chuko.server.store.puzzle_rows import Streak
from chuko.server.store.writes import Conflict, Write


def rating_json(belief: Belief) -> Json:
    return {"rating": belief.shown, "tries": belief.tries, "provisional": belief.provisional}


def streak_json(streak: Streak) -> Json:
    return {"solved": streak.solved, "best": streak.best, "over": streak.puzzle is None}


def themes() -> list[Json]:
    """The themes to choose from, with how many puzzles each holds."""
    puzzles = catalogue().values()
    return [{"id": theme.id, "name": theme.name,
             "count": sum(p.theme in theme.codes for p in puzzles)} for theme in CHOICES]


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

    async def next(self, player: Player | None, theme: Theme | None = None) -> Json:
        """A puzzle `player` has not tried (of `theme`, if chosen), near their rating (a
        newcomer's for nobody), with the player's rating."""

        def query(conn: Connection) -> tuple[Belief, dict[str, Belief], set[str]]:
            if player is None:
                return Belief(), all_beliefs(conn), set()
            return (rows.player_belief(conn, player.id), all_beliefs(conn),
                    rows.tried_by(conn, player.id))

        mine, beliefs, tried = await self.store.fetch(query)
        wanted = (lambda ident: True) if theme is None else (
            lambda ident: by_id(ident).theme in theme.codes)
        ident = next_puzzle(mine, beliefs, tried, self.rng, wanted)
        if ident is None:
            raise ConfigError(Text("You have tried every puzzle: there is none left to give "
                                   "you.") if theme is None else Text(
                "You have tried every puzzle of that theme: choose another."))
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
                "change": after.shown - before.shown, "puzzle_rating": its.shown,
                "rated": after.tries > before.tries}

    async def start_streak(self, player: Player) -> Json:
        """A new streak for `player` (ending any in play): its first, easiest puzzle."""
        beliefs, best = await self.store.fetch(lambda conn: (
            all_beliefs(conn), getattr(rows.streak_of(conn, player.id), "best", 0)))
        first = streak_puzzle(0, beliefs, (), self.rng)
        if first is None:
            raise ConfigError(Text("There are no puzzles to make a streak of."))
        streak = Streak(first, 0, best, (first,))
        await self.store.submit(rows.put_streak(player.id, streak, time.time()))
        return await self._streak_answer(streak, None)

    async def streak_try(self, move: str, player: Player) -> Json:
        """The move judged in the streak's puzzle: a solve gives the next, harder one; a
        miss ends the run (the best run kept)."""
        streak = await self.store.fetch(lambda conn: rows.streak_of(conn, player.id))
        if streak is None or streak.puzzle is None:
            raise ConfigError(Text("Start a streak first: no streak is in play."))
        verdict = await self.judged(streak.puzzle, move)
        beliefs = await self.store.fetch(all_beliefs)
        after = _after(streak, verdict["solved"], beliefs, self.rng)
        await self.store.submit(_kept_if_still(player.id, streak, after))
        return await self._streak_answer(after, verdict)

    async def _streak_answer(self, streak: Streak, verdict: Json | None) -> Json:
        shown = None if streak.puzzle is None else await asyncio.to_thread(
            task, by_id(streak.puzzle))
        return {"streak": streak_json(streak), "puzzle": shown, "verdict": verdict}


def _after(streak: Streak, solved: bool, beliefs: dict[str, Belief], rng: Random) -> Streak:
    """The streak after its puzzle was solved (the next, harder one given) or missed."""
    if not solved:
        return Streak(None, streak.solved, max(streak.best, streak.solved), streak.given)
    count = streak.solved + 1
    following = streak_puzzle(count, beliefs, streak.given, rng)
    given = streak.given if following is None else (*streak.given, following)
    return Streak(following, count, max(streak.best, count), given)


def _kept_if_still(player: str, before: Streak, after: Streak) -> Write:
    """The streak's new state, written only if its puzzle is still the one judged: a try
    sent twice counts once."""
    put = rows.put_streak(player, after, time.time())

    def write(conn: Connection) -> None:
        now = rows.streak_of(conn, player)
        if now is None or now.puzzle != before.puzzle or now.given != before.given:
            raise Conflict(Text("That puzzle of your streak was answered already."))
        put(conn)

    return write
