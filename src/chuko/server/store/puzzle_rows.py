"""The store's reads and writes of the puzzles' ratings (`schema.puzzle_ratings`: a
player's, `schema.puzzles`: a tried puzzle's, `schema.puzzle_tries`: each try) and of
their streaks (`schema.puzzle_streaks`). Reads are
functions of a connection for `Store.read`/`fetch`, writes are `Write`s for
`Store.submit`; how a try moves the ratings is `practice/puzzles.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from chuko.practice.puzzle_ratings import Belief
from chuko.server.store.schema import puzzle_ratings, puzzle_streaks, puzzle_tries, puzzles
from chuko.server.store.writes import Write

# How a try moves the ratings: (the player's, the puzzle's, solved) → both after it.
Duel = Callable[[Belief, Belief, bool], tuple[Belief, Belief]]


def player_belief(conn: Connection, player: str) -> Belief:
    """The player's puzzle rating (a newcomer's when they have none)."""
    row = conn.execute(select(puzzle_ratings).where(puzzle_ratings.c.player == player)).first()
    return Belief() if row is None else _belief(row)


def _belief(row: Any) -> Belief:
    return Belief(row.rating, row.deviation, row.volatility, row.tries)


def _values(belief: Belief) -> dict[str, Any]:
    return {"rating": belief.rating, "deviation": belief.deviation,
            "volatility": belief.volatility, "tries": belief.tries}


def puzzle_belief(conn: Connection, ident: str, shipped: Belief) -> Belief:
    """The puzzle's rating once tried, else `shipped` (its first)."""
    row = conn.execute(select(puzzles).where(puzzles.c.id == ident)).first()
    return shipped if row is None else _belief(row)


def tried_beliefs(conn: Connection) -> dict[str, Belief]:
    """The rating of every puzzle tried, by id."""
    return {row.id: _belief(row) for row in conn.execute(select(puzzles))}


def tried_by(conn: Connection, player: str) -> set[str]:
    """The ids of the puzzles the player has tried."""
    query = select(puzzle_tries.c.puzzle).where(puzzle_tries.c.player == player)
    return {row.puzzle for row in conn.execute(query)}


def _put(conn: Connection, table: Any, key: Any, values: dict[str, Any]) -> None:
    """Update the row at `key`, or insert it when there is none."""
    if not conn.execute(update(table).where(key).values(**values)).rowcount:
        conn.execute(insert(table).values(**values))


def record_try(player: str, ident: str, solved: bool, now: float, shipped: Belief,
               duel: Duel) -> Write:
    """The write of one try of the puzzle `ident` (first rated `shipped`): both ratings
    moved by `duel` (the first try of a puzzle only) and the try kept; returns the player's
    beliefs before and after, and the puzzle's after."""

    def write(conn: Connection) -> tuple[Belief, Belief, Belief]:
        mine, its = player_belief(conn, player), puzzle_belief(conn, ident, shipped)
        if ident in tried_by(conn, player):
            return mine, mine, its
        after, its_after = duel(mine, its, solved)
        _put(conn, puzzle_ratings, puzzle_ratings.c.player == player,
             {"player": player, "updated": now, **_values(after)})
        _put(conn, puzzles, puzzles.c.id == ident, {"id": ident, **_values(its_after)})
        conn.execute(insert(puzzle_tries).values(player=player, puzzle=ident, solved=solved,
                                                 at=now))
        return mine, after, its_after

    return write


@dataclass(frozen=True)
class Streak:
    """A player's run of puzzles: the one in play (None once it ended), those solved in a
    row, the best run, and the run's puzzles so far."""

    puzzle: str | None
    solved: int
    best: int
    given: tuple[str, ...]


def streak_of(conn: Connection, player: str) -> Streak | None:
    row = conn.execute(select(puzzle_streaks).where(puzzle_streaks.c.player == player)).first()
    if row is None:
        return None
    return Streak(row.puzzle, row.solved, row.best, tuple(filter(None, row.given.split(","))))


def put_streak(player: str, streak: Streak, now: float) -> Write:
    """The write that keeps `player`'s streak as it now stands."""

    def write(conn: Connection) -> None:
        _put(conn, puzzle_streaks, puzzle_streaks.c.player == player,
             {"player": player, "puzzle": streak.puzzle, "solved": streak.solved,
              "best": streak.best, "given": ",".join(streak.given), "started": now})

    return write
