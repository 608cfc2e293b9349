"""An arena's waves and a round's tables: who meets whom among the players waiting for
their next game, heads-up (`pair_wave`) or at tables of three or more (`seat_tables`).

Players near in the standings meet: they are ordered by points, then rating (both highest
first), then id, and neighbours in that order play. Heads-up, no one meets the opponent of
their last game again at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ArenaWaiting:
    """A player waiting for their next arena game: their points, rating, last opponent
    (None before their first game) and since when they wait (seconds, any clock)."""

    id: str
    points: int
    rating: float
    last_opponent: str | None
    since: float


@dataclass(frozen=True)
class TablePlayer:
    """A player to seat at a table: their points so far and rating."""

    id: str
    points: float
    rating: float


def pair_wave(waiting: Sequence[ArenaWaiting]) -> list[tuple[str, str]]:
    """The heads-up games of an arena's wave, the higher in order first in each pair.

    Each player in order meets the first earlier player still unpaired whom they did not
    just play: so neighbours meet, and a player whose neighbour was their last opponent
    meets the next one instead. With an odd count the newest arrival (latest `since`, then
    id) sits out unless a player left over takes them; whoever is left over waits for the
    next wave, as do two players alone who just played each other.
    """
    _check([(w.id, w.rating, w.since) for w in waiting])
    ordered = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.id))
    newest = max(waiting, key=lambda w: (w.since, w.id)) if len(waiting) % 2 else None
    pairs: list[tuple[ArenaWaiting, ArenaWaiting]] = []
    pending: list[ArenaWaiting] = []  # the unpaired so far, in order
    for player in ordered:
        if player is newest:
            continue
        partner = next((k for k, other in enumerate(pending) if _may_meet(other, player)), None)
        if partner is None:
            pending.append(player)
        else:
            pairs.append((pending.pop(partner), player))
    if newest is not None:
        partner = next((k for k, other in enumerate(pending) if _may_meet(other, newest)), None)
        if partner is not None:
            other = pending[partner]
            first = min(other, newest, key=ordered.index)
            pairs.append((first, newest if first is other else other))
    return [(a.id, b.id) for a, b in pairs]


def seat_tables(players: Sequence[TablePlayer], size: int, bots: bool) -> list[list[str | None]]:
    """Tables of `size` seats, filled in order (the best players together at the first
    table). What is left when the count is not a multiple of `size`: with `bots`, empty
    seats (None) for bots, spread one a table from the last table up so that no table has
    more bots than it must; without, the last players in order wait for the next wave."""
    if size < 2:
        raise ValueError(f"A table seats two players or more, not {size}.")
    _check([(p.id, p.rating, p.points) for p in players])
    ids: list[str | None] = [p.id for p in sorted(players, key=lambda p: (-p.points,
                                                                         -p.rating, p.id))]
    if not bots:
        whole = len(ids) - len(ids) % size
        return [ids[k:k + size] for k in range(0, whole, size)]
    tables = math.ceil(len(ids) / size)
    empty = tables * size - len(ids)
    seated: list[list[str | None]] = []
    start = 0
    for t in range(tables):
        bots_here = empty // tables + (1 if t >= tables - empty % tables else 0)
        seated.append(ids[start:start + size - bots_here] + [None] * bots_here)
        start += size - bots_here
    return seated


def _may_meet(a: ArenaWaiting, b: ArenaWaiting) -> bool:
    """Whether `a` and `b` did not just play each other."""
    return a.last_opponent != b.id and b.last_opponent != a.id


def _check(players: list[tuple[str, float, float]]) -> None:
    """A sentence for players listed twice or a number that is not one."""
    if len({p for p, _, _ in players}) != len(players):
        raise ValueError("Each player may wait once.")
    for player, *numbers in players:
        if not all(math.isfinite(x) for x in numbers):
            raise ValueError(f"{player}'s rating, points and time must be numbers.")
