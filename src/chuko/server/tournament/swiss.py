"""A Swiss round's pairing: who meets whom, and who has the bye, exactly.

The round's order ranks the players by score, then rating (both highest first), then id.
With an odd count the bye goes first (`bye_order`): to the lowest-scored, then lowest-rated
player who has had no bye (anyone, once all have had one), or to the next such player when
the others could then not all be paired. Everyone else is paired, no two players meeting
twice; when that cannot be done, `NoPairing` says so (lichess ends a Swiss event then).

Among the pairings of everyone, the round is the best by, in turn:
1. the least sum over pairs of the square of their score difference, in half points: a
   player floats out of their score group only when the group's count is odd or a repeat
   forces it, and then to the nearest group;
2. the least deviation from the Dutch fold (`fold`): each score group, with any player
   floated into it on top, is cut into a top and a bottom half by the round's order and
   the first of each half meet, then the second, and so on, a bottom-half player who would
   meet their partner again swapped with the next when that makes both pairs new; the
   lowest of an odd group floats to the next. A player's deviation is how far, in the
   round's order, their opponent is from their partner in the fold.

The fold has the least score cost there is (pairs of neighbours in score are best for a
convex cost) and deviates nowhere, so when it repeats no game it is the round. Otherwise
the players within `reach` places of each repeated pair's two (with their partners in the
fold) are paired best by Edmonds' blossom (networkx), part by part, the rest kept as
folded. That is provably the best round when each part's score cost is the fold's and its
deviation at most 4 × its reach: a pairing differs from the fold by alternating cycles,
each through some repeated pair, and a cycle that leaves the part of a repeated pair on it
deviates by at least twice the span of each of its two sides (its players at even and at
odd steps), at least 4 × reach for every part whose repeated pair it holds: more than the
part's own best. Otherwise the part's reach doubles, up to the whole round, which blossom
pairs exactly at any size but in time cubic in it: so when a repeat forces players out of
their score group (the two leaders of a long event have met), a round of hundreds of
players takes seconds or more; short of that a round of 2,000 takes milliseconds
(docs/performance.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chuko.core.text import Text

Pairs = list[tuple[int, int]]  # places in the round's order


@dataclass(frozen=True)
class Entrant:
    """A player to pair: their score so far, rating, every opponent met and whether they
    have had a bye."""

    id: str
    score: float
    rating: float
    opponents: frozenset[str]
    had_bye: bool


@dataclass(frozen=True)
class SwissRound:
    """A round's pairs (the higher in the round's order first) and its bye, if any."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


class NoPairing(ValueError):
    """No pairing of the round avoids a repeated game."""


def pair_round(entrants: Sequence[Entrant]) -> SwissRound:
    """The round's pairing of `entrants` (the module's docstring says which); `NoPairing`
    when every pairing would repeat a game."""
    _check(entrants)
    if len(entrants) % 2 == 0:
        return _paired(entrants, None)
    for bye in bye_order(entrants):
        try:
            return _paired([e for e in entrants if e.id != bye.id], bye.id)
        except NoPairing:
            continue
    raise NoPairing(Text("No pairing of these {count} players avoids a repeated game, "
                         "whoever has the bye.", count=len(entrants)))


def bye_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Who may have the bye, first choice first: those who have had none (everyone, once
    all have had one), lowest score, then lowest rating, then id."""
    eligible = [e for e in entrants if not e.had_bye] or list(entrants)
    return sorted(eligible, key=lambda e: (e.score, e.rating, e.id))


def round_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The round's order: score, then rating, highest first, then id."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def fold(halves: Sequence[int], meets_again: Callable[[int, int], bool]) -> list[int]:
    """Each place's partner in the Dutch fold of a round of an even count whose scores in
    half points are `halves`, in the round's order (the module's docstring)."""
    partner = [-1] * len(halves)
    members: list[int] = []
    start = 0
    while start < len(halves):
        end = start
        while end < len(halves) and halves[end] == halves[start]:
            end += 1
        members += range(start, end)
        floater = members.pop() if len(members) % 2 else None
        half = len(members) // 2
        top, bottom = members[:half], _transposed(members[:half], members[half:], meets_again)
        for a, b in zip(top, bottom, strict=True):
            partner[a], partner[b] = b, a
        members = [] if floater is None else [floater]
        start = end
    return partner


def _transposed(top: list[int], bottom: list[int],
                meets_again: Callable[[int, int], bool]) -> list[int]:
    """The bottom half, in turn, with each player who would meet their top-half partner
    again swapped with the next one when that makes both pairs new."""
    bottom = list(bottom)
    for k in range(len(top) - 1):
        if (meets_again(top[k], bottom[k]) and not meets_again(top[k], bottom[k + 1])
                and not meets_again(top[k + 1], bottom[k])):
            bottom[k], bottom[k + 1] = bottom[k + 1], bottom[k]
    return bottom


def _paired(entrants: Sequence[Entrant], bye: str | None) -> SwissRound:
    ordered = round_order(entrants)
    pairs = _Round(ordered).best()
    return SwissRound(tuple((ordered[a].id, ordered[b].id) for a, b in sorted(pairs)), bye)


class _Round:
    """One round's players in the round's order, their fold and its repeated pairs."""

    def __init__(self, ordered: list[Entrant]) -> None:
        self.ids = [e.id for e in ordered]
        self.met = [e.opponents for e in ordered]
        self.halves = [round(2 * e.score) for e in ordered]
        self.partner = fold(self.halves, self.meets_again)
        self.repeats = [a for a, b in enumerate(self.partner) if a < b and self.meets_again(a, b)]

    def meets_again(self, a: int, b: int) -> bool:
        return self.ids[b] in self.met[a] or self.ids[a] in self.met[b]

    def score_cost(self, a: int, b: int) -> int:
        return (self.halves[a] - self.halves[b]) ** 2

    def deviation(self, a: int, b: int) -> int:
        """How far a's and b's opponents are from their partners in the fold."""
        return abs(b - self.partner[a]) + abs(a - self.partner[b])

    def best(self) -> Pairs:
        """The best pairing of the round (the module's docstring)."""
        reach = dict.fromkeys(self.repeats, 1)
        solved: dict[tuple[int, ...], Pairs | None] = {}
        while True:
            parts, found, grown = self.parts(reach), [], False
            for part, least in parts:
                if len(part) == len(self.ids):  # the whole round: exact as it is
                    return self.whole()
                key = tuple(part)
                if key not in solved:
                    solved[key] = self.blossom(part)
                pairs = solved[key]
                if pairs is not None and self.proves(part, pairs, least):
                    found += pairs
                else:
                    members = set(part)
                    for a in reach:
                        reach[a] *= 2 if a in members else 1
                    grown = True
            if not grown:
                inside = {place for part, _ in parts for place in part}
                return [(a, b) for a, b in enumerate(self.partner)
                        if a < b and a not in inside] + found

    def whole(self) -> Pairs:
        found = self.blossom(list(range(len(self.ids))))
        if found is None:
            raise NoPairing(Text("No pairing of these {count} players avoids a "
                                 "repeated game.", count=len(self.ids)))
        return found

    def proves(self, part: list[int], found: Pairs, reach: int) -> bool:
        """Whether `found`, the best pairing of `part`, is part of the round's best: the
        fold's score cost and a deviation of at most 4 × reach."""
        folded_cost = sum(self.score_cost(a, self.partner[a]) for a in part) // 2
        if sum(self.score_cost(a, b) for a, b in found) > folded_cost:
            return False
        return sum(self.deviation(a, b) for a, b in found) <= 4 * reach

    def parts(self, reach: dict[int, int]) -> list[tuple[list[int], int]]:
        """The places within reach of each repeated pair's players (`reach` by the pair's
        higher place), with their partners in the fold, cut into parts that share no place
        and no pair of the fold (runs of neighbouring places, joined through the fold's
        pairs), each with the least reach of its repeated pairs."""
        n = len(self.ids)
        inside = [False] * n
        for a, far in reach.items():
            for place in (a, self.partner[a]):
                for near in range(max(0, place - far), min(n, place + far + 1)):
                    inside[near] = inside[self.partner[near]] = True
        group = list(range(n))  # union-find over the places inside

        def root(x: int) -> int:
            while group[x] != x:
                group[x] = group[group[x]]
                x = group[x]
            return x

        for x in range(n):
            if inside[x]:
                for y in (x + 1, self.partner[x]):
                    if y < n and inside[y]:
                        group[root(x)] = root(y)
        found: dict[int, list[int]] = {}
        for x in range(n):
            if inside[x]:
                found.setdefault(root(x), []).append(x)
        least: dict[int, int] = {}
        for a, far in reach.items():
            least[root(a)] = min(least.get(root(a), far), far)
        return [(part, least[key]) for key, part in found.items()]

    def blossom(self, part: list[int]) -> Pairs | None:
        """The best pairing of everyone in `part`, by score cost then deviation, with no
        repeated game; None if there is none."""
        # Imported at the first repeat, not with the server: networkx is slow to load.
        import networkx as nx

        scale = 2 * len(self.ids) * len(part) + 1  # more than any total deviation
        costs = {(a, b): self.score_cost(a, b) * scale + self.deviation(a, b)
                 for i, a in enumerate(part) for b in part[i + 1:] if not self.meets_again(a, b)}
        big = max(costs.values(), default=0) + 1
        graph = nx.Graph()
        graph.add_nodes_from(part)
        graph.add_weighted_edges_from((a, b, big - cost) for (a, b), cost in costs.items())
        matched = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matched) < len(part):
            return None
        return sorted((min(a, b), max(a, b)) for a, b in matched)


def _check(entrants: Sequence[Entrant]) -> None:
    """A sentence for entrants that cannot be paired as given."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("Each player may enter a round once.")
    for e in entrants:
        if not (math.isfinite(e.score) and e.score >= 0 and float(2 * e.score).is_integer()):
            raise ValueError(f"{e.id}'s score must be a whole or half point, not {e.score}.")
        if not math.isfinite(e.rating):
            raise ValueError(f"{e.id}'s rating must be a number, not {e.rating}.")
