"""Every distinct deal of a 12-card pack for the layout games, each counted once with how
many shuffles give it.

Two reductions make a deal distinct:
- the rows are interchangeable (a move takes any row's leftmost card), so a deal is a
  multiset of three rows, written with its rows in increasing order;
- cards with the same prime factors behave alike in both games (solvers/encoding.py), so
  cards are replaced by their class.

Twelve cards of twelve classes give 12!/3! = 79,833,600 distinct deals; equal classes
give fewer. A deal's weight is how many of the 12!/3! deals (cards told apart, rows not)
it stands for, so weights add up to 79,833,600 for every pack and a share of weight is the
chance that a shuffled deal has the property.

The work is split into shards, one per possible first (smallest) row, so that a shard is a
unit of work to hand to a process or a cluster and to checkpoint. The enumeration itself is
a compiled (numba) kernel that writes a shard's deals into an array, so that enumerating
costs little next to solving.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import factorial, prod

import numpy as np
from numba import njit

from chuko.core.errors import ConfigError
from chuko.core.layout import COLUMNS, ROWS, SIZE, layout_text
from chuko.solvers.encoding import card_classes
from chuko.solvers.numba_cache import ensure_cache

ALL_DEALS = factorial(SIZE) // factorial(ROWS)  # 79,833,600: 12 cards, rows interchangeable

ensure_cache()  # before the first kernel is defined: it needs somewhere to be cached


@njit(cache=True)
def _rows(counts: np.ndarray) -> np.ndarray:
    """Every distinct row (COLUMNS classes, in order) that the cards `counts` can form, in
    lexicographic order."""
    k = counts.shape[0]
    out = np.empty((k**COLUMNS, COLUMNS), dtype=np.int8)
    n = 0
    left = counts.copy()
    for a in range(k):
        if left[a] == 0:
            continue
        left[a] -= 1
        for b in range(k):
            if left[b] == 0:
                continue
            left[b] -= 1
            for c in range(k):
                if left[c] == 0:
                    continue
                left[c] -= 1
                for d in range(k):
                    if left[d] == 0:
                        continue
                    out[n, 0] = a
                    out[n, 1] = b
                    out[n, 2] = c
                    out[n, 3] = d
                    n += 1
                left[c] += 1
            left[b] += 1
        left[a] += 1
    return out[:n]


@njit(cache=True)
def _compare(x: np.ndarray, y: np.ndarray) -> int:
    """-1, 0 or 1 as row x comes before, equals or follows row y."""
    for i in range(x.shape[0]):
        if x[i] != y[i]:
            return -1 if x[i] < y[i] else 1
    return 0


@njit(cache=True)
def shard_deals(counts: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct deals whose smallest row is `first`, as class rows (n, 12), and how
    many orders of their three rows are distinct (6, 3 or 1: a class sequence count)."""
    left = counts.copy()
    for i in range(COLUMNS):
        left[first[i]] -= 1
    seconds = _rows(left)
    deals = np.empty((seconds.shape[0] * 24, SIZE), dtype=np.int8)
    orders = np.empty(seconds.shape[0] * 24, dtype=np.int64)
    n = 0
    for s in range(seconds.shape[0]):
        second = seconds[s]
        low = _compare(second, first)
        if low < 0:
            continue
        rest = left.copy()
        for i in range(COLUMNS):
            rest[second[i]] -= 1
        thirds = _rows(rest)
        for t in range(thirds.shape[0]):
            third = thirds[t]
            high = _compare(third, second)
            if high < 0:
                continue
            deals[n, :COLUMNS] = first
            deals[n, COLUMNS:2 * COLUMNS] = second
            deals[n, 2 * COLUMNS:] = third
            if low == 0 and high == 0:
                orders[n] = 1
            elif low == 0 or high == 0:
                orders[n] = 3
            else:
                orders[n] = 6
            n += 1
    return deals[:n], orders[:n]


@dataclass(frozen=True)
class Pack:
    """A 12-card pack as the enumeration sees it: classes numbered by their smallest card,
    how many cards each has, and which classes match."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != SIZE:
            raise ConfigError(f"A layout game's pack has exactly {SIZE} cards, not "
                              f"{len(self.cards)}.")
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    @cached_property
    def _encoding(self) -> tuple[list[int], list[list[bool]]]:
        return card_classes(self.cards)  # sorted cards: classes in order of smallest card

    @cached_property
    def counts(self) -> np.ndarray:
        classes, _ = self._encoding
        return np.bincount(np.array(classes), minlength=max(classes) + 1).astype(np.int64)

    @cached_property
    def match(self) -> np.ndarray:
        return np.array(self._encoding[1], dtype=np.bool_)

    @cached_property
    def shards(self) -> np.ndarray:
        """Every possible first row, in order; some shards hold no deal."""
        return _rows(self.counts)

    @cached_property
    def deal_weight(self) -> int:
        """Deals (of ALL_DEALS) one class sequence stands for, times its row orders / 6:
        cards of a class can trade places."""
        return prod(factorial(int(c)) for c in self.counts)

    def deals(self, shard: int) -> tuple[np.ndarray, np.ndarray]:
        """Shard `shard`'s distinct deals and their row-order counts (see shard_deals)."""
        return shard_deals(self.counts, self.shards[shard])

    def weight(self, orders: int) -> int:
        """Deals of ALL_DEALS that distinct deals with `orders` row orders in all stand for."""
        return orders * self.deal_weight // 6

    def cards_of(self, deal: np.ndarray | list[int]) -> tuple[int, ...]:
        """A deal of this pack whose classes are `deal`: each class's cards in order."""
        classes, _ = self._encoding
        pools: dict[int, list[int]] = {}
        for card, c in zip(self.cards, classes, strict=True):
            pools.setdefault(c, []).append(card)
        taken = {c: 0 for c in pools}
        out = []
        for c in (int(x) for x in deal):
            out.append(pools[c][taken[c]])
            taken[c] += 1
        return tuple(out)

    def text(self, deal: np.ndarray | list[int]) -> str:
        return layout_text(self.cards_of(deal))

    @cached_property
    def classes_array(self) -> np.ndarray:
        """Each card's class, cards in sorted order."""
        return np.array(self._encoding[0], dtype=np.int8)

    def cards_of_class(self, card: int) -> int:
        return int(self.classes_array[self.cards.index(card)])
