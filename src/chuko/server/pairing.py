"""Quick pairing's waves: who plays whom, from the players waiting in one pool.

Pure and stdlib only: the lobby gives the pool as it stands and the time, and gets back
the pairs (heads-up) or the tables (3+ players) to start. Nothing here keeps state.

A player accepts a rating gap that widens the longer they wait (`window`); two players may
meet only when the gap between them is within both their windows. A heads-up wave pairs as
many players as the windows allow and, among such pairings, the one of smallest total gap,
exactly. Ratings are on the pool's scale; the window's defaults assume a display scale
centred on 1500 (e.g. 60 × an openskill mu, so a new player's 25 shows as 1500).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW_START = 50.0  # rating points a player accepts as soon as they join
WINDOW_GROWTH = 10.0  # more points for each second of waiting
WINDOW_CAP = 500.0  # the widest gap anyone accepts, however long they wait


@dataclass(frozen=True)
class Waiting:
    """One player in a pool: their id, rating, when they joined (the caller's clock, in
    seconds) and after how many seconds of waiting they accept bots completing a table
    (None: never)."""

    player: str
    rating: float
    since: float
    bots_after: float | None = None


def window(waited: float, *, start: float = WINDOW_START, growth: float = WINDOW_GROWTH,
           cap: float = WINDOW_CAP) -> float:
    """The rating gap a player accepts after waiting `waited` seconds: `start`, widened by
    `growth` a second, never over `cap` (a negative wait, a clock gone back, counts as 0)."""
    raise NotImplementedError


def pair_heads_up(pool: Sequence[Waiting], now: float) -> list[tuple[str, str]]:
    """One heads-up wave: the pairs of player ids to seat, each player at most once.

    Two players may meet iff their rating gap is within both their windows at `now`. Of all
    pairings allowed, the wave takes one with the most pairs and, among those, the smallest
    total rating gap. Players left out stay in the pool for the next wave. Raises ValueError
    when a player id is in the pool twice (the caller keeps one entry per player)."""
    raise NotImplementedError


def fill_tables(pool: Sequence[Waiting], now: float, players: int) -> list[tuple[list[str], int]]:
    """One wave of a pool of `players`-seat tables: each table as (the player ids to seat,
    the number of bots to complete it).

    Tables are filled by rating proximity (neighbours in rating order) and each player's
    window must admit the spread of their table's ratings. A table short of players is
    completed with bots only when every human at it has waited past their `bots_after`.
    Raises ValueError on a player twice in the pool or fewer than 2 seats."""
    raise NotImplementedError
