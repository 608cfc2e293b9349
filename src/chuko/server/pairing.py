"""Quick pairing's waves: who plays whom, from the players waiting in one pool.

Pure and stdlib only: the lobby gives the pool as it stands and the time, and gets back
the pairs (heads-up) or the tables (3+ players) to start. Nothing here keeps state.

A player accepts a rating gap that widens the longer they wait (`window`); two players may
meet only when the gap between them is within both their windows. A heads-up wave pairs as
many players as the windows allow and, among such pairings, the one of smallest total gap,
exactly. Ratings are on the pool's scale; the window's defaults assume a display scale
centred on 1500 (e.g. 60 × an openskill mu, so a new player's 25 shows as 1500).

How a heads-up wave is found, on the players sorted by rating (`t`, windows `w`):

1. A player no one may meet is left out, and the line is cut wherever no acceptable pair
   can span (no player left of the cut reaches past it, or none right of it reaches back):
   the parts are independent.
2. In each part, `_neighbour_pairs` finds the best pairing whose pairs enclose no matched
   player (a linear DP). It is the answer when it pairs all but at most one player and its
   total gap equals `_parity_bound`: any matching of that size, on any set S of players,
   spans each gap between sorted neighbours at least (number of S left of it) mod 2 times,
   and a matching's total gap is the sum of the gaps times how many pairs span them.
3. Otherwise `_exact` solves the part by a sweep whose state is the set of players waiting
   for a partner to their right (see its docstring), pruned by dominance and by bounds from
   the neighbour pairing of the players to come. It is exact on any input, but its time is
   not bounded: where the neighbour pairing falls short at both ends of a part, many wide
   windows over a sparse stretch of ratings still multiply its states (a few pools in a
   hundred of 100 players of the bench's kind take over 30 s).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW_START = 50.0  # rating points a player accepts as soon as they join
WINDOW_GROWTH = 10.0  # more points for each second of waiting
WINDOW_CAP = 500.0  # the widest gap anyone accepts, however long they wait

Pairs = list[tuple[int, int]]  # positions in the sorted line


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
    return min(cap, start + growth * max(0.0, waited))


def pair_heads_up(pool: Sequence[Waiting], now: float) -> list[tuple[str, str]]:
    """One heads-up wave: the pairs of player ids to seat, each player at most once.

    Two players may meet iff their rating gap is within both their windows at `now`. Of all
    pairings allowed, the wave takes one with the most pairs and, among those, the smallest
    total rating gap. Players left out stay in the pool for the next wave. Raises ValueError
    when a player id is in the pool twice (the caller keeps one entry per player)."""
    line = _sorted_line(pool)
    t = [p.rating for p in line]
    w = [window(now - p.since) for p in line]
    met = [i for i in range(len(line)) if _has_partner(t, w, i)]
    pairs: list[tuple[str, str]] = []
    for part in _parts([t[i] for i in met], [w[i] for i in met]):
        pt, pw = [t[met[i]] for i in part], [w[met[i]] for i in part]
        found = _certified(pt, pw)
        for a, b in found if found is not None else _exact(pt, pw):
            pairs.append((line[met[part[a]]].player, line[met[part[b]]].player))
    return pairs


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


def _sorted_line(pool: Sequence[Waiting]) -> list[Waiting]:
    """The pool in rating order (ties by id, so a wave does not depend on the pool's order);
    ValueError when an id is there twice."""
    if len({p.player for p in pool}) != len(pool):
        raise ValueError("a player is in the pool twice")
    return sorted(pool, key=lambda p: (p.rating, p.player))


def _has_partner(t: list[float], w: list[float], i: int) -> bool:
    """Whether anyone may meet player `i` (only those within i's window are looked at)."""
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(t) and abs(t[j] - t[i]) <= w[i]:
            if abs(t[j] - t[i]) <= w[j]:
                return True
            j += step
    return False


def _parts(t: list[float], w: list[float]) -> list[list[int]]:
    """The positions of the line in runs no acceptable pair spans: a cut after k when no
    player up to k reaches past the next rating or no player after k reaches back to t[k]."""
    n = len(t)
    back = [0.0] * (n + 1)
    back[n] = float("inf")
    for j in range(n - 1, -1, -1):
        back[j] = min(back[j + 1], t[j] - w[j])
    parts, run, reach = [], [], float("-inf")
    for k in range(n):
        run.append(k)
        reach = max(reach, t[k] + w[k])
        if k + 1 < n and (reach < t[k + 1] or back[k + 1] > t[k]):
            parts.append(run)
            run, reach = [], float("-inf")
    if run:
        parts.append(run)
    return parts


def _certified(t: list[float], w: list[float]) -> Pairs | None:
    """The neighbour pairing of a part when it is provably optimal (module docstring, 2),
    else None."""
    count, cost, pairs = _neighbour_pairs(t, w)
    bound = _parity_bound(t)
    if count == len(t) // 2 and cost <= bound + 1e-9 * (1.0 + abs(bound)):
        return pairs
    return None


def _neighbour_pairs(t: list[float], w: list[float]) -> tuple[int, float, Pairs]:
    """The best pairing (most pairs, then least total gap) among those whose pairs enclose
    no matched player (`_neighbour_table`), as its count, gap and pairs."""
    count, cost, back = _neighbour_table(t, w)
    pairs, j = [], len(t) - 1
    while j >= 0:
        if back[j] < 0:
            j -= 1
        else:
            pairs.append((back[j], j))
            j = back[j] - 1
    return count[-1], cost[-1], pairs


def _neighbour_table(t: list[float], w: list[float]) -> tuple[list[int], list[float], list[int]]:
    """best[j], the best such pairing of the first j players, as counts, gaps and each
    player's partner to the left (-1: none). It ends either with player j-1 left out, or
    with j-1 paired to some x after best[x]; the largest acceptable x is the best one:
    best[] never decreases and a later x closes a smaller gap."""
    n = len(t)
    count, cost, back = [0] * (n + 1), [0.0] * (n + 1), [-1] * n
    for j in range(n):
        best_count, best_cost, choice = count[j], cost[j], -1
        x = j - 1
        while x >= 0 and t[j] - t[x] <= w[j]:
            if t[j] - t[x] <= w[x]:
                c, g = count[x] + 1, cost[x] + t[j] - t[x]
                if c > best_count or (c == best_count and g < best_cost):
                    best_count, best_cost, choice = c, g, x
                break
            x -= 1
        count[j + 1], cost[j + 1], back[j] = best_count, best_cost, choice
    return count, cost, back


def _parity_bound(t: list[float]) -> float:
    """The least total gap of any matching of len(t) // 2 pairs, windows aside: with an even
    count every other gap; with an odd count, the best player to leave out (gaps before it
    counted at odd positions, after it at even ones)."""
    n = len(t)
    gaps = [t[k + 1] - t[k] for k in range(n - 1)]
    if n % 2 == 0:
        return sum(gaps[0::2])
    before = [0.0]
    for k, g in enumerate(gaps):
        before.append(before[-1] + (g if k % 2 == 0 else 0.0))
    after = [0.0] * n
    for k in range(n - 2, -1, -1):
        after[k] = after[k + 1] + (gaps[k] if k % 2 == 1 else 0.0)
    return min(before[u] + after[u] for u in range(n))


State = dict[frozenset[int], tuple[int, float, tuple | None]]  # waiting → (pairs, gaps, trail)


def _exact(t: list[float], w: list[float]) -> Pairs:
    """The best pairing of a part by a sweep in rating order. A state is the set W of
    players waiting for a partner to their right, with the pairs closed so far and their
    total gap; player j may be left out, wait, or close with a waiting x it accepts (x still
    reaches j). Exact because:

    - every pairing is a path of these steps, and the future of a state depends on W only
      (its pairs, gaps, and who may still close with whom), so keeping the best per W is
      safe; a waiter whose reach has passed is dropped, which is the state of its being left
      out;
    - j is never left out while a waiter x accepts it: x's later partner c could be swapped
      for j, same count, a gap smaller (or equal and shorter in positions);
    - state B is dropped for A when A has at least B's pairs plus u, where u of B's waiters
      find no distinct waiter of A that arrived no earlier and reaches no less far (such a
      waiter can close with anyone B's can, at no more gap), and A's gaps are no more when
      the counts tie: whatever B goes on to do, A does as well with those waiters;
    - a state is dropped when even its most hopeful end is worse than a pairing some state
      surely reaches (`_Bounds.hopeful`).

    The sweep runs from the end whose far side the neighbour pairing pairs best (the line
    mirrored is the same problem), where those bounds prune most.
    """
    n = len(t)
    mirrored = [-r for r in reversed(t)], list(reversed(w))
    forward, backward = _Bounds(t, w), _Bounds(*mirrored)
    if backward.shortfall() < forward.shortfall():
        return [(n - 1 - b, n - 1 - a) for a, b in _sweep(*mirrored, backward)]
    return _sweep(t, w, forward)


def _sweep(t: list[float], w: list[float], bounds: _Bounds) -> Pairs:
    """`_exact`'s sweep, left to right."""
    reach = [t[i] + w[i] for i in range(len(t))]
    states: State = {frozenset(): (0, 0.0, None)}
    for j in range(len(t)):
        states = bounds.hopeful(_pruned(_step(states, t, w, reach, j), t, reach), j + 1)
    count, gaps, trail = max(states.values(), key=lambda v: (v[0], -v[1]))
    pairs = []
    while trail is not None:
        trail, x, j = trail
        pairs.append((x, j))
    return pairs


def _step(states: State, t: list[float], w: list[float], reach: list[float], j: int) -> State:
    """Every state after player j's three choices, the best kept for each waiting set."""
    new: State = {}

    def keep(waiting: frozenset[int], count: int, gaps: float, trail: tuple | None) -> None:
        old = new.get(waiting)
        if old is None or count > old[0] or (count == old[0] and gaps < old[1]):
            new[waiting] = (count, gaps, trail)

    for waiting, (count, gaps, trail) in states.items():
        alive = frozenset(x for x in waiting if reach[x] >= t[j])
        takers = [x for x in alive if t[j] - t[x] <= w[j]]
        if not takers:
            keep(alive, count, gaps, trail)
        keep(alive | {j}, count, gaps, trail)
        for x in takers:
            keep(alive - {x}, count + 1, gaps + t[j] - t[x], (trail, x, j))
    return new


def _pruned(states: State, t: list[float], reach: list[float]) -> State:
    """The states no other dominates (`_exact`), best first."""
    ranked = sorted(states.items(), key=lambda s: (-s[1][0], s[1][1], len(s[0])))
    kept: list[tuple[frozenset[int], tuple[int, float, tuple | None]]] = []
    for waiting, value in ranked:
        if not any(_dominates(a, av, waiting, value, t, reach) for a, av in kept):
            kept.append((waiting, value))
    return dict(kept)


def _dominates(a: frozenset[int], av: tuple[int, float, tuple | None], b: frozenset[int],
               bv: tuple[int, float, tuple | None], t: list[float], reach: list[float]) -> bool:
    """Whether state a (waiting set, value) is at least as good as b whatever follows."""
    unmatched = len(b) - _stand_ins(b, a, t, reach)
    if av[0] < bv[0] + unmatched:
        return False
    return av[0] > bv[0] + unmatched or av[1] <= bv[1]


def _stand_ins(b: frozenset[int], a: frozenset[int], t: list[float], reach: list[float]) -> int:
    """How many of b's waiters get distinct waiters of a that arrived no earlier and reach
    no less far (a bipartite matching by augmenting paths; the sets are small)."""
    owner: dict[int, int] = {}

    def place(x: int, seen: set[int]) -> bool:
        for y in a:
            if y not in seen and t[y] >= t[x] and reach[y] >= reach[x]:
                seen.add(y)
                if y not in owner or place(owner[y], seen):
                    owner[y] = x
                    return True
        return False

    return sum(place(x, set()) for x in b)


class _Bounds:
    """What the players still to come promise a sweep state (`_exact`).

    Surely reached from a state: its pairs, its waiters left out, and the neighbour pairing
    of the players to come (`rest_count`, `rest_gap`). At best: each of the n to come and
    the a waiters who still reach player i paired, min(n, (a + n) // 2) more pairs; and when
    that many are needed, all of them but at most one are matched, so their gap is at least
    `least` (leave_k[i][p]: the parity bound from player i on with p matched players before
    it, k = how many of them may still be left out)."""

    def __init__(self, t: list[float], w: list[float]) -> None:
        n = len(t)
        count, gap, _ = _neighbour_table([-r for r in reversed(t)], list(reversed(w)))
        self.t = t
        self.reach = [t[i] + w[i] for i in range(n)]
        self.rest_count = [count[n - i] for i in range(n + 1)]
        self.rest_gap = [gap[n - i] for i in range(n + 1)]
        inf = float("inf")
        self.leave_0: list[tuple[float, float]] = [(inf, inf)] * n + [(0.0, inf)]
        self.leave_1: list[tuple[float, float]] = [(inf, inf)] * n + [(0.0, inf)]
        for i in range(n - 1, -1, -1):
            g = t[i + 1] - t[i] if i + 1 < n else 0.0
            keep0, keep1 = self.leave_0[i + 1], self.leave_1[i + 1]
            self.leave_0[i] = (g + keep0[1], keep0[0])
            self.leave_1[i] = (min(g + keep1[1], keep0[0]), min(keep1[0], g + keep0[1]))

    def shortfall(self) -> int:
        """How many pairs the neighbour pairing of the players to come falls short of
        pairing them all, summed over the sweep's steps: the less, the more `hopeful`
        prunes (a shortfall at the far end weighs on every step)."""
        n = len(self.t)
        return sum((n - i) // 2 - self.rest_count[i] for i in range(n + 1))

    def hopeful(self, states: State, i: int) -> State:
        """The states whose most hopeful end is no worse than the best sure one."""
        to_come = len(self.t) - i
        sure = max((c + self.rest_count[i], -(g + self.rest_gap[i])) for c, g, _ in states.values())
        slack = 1e-9 * (1.0 + abs(sure[1]))
        kept: State = {}
        for waiting, (count, gap, trail) in states.items():
            live = [self.t[x] for x in waiting if i < len(self.t) and self.reach[x] >= self.t[i]]
            most = count + min(to_come, (len(live) + to_come) // 2)
            if most > sure[0] or (most == sure[0] and self.least(live, gap, i) <= -sure[1] + slack):
                kept[waiting] = (count, gap, trail)
        return kept

    def least(self, live: list[float], gap: float, i: int) -> float:
        """The least total gap of a state's ends that pair all but at most one of its live
        waiters (at ratings `live`) and the players from i on: each closed waiter spans up
        to player i, and from there on the parity bound holds."""
        if len(live) > len(self.t) - i or not live and i == len(self.t):
            return gap
        spans = [self.t[i] - r for r in live]
        a = len(spans)
        if (a + len(self.t) - i) % 2 == 0:
            return gap + sum(spans) + self.leave_0[i][a % 2]
        best = sum(spans) + self.leave_1[i][a % 2]
        if spans:
            best = min(best, sum(spans) - max(spans) + self.leave_0[i][(a - 1) % 2])
        return gap + best
