"""Puzzle ratings as lichess keeps them: each try is a duel between the player and the
puzzle, the player winning when they solve it, rated by `openskill`'s Plackett–Luce model
as the club rates its games (server/club/ratings.py) and shown on the club's scale,
`1500 + (mu − 25) × 60`.

A player starts as the club's newcomer (25 ± 25/3). A puzzle starts at its shipped rating,
surer than a newcomer (`PUZZLE_SIGMA`), since its rating comes from how hard the position
looks. The next puzzle is one the player has not tried, among the `NEAREST` whose ratings
are nearest the player's, at random.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from random import Random

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults, as the club's ratings
CENTRE, SCALE = 1500, 60  # the club's shown rating: CENTRE + (mu − MODEL.mu) × SCALE
PUZZLE_SIGMA = MODEL.sigma / 2
NEAREST = 5


@dataclass(frozen=True)
class Belief:
    """A rating: openskill's mean and uncertainty, and the tries behind it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    tries: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @classmethod
    def of_puzzle(cls, rating: int) -> Belief:
        """A puzzle's first belief from its shipped rating."""
        return cls(mu_of(rating), PUZZLE_SIGMA, 0)


def shown(mu: float) -> int:
    """`mu` on the club's scale."""
    return round(CENTRE + (mu - MODEL.mu) * SCALE)


def mu_of(rating: float) -> float:
    """The openskill mean of a rating on the club's scale."""
    return MODEL.mu + (rating - CENTRE) / SCALE


def duel(player: Belief, puzzle: Belief, solved: bool) -> tuple[Belief, Belief]:
    """Both beliefs after one try: the player beats the puzzle when they solve it."""
    teams = [[MODEL.rating(mu=player.mu, sigma=player.sigma)],
             [MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]]
    (mine,), (its,) = MODEL.rate(teams, ranks=[0.0, 1.0] if solved else [1.0, 0.0])
    return (Belief(mine.mu, mine.sigma, player.tries + 1),
            Belief(its.mu, its.sigma, puzzle.tries + 1))


def next_puzzle(player: Belief, puzzles: Mapping[str, Belief], tried: Collection[str],
                rng: Random) -> str | None:
    """A puzzle the player has not tried, near their rating; None when none is left."""
    fresh = sorted((abs(belief.mu - player.mu), ident) for ident, belief in puzzles.items()
                   if ident not in tried)
    if not fresh:
        return None
    return rng.choice(fresh[:NEAREST])[1]
