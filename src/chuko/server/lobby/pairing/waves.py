"""Quick pairing's waves: who plays whom, from the players waiting in one pool.

Pure: the lobby gives the pool as it stands and the time, and gets back the pairs
(heads-up) or the tables (3+ players) to start. Nothing here keeps state.

A player accepts a rating gap that widens the longer they wait (`window`); two players may
meet only when the gap between them is within both their windows. A heads-up wave pairs as
many players as the windows allow and, among such pairings, the one of smallest total gap:
exactly, except where a part of the pool is both large and hard (4 below), which the wave
says (`Wave.exact`). Ratings are on the pool's scale; the window's defaults assume a display
scale centred on 1500 (e.g. 60 × an openskill mu, so a new player's 25 shows as 1500).

How a heads-up wave is found, on the players sorted by rating (`t`, windows `w`), in
`line.py` unless named:

1. A player no one may meet is left out, and the line is cut wherever no acceptable pair
   can span (no player left of the cut reaches past it, or none right of it reaches back):
   the parts are independent.
2. In each part, `neighbour_pairs` finds the best pairing whose pairs enclose no matched
   player (a linear DP). It is the answer when it pairs all but at most one player and its
   total gap equals `parity_bound`: any matching of that size, on any set S of players,
   spans each gap between sorted neighbours at least (number of S left of it) mod 2 times,
   and a matching's total gap is the sum of the gaps times how many pairs span them. On
   pools of the bench's kind (`bench/bench_lobby.py`) it proves most pools whole
   (docs/performance.md, "The lobby").
3. A part it does not prove, of at most `BLOSSOM_MOST` players, is solved exactly by
   Edmonds' blossom algorithm (`blossom.py`, networkx): cubic in the part's size,
   which sets `BLOSSOM_MOST`: the time a part of 100 takes (docs/performance.md) is what the
   wave (run off the event loop, every 1.5 s) affords, so that a pool of up to 100 players
   is always paired exactly.
4. A larger part goes to an exact sweep (`sweep.py`). It is fast on most such parts
   (a 10,000-player part the proof missed) but unbounded on some of the bench's pools of
   100 players (docs/performance.md gives both times). So it stops after `SWEEP_BUDGET`
   units of work plus `SWEEP_PER_PLAYER` for each player of the part (a fraction of a
   second on those, which blossom now takes). The part is then
   cut into runs of at most `BLOSSOM_MOST` players, each paired best (its neighbour pairing
   where the parity bound proves it, else blossom): the best within each run, not
   necessarily across the cuts.
   The wave counts the part in `Wave.fallen_back` and is not exact; the lobby logs it. None
   of the bench's pools falls back; forced to (a part over 100 players that
   the sweep gives up on), a wave can make one pair fewer than the best.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

from chuko.server.lobby.pairing.blossom import blossom, chunked
from chuko.server.lobby.pairing.line import Pairs, certified, has_partner, parts
from chuko.server.lobby.pairing.sweep import exact

WINDOW_START = 50.0  # rating points a player accepts as soon as they join
WINDOW_GROWTH = 10.0  # more points for each second of waiting
WINDOW_CAP = 500.0  # the widest gap anyone accepts, however long they wait
BLOSSOM_MOST = 100  # the largest part blossom is given (cubic: docs/performance.md)
# The sweep's work on a part before it falls back: this much, and so much more per player
# (an easy stretch costs it a few units a player; a hard part of 100 runs out in a fraction
# of a second, docs/performance.md).
SWEEP_BUDGET = 20_000
SWEEP_PER_PLAYER = 10


class Waiting(NamedTuple):
    """One player in a pool: their id, rating, when they joined (the caller's clock, in
    seconds) and after how many seconds of waiting they accept bots completing a table
    (None: never). A named tuple: a wave makes one per player waiting, ten thousand at a
    time, and a frozen dataclass takes several times longer to make."""

    player: str
    rating: float
    since: float
    bots_after: float | None = None


@dataclass(frozen=True)
class Wave:
    """A heads-up wave: the pairs of player ids to seat; whether it is the best pairing
    (most pairs, then least total gap); how many parts fell back to runs paired apart
    (the module's docstring, 4)."""

    pairs: list[tuple[str, str]]
    exact: bool
    fallen_back: int


def window(waited: float, *, start: float = WINDOW_START, growth: float = WINDOW_GROWTH,
           cap: float = WINDOW_CAP) -> float:
    """The rating gap a player accepts after waiting `waited` seconds: `start`, widened by
    `growth` a second, never over `cap` (a negative wait, a clock gone back, counts as 0)."""
    return min(cap, start + growth * max(0.0, waited))


def pair_heads_up(pool: Sequence[Waiting], now: float) -> list[tuple[str, str]]:
    """One heads-up wave's pairs of player ids (`pair_wave`, whether exact or not)."""
    return pair_wave(pool, now).pairs


def pair_wave(pool: Sequence[Waiting], now: float, *, blossom_most: int = BLOSSOM_MOST,
              sweep_budget: int = SWEEP_BUDGET, sweep_per_player: int = SWEEP_PER_PLAYER) -> Wave:
    """One heads-up wave: the pairs of player ids to seat, each player at most once.

    Two players may meet iff their rating gap is within both their windows at `now`. Of all
    pairings allowed, the wave takes one with the most pairs and, among those, the smallest
    total rating gap, unless a part fell back (`Wave.exact`). Players left out stay in the
    pool for the next wave. Raises ValueError when a player id is in the pool twice (the
    caller keeps one entry per player)."""
    line = _sorted_line(pool)
    t = [p.rating for p in line]
    # `window` inlined: a call for each of ten thousand players is a tenth of the wave.
    w = [min(WINDOW_CAP, WINDOW_START + WINDOW_GROWTH * max(0.0, now - p.since)) for p in line]
    met = [i for i in range(len(line)) if has_partner(t, w, i)]
    pairs: list[tuple[str, str]] = []
    fallen_back = 0
    for part in parts([t[i] for i in met], [w[i] for i in met]):
        pt, pw = [t[met[i]] for i in part], [w[met[i]] for i in part]
        found = _solved(pt, pw, blossom_most, sweep_budget + sweep_per_player * len(pt))
        if found is None:
            fallen_back += 1
            found = chunked(pt, pw, blossom_most)
        pairs += [(line[met[part[a]]].player, line[met[part[b]]].player) for a, b in found]
    return Wave(pairs, fallen_back == 0, fallen_back)


def _solved(t: list[float], w: list[float], blossom_most: int, budget: int) -> Pairs | None:
    """A part's best pairing, by the cheapest way that is sure of it (the module's
    docstring, 2-4); None when the sweep ran out of budget."""
    proved = certified(t, w)
    if proved is not None:
        return proved
    if len(t) <= blossom_most:
        return blossom(t, w)
    return exact(t, w, budget)


def fill_tables(pool: Sequence[Waiting], now: float, players: int) -> list[tuple[list[str], int]]:
    """One wave of a pool of `players`-seat tables: each table as (the player ids to seat,
    the number of bots to complete it).

    Tables are filled by rating proximity: `players` neighbours in rating order make a table
    when every one's window admits the table's spread (highest minus lowest rating); a
    player who fits no such table is left over. Left-over players who have waited past their
    `bots_after` are then grouped the same way (neighbours among them, windows admitting the
    spread, at most `players`) and each group is completed with bots: no human is ever at a
    table with bots before their own `bots_after`. Raises ValueError on a player twice in
    the pool or fewer than 2 seats."""
    if players < 2:
        raise ValueError("a table has at least 2 seats")
    line = _sorted_line(pool)
    tables: list[tuple[list[str], int]] = []
    left: list[Waiting] = []
    i = 0
    while i < len(line):
        group = line[i:i + players]
        if len(group) == players and _admits(group, now):
            tables.append(([p.player for p in group], 0))
            i += players
        else:
            left.append(line[i])
            i += 1
    ready = [p for p in left if p.bots_after is not None and now - p.since >= p.bots_after]
    group = []
    for p in ready + [None]:
        if group and (p is None or len(group) == players or not _admits(group + [p], now)):
            tables.append(([q.player for q in group], players - len(group)))
            group = []
        if p is not None:
            group.append(p)
    return tables


def _admits(group: Sequence[Waiting], now: float) -> bool:
    """Whether every player of `group` accepts its spread of ratings."""
    spread = max(p.rating for p in group) - min(p.rating for p in group)
    return all(spread <= window(now - p.since) for p in group)


_RATING_THEN_ID = itemgetter(1, 0)  # of a Waiting: (rating, player), without a Python call


def _sorted_line(pool: Sequence[Waiting]) -> list[Waiting]:
    """The pool in rating order (ties by id, so a wave does not depend on the pool's order);
    ValueError when an id is there twice."""
    if len({p.player for p in pool}) != len(pool):
        raise ValueError("a player is in the pool twice")
    return sorted(pool, key=_RATING_THEN_ID)


