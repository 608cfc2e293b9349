"""Quick pairing's exact sweep (`waves.py`): the best pairing of a part of the sorted line
that the neighbour pairing could not be proved best for, within a budget of states.

Exact on any input, but the number of states it expands is not bounded by the part's size:
where the neighbour pairing falls short at both ends of a part, many wide windows over a
sparse stretch of ratings multiply them (some pools of 100 players take many seconds:
docs/performance.md).
So it stops, returning None, once it has expanded `budget` states in all.
"""

from __future__ import annotations

from chuko.server.lobby.pairing.line import Pairs, neighbour_table

State = dict[frozenset[int], tuple[int, float, tuple | None]]  # waiting → (pairs, gaps, trail)


def exact(t: list[float], w: list[float], budget: int) -> Pairs | None:
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
    mirrored is the same problem), where those bounds prune most. None when it would spend
    more than `budget` (`_Budget`).
    """
    n = len(t)
    mirrored = [-r for r in reversed(t)], list(reversed(w))
    forward, backward = _Bounds(t, w), _Bounds(*mirrored)
    try:
        if backward.shortfall() < forward.shortfall():
            swept = _sweep(*mirrored, backward, _Budget(budget))
            return [(n - 1 - b, n - 1 - a) for a, b in swept]
        return _sweep(t, w, forward, _Budget(budget))
    except _Spent:
        return None


class _Spent(Exception):
    """The sweep's budget ran out."""


class _Budget:
    """What a sweep may still spend: each state it makes and each state a new one is
    weighed against for dominance counts one (the weighing is what grows fastest)."""

    def __init__(self, left: int) -> None:
        self.left = left

    def spend(self, work: int) -> None:
        self.left -= work
        if self.left < 0:
            raise _Spent()


def _sweep(t: list[float], w: list[float], bounds: _Bounds, budget: _Budget) -> Pairs:
    """`exact`'s sweep, left to right; _Spent when its budget runs out."""
    reach = [t[i] + w[i] for i in range(len(t))]
    states: State = {frozenset(): (0, 0.0, None)}
    for j in range(len(t)):
        made = _step(states, t, w, reach, j)
        budget.spend(len(made))
        states = bounds.hopeful(_pruned(made, t, reach, budget), j + 1)
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


def _pruned(states: State, t: list[float], reach: list[float], budget: _Budget) -> State:
    """The states no other dominates (`exact`), best first."""
    ranked = sorted(states.items(), key=lambda s: (-s[1][0], s[1][1], len(s[0])))
    kept: list[tuple[frozenset[int], tuple[int, float, tuple | None]]] = []
    for waiting, value in ranked:
        budget.spend(len(kept))
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
    """What the players still to come promise a sweep state (`exact`).

    Surely reached from a state: its pairs, its waiters left out, and the neighbour pairing
    of the players to come (`rest_count`, `rest_gap`). At best: each of the n to come and
    the a waiters who still reach player i paired, min(n, (a + n) // 2) more pairs; and when
    that many are needed, all of them but at most one are matched, so their gap is at least
    `least` (leave_k[i][p]: the parity bound from player i on with p matched players before
    it, k = how many of them may still be left out)."""

    def __init__(self, t: list[float], w: list[float]) -> None:
        n = len(t)
        count, gap, _ = neighbour_table([-r for r in reversed(t)], list(reversed(w)))
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
