"""Puzzle ratings as lichess keeps them: Glicko-2, each try a game between the player and
the puzzle, which the player wins by solving it.

A newcomer starts at 1500 with a wide deviation (500): their first tries move them far,
and each try narrows the deviation, so a settled player's rating moves a few points a try
(never below 45, lichess's floor). A puzzle starts at its calibrated rating
(`puzzle_difficulty.py`: from what the solver says of every move) with a narrower
deviation, and moves with its tries too.

The next puzzle is one the player has not tried, among the `NEAREST` whose ratings are
nearest the player's, at random; a theme narrows the choice to its puzzles. A streak gives
puzzles of rising difficulty instead (`streak_puzzle`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from random import Random

START_RATING = 1500.0
START_DEVIATION = 500.0  # a newcomer: nothing known yet
PUZZLE_DEVIATION = 150.0  # a calibrated puzzle: surer than a newcomer
MIN_DEVIATION, MAX_DEVIATION = 45.0, 500.0
START_VOLATILITY = 0.09
TAU = 0.75  # how fast volatility itself may change (Glickman suggests 0.3–1.2)
GLICKO_SCALE = 173.7178  # Glicko-2's internal unit, in rating points
NEAREST = 5
# A streak's k-th puzzle is chosen near the puzzles' rating at the quantile
# STREAK_START + k × STREAK_STEP: it walks up the set, from its easiest, in about 30 solves.
STREAK_START, STREAK_STEP = 0.02, 0.033


@dataclass(frozen=True)
class Belief:
    """A rating: Glicko-2's rating, deviation and volatility, and the tries behind it."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    tries: int = 0

    @property
    def shown(self) -> int:
        return round(self.rating)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still unsure (lichess marks it with "?")."""
        return self.deviation > 110

    @classmethod
    def of_puzzle(cls, rating: int) -> Belief:
        """A puzzle's first belief from its calibrated rating."""
        return cls(float(rating), PUZZLE_DEVIATION, START_VOLATILITY, 0)


def expected(player: Belief, opponent: Belief) -> float:
    """The chance `player` wins (solves, for a puzzle opponent), as Glicko-2 has it."""
    mu, other = _scaled(player.rating), _scaled(opponent.rating)
    return 1 / (1 + math.exp(-_g(opponent.deviation / GLICKO_SCALE) * (mu - other)))


def rated(player: Belief, games: Sequence[tuple[Belief, float]], tau: float = TAU) -> Belief:
    """`player` after a rating period of `games`: (opponent, score), 1 a win, 0 a loss
    (Glickman, "Example of the Glicko-2 system", steps 3–8)."""
    phi = player.deviation / GLICKO_SCALE
    weights = [(_g(opponent.deviation / GLICKO_SCALE), expected(player, opponent), score)
               for opponent, score in games]
    variance = 1 / sum(g * g * chance * (1 - chance) for g, chance, _ in weights)
    improvement = sum(g * (score - chance) for g, chance, score in weights)
    sigma = _volatility(phi, player.volatility, variance, variance * improvement, tau)
    widened = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (widened * widened) + 1 / variance)
    mu = _scaled(player.rating) + new_phi * new_phi * improvement
    deviation = min(max(new_phi * GLICKO_SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return Belief(mu * GLICKO_SCALE + START_RATING, deviation, sigma,
                  player.tries + len(games))


def duel(player: Belief, puzzle: Belief, solved: bool) -> tuple[Belief, Belief]:
    """Both beliefs after one try: the player beats the puzzle when they solve it."""
    score = 1.0 if solved else 0.0
    return rated(player, [(puzzle, score)]), rated(puzzle, [(player, 1.0 - score)])


def next_puzzle(player: Belief, puzzles: Mapping[str, Belief], tried: Collection[str],
                rng: Random, wanted: Callable[[str], bool] = lambda ident: True) -> str | None:
    """A puzzle the player has not tried (and `wanted`: of a theme), near their rating;
    None when none is left."""
    return _near(player.rating, puzzles, lambda ident: ident not in tried and wanted(ident),
                 rng)


def streak_puzzle(solved: int, puzzles: Mapping[str, Belief], done: Collection[str],
                  rng: Random) -> str | None:
    """The puzzle after `solved` in a streak: harder with each, never one given before."""
    ratings = sorted(belief.rating for belief in puzzles.values())
    if not ratings:
        return None
    quantile = min(STREAK_START + solved * STREAK_STEP, 1.0)
    target = ratings[min(int(quantile * len(ratings)), len(ratings) - 1)]
    return _near(target, puzzles, lambda ident: ident not in done, rng)


def _near(target: float, puzzles: Mapping[str, Belief], allowed: Callable[[str], bool],
          rng: Random) -> str | None:
    fresh = sorted((abs(belief.rating - target), ident) for ident, belief in puzzles.items()
                   if allowed(ident))
    if not fresh:
        return None
    return rng.choice(fresh[:NEAREST])[1]


def _scaled(rating: float) -> float:
    return (rating - START_RATING) / GLICKO_SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Glickman's step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - variance - ex)
        bottom = 2 * (phi * phi + variance + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + variance:
        high = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(100):  # converges in a handful; the bound keeps it bounded
        if abs(high - low) <= 1e-6:
            break
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)
