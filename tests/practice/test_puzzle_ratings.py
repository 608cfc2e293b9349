"""Puzzle ratings are Glicko-2 as lichess keeps them: Glickman's worked example holds; a
newcomer's first tries move them far and each narrows their deviation, so a settled
player's rating moves a few points a try; on a simulated population of solvers of known
strength the ratings order like their strengths and the puzzles' like their difficulties."""

from __future__ import annotations

import math
from random import Random

import pytest

from chuko.practice.puzzle_ratings import (
    MIN_DEVIATION,
    Belief,
    duel,
    next_puzzle,
    rated,
    streak_puzzle,
)


def ranks(values: list[float]) -> list[int]:
    order = sorted(range(len(values)), key=values.__getitem__)
    return [order.index(i) for i in range(len(values))]


def spearman(xs: list[float], ys: list[float]) -> float:
    """Rank correlation (no ties among these continuous values)."""
    n, a, b = len(xs), ranks(xs), ranks(ys)
    return 1 - 6 * sum((i - j) ** 2 for i, j in zip(a, b, strict=True)) / (n * (n * n - 1))


def test_glickmans_worked_example() -> None:
    player = Belief(1500, 200, 0.06)
    games = [(Belief(1400, 30), 1.0), (Belief(1550, 100), 0.0), (Belief(1700, 300), 0.0)]
    after = rated(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_newcomer_moves_far_at_first_and_less_with_every_try() -> None:
    rng, player, swings = Random(2), Belief(), []
    for _ in range(40):
        before = player
        player, _ = duel(player, Belief.of_puzzle(before.shown), rng.random() < 0.5)
        swings.append(abs(player.rating - before.rating))
    assert swings[0] > 150 and max(swings[-10:]) < 30
    assert player.deviation < 100 and not player.provisional
    assert all(later <= earlier + 1e-9 for earlier, later in zip(swings, swings[1:], strict=False))


def test_the_deviation_never_falls_below_lichesss_floor() -> None:
    player = Belief()
    for _ in range(2000):
        player, _ = duel(player, Belief.of_puzzle(player.shown), True)
    assert player.deviation >= MIN_DEVIATION


def simulate(tries: int, seed: int = 3) -> tuple[list[float], list[Belief], list[float],
                                                  dict[str, Belief]]:
    rng = Random(seed)
    strengths = [rng.gauss(1500, 300) for _ in range(30)]
    difficulties = [rng.gauss(1500, 300) for _ in range(300)]
    players = [Belief() for _ in strengths]
    puzzles = {str(i): Belief.of_puzzle(1500) for i in range(len(difficulties))}
    tried: list[set[str]] = [set() for _ in strengths]
    for _ in range(tries):
        who = rng.randrange(len(players))
        ident = next_puzzle(players[who], puzzles, tried[who], rng)
        assert ident is not None
        gap = (strengths[who] - difficulties[int(ident)]) / 250
        solved = rng.random() < 1 / (1 + math.exp(-gap))
        players[who], puzzles[ident] = duel(players[who], puzzles[ident], solved)
        tried[who].add(ident)
    return strengths, players, difficulties, puzzles


@pytest.mark.slow  # a few thousand simulated tries
def test_ratings_order_like_strengths_and_difficulties_after_a_few_thousand_tries() -> None:
    strengths, players, difficulties, puzzles = simulate(4000)
    assert spearman(strengths, [p.rating for p in players]) > 0.85
    tried = [i for i, b in puzzles.items() if b.tries >= 5]
    assert len(tried) > 150
    assert spearman([difficulties[int(i)] for i in tried],
                    [puzzles[i].rating for i in tried]) > 0.7


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Belief(), Belief.of_puzzle(1600)
    up, down = duel(player, puzzle, solved=True)
    assert up.rating > player.rating and down.rating < puzzle.rating and up.tries == 1
    worse, harder = duel(player, puzzle, solved=False)
    assert worse.rating < player.rating and harder.rating > puzzle.rating


def test_the_next_puzzle_is_untried_near_the_players_rating_and_of_the_wanted_kind() -> None:
    puzzles = {str(r): Belief.of_puzzle(r) for r in range(800, 2400, 20)}
    player = Belief(rating=1700)
    rng = Random(1)
    picks = {next_puzzle(player, puzzles, {"1700"}, rng) for _ in range(50)}
    assert "1700" not in picks
    assert all(abs(int(p or 0) - 1700) <= 60 for p in picks)
    assert next_puzzle(player, puzzles, set(puzzles), rng) is None
    even = {next_puzzle(player, puzzles, (), rng, lambda i: int(i) % 40 == 0)
            for _ in range(30)}
    assert all(int(p or 1) % 40 == 0 for p in even)


def test_a_streak_rises_and_never_repeats() -> None:
    puzzles = {str(r): Belief.of_puzzle(r) for r in range(600, 2600, 10)}
    rng, given = Random(1), []
    for solved in range(20):
        ident = streak_puzzle(solved, puzzles, given, rng)
        assert ident is not None and ident not in given
        given.append(ident)
    ratings = [int(ident) for ident in given]
    assert ratings[-1] - ratings[0] > 1000 and len(set(given)) == 20
