"""The Chuchula grouping advisor: the grouping with the most expected points.

Model: at position i, a group of strength s beats one opponent with probability
`below[i][s]` — the share of opponents' position-i groups strictly weaker than s,
estimated once by simulation and shipped as data/chuchula_table.json (made by
chuko.analysis.chuchula_table). It scores only if it beats all P − 1 opponents
(ruling H5: a shared best cancels the point), so its expected points there are
`below[i][s] ** (P − 1)`. The advisor maximises the sum over the four positions
by branch and bound over the hand's 286 triples, strongest first.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from chuko.core.deck52 import DECK, Card, sort_hand
from chuko.core.errors import ConfigError, ParseError
from chuko.games.chuchula import GROUPS, HAND_SIZE, Grouping, group_strength

TABLE_FILE = "chuchula_table.json"


@cache
def strength_classes() -> dict[int, int]:
    """Each distinct group strength (741 of them) to its rank among all, weakest 0."""
    values = sorted({group_strength(t) for t in itertools.combinations(DECK, 3)})
    return {value: index for index, value in enumerate(values)}


@dataclass(frozen=True)
class WinTable:
    """`below[i][k]`: the chance that an opponent's group at position i is weaker than a
    group of strength class k."""

    below: tuple[tuple[float, ...], ...]
    description: str

    @classmethod
    def from_json(cls, data: dict) -> WinTable:
        below = tuple(tuple(float(x) for x in row) for row in data["below"])
        if len(below) != GROUPS or any(len(row) != len(strength_classes()) for row in below):
            raise ConfigError("The Chuchula win table does not have 4 rows of 741 classes.")
        return cls(below, data.get("description", ""))

    def to_json(self) -> dict:
        return {"description": self.description, "below": [list(row) for row in self.below]}


@cache
def shipped_table() -> WinTable:
    text = files("chuko").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    return WinTable.from_json(json.loads(text))


@dataclass(frozen=True)
class Advice:
    """The advised grouping and its expected points at each position."""

    grouping: Grouping
    expected: tuple[float, ...]

    @property
    def total(self) -> float:
        return sum(self.expected)

    def to_json(self) -> dict:
        return {
            "groups": [[str(c) for c in g] for g in self.grouping.groups],
            "leftover": str(self.grouping.leftover),
            "grouping": str(self.grouping),
            "expected_points": round(self.total, 4),
            "expected_by_position": [round(x, 4) for x in self.expected],
        }


def check_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand sorted, or ParseError unless it is 13 distinct cards."""
    if len(cards) != HAND_SIZE or len(set(cards)) != HAND_SIZE:
        distinct = len(set(cards))
        raise ParseError(
            f"A Chuchula hand is 13 different cards; this one has {len(cards)} card(s)"
            + (f", only {distinct} different." if distinct != len(cards) else ".")
        )
    return sort_hand(tuple(cards))


def _check_players(players: int) -> None:
    if not 2 <= players <= 4:
        raise ConfigError(f"Chuchula is for 2 to 4 players, not {players}.")


def greedy_grouping(hand: Sequence[Card]) -> Grouping:
    """The strongest group of the hand, then the strongest of the rest, and so on."""
    rest = list(check_hand(hand))
    groups = []
    for _ in range(GROUPS):
        best = max(itertools.combinations(rest, 3), key=group_strength)
        groups.append(best)
        rest = [c for c in rest if c not in best]
    return Grouping(tuple(groups), rest[0])


def position_chances(strength: int, players: int, table: WinTable | None = None) -> list[float]:
    """Expected points of one group of `strength` at each of the four positions."""
    below = (table or shipped_table()).below
    k = strength_classes()[strength]
    return [row[k] ** (players - 1) for row in below]


def advise(hand: Sequence[Card], players: int, table: WinTable | None = None) -> Advice:
    """The grouping of `hand` with the most expected points against `players − 1` opponents."""
    hand = check_hand(hand)
    _check_players(players)
    below = (table or shipped_table()).below
    classes = strength_classes()
    power = players - 1
    # One entry per triple, strongest first: (strength, mask, cards, gains, tails) where
    # gains[i] is its expected points at position i and tails[i] the sum of gains[i:].
    triples = []
    for combo in itertools.combinations(range(HAND_SIZE), 3):
        cards = tuple(hand[i] for i in combo)
        strength = group_strength(cards)
        k = classes[strength]
        gains = tuple(row[k] ** power for row in below)
        tails = tuple(sum(gains[i:]) for i in range(GROUPS))
        mask = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2])
        triples.append((strength, mask, cards, gains, tails))
    triples.sort(key=lambda t: t[0], reverse=True)

    best_value = -1.0
    best_choice: list = []

    def search(level: int, candidates: list, value: float, chosen: list) -> None:
        nonlocal best_value, best_choice
        for index, triple in enumerate(candidates):
            # Later candidates are no stronger, so no better at any position: stop early.
            if value + triple[4][level] <= best_value:
                return
            if level == GROUPS - 1:
                best_value, best_choice = value + triple[3][level], [*chosen, triple]
                return
            mask = triple[1]
            rest = [t for t in candidates[index + 1 :] if not t[1] & mask]
            search(level + 1, rest, value + triple[3][level], [*chosen, triple])

    search(0, triples, 0.0, [])
    used = best_choice[0][1] | best_choice[1][1] | best_choice[2][1] | best_choice[3][1]
    leftover = next(hand[i] for i in range(HAND_SIZE) if not used >> i & 1)
    grouping = Grouping(tuple(t[2] for t in best_choice), leftover)
    return Advice(grouping, tuple(t[3][i] for i, t in enumerate(best_choice)))
