"""A puzzle's first rating from what the exact solver says of every move: how many moves
lose, by how much, how far off the loss is, and how strongly the losing moves draw a player
by scoring at once.

A player of the centre rating is modelled choosing among the legal moves with weights
exp(−loss / slack + LURE × points now), where the slack grows with the cards left to play
(a point lost ten cards from the end is harder to see than one lost at the last card): a
move that throws away a little looks almost as good as the answer, one that throws away a
lot is rarely chosen, and points on the table tempt. Their chance of choosing the one
answer, p, sets the rating at which a player solves it half the time, by the Elo curve:
CENTRE + 400 × log10((1 − p) / p).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import TypeVar

Move = TypeVar("Move", bound=Hashable)

CENTRE = 1500
# Points of loss that make a move e times less likely to be chosen, per card left to play.
SLACK_PER_CARD = 0.15
LURE = 0.6  # how much each point a move scores at once draws a player to it
LOWEST, HIGHEST = 600, 2600


def solve_chance(values: Mapping[Move, int], gains: Mapping[Move, int],
                 best: Move, cards_left: int) -> float:
    """The modelled chance that a centre-rated player picks `best` among `values` (each
    move's value under perfect play) with `gains` (each move's points at once), with
    `cards_left` cards still to play."""
    top, slack = values[best], SLACK_PER_CARD * max(cards_left, 1)
    weights = {move: math.exp(-(top - value) / slack + LURE * gains[move])
               for move, value in values.items()}
    return weights[best] / sum(weights.values())


def calibrated_rating(values: Mapping[Move, int], gains: Mapping[Move, int],
                      best: Move, cards_left: int) -> int:
    """The rating at which a player solves the position half the time, LOWEST to HIGHEST."""
    chance = solve_chance(values, gains, best, cards_left)
    rating = CENTRE + 400 * math.log10((1 - chance) / chance)
    return round(min(max(rating, LOWEST), HIGHEST))
