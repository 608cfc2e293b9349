"""The compact encoding both layout solvers share.

Two cards behave alike in a layout game when they have the same set of prime factors,
so each card is replaced by the index of its factor set ("class"), and matching becomes
a lookup in a small table.
"""

from __future__ import annotations

from chuko.core.layout import COLUMNS, ROWS
from chuko.core.numbers import prime_factors

ROW_STATES = (COLUMNS + 1) ** ROWS  # how many cards each row has lost, 0..4 per row


def card_classes(layout: tuple[int, ...]) -> tuple[list[int], list[list[bool]]]:
    """Each position's class, and which classes match (share a prime factor)."""
    factor_sets: list[frozenset[int]] = []
    classes = []
    for card in layout:
        factors = frozenset(prime_factors(card))
        if factors not in factor_sets:
            factor_sets.append(factors)
        classes.append(factor_sets.index(factors))
    match = [[bool(a & b) for b in factor_sets] for a in factor_sets]
    return classes, match


def taken_index(taken: tuple[int, ...]) -> int:
    """Row counts as one number 0..124."""
    index = 0
    for count in taken:
        index = index * (COLUMNS + 1) + count
    return index


def row_counts(index: int) -> list[int]:
    """The inverse of taken_index."""
    counts = []
    for _ in range(ROWS):
        counts.append(index % (COLUMNS + 1))
        index //= COLUMNS + 1
    return counts[::-1]


def row_steps() -> list[list[tuple[int, int]]]:
    """For each taken index, the (row's available position, taken index after taking it)."""
    steps = []
    for index in range(ROW_STATES):
        counts = row_counts(index)
        moves = []
        for row, count in enumerate(counts):
            if count < COLUMNS:
                after = counts.copy()
                after[row] += 1
                moves.append((row * COLUMNS + count, taken_index(tuple(after))))
        steps.append(moves)
    return steps


STEPS = row_steps()

# For each taken index, how many cards are still in the layout.
CARDS_LEFT = [ROWS * COLUMNS - sum(row_counts(i)) for i in range(ROW_STATES)]
