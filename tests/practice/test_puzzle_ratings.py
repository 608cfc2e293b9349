"""Puzzle ratings move the right way: on a simulated population of solvers of known
strength, after a few thousand tries the players' ratings order like their strengths and
the puzzles' like their difficulties."""

from __future__ import annotations

import math
from random import Random

from chuko.practice.puzzle_ratings import Belief, duel, mu_of, next_puzzle, shown


def ranks(values: list[float]) -> list[int]:
    order = sorted(range(len(values)), key=values.__getitem__)
    return [order.index(i) for i in range(len(values))]


def spearman(xs: list[float], ys: list[float]) -> float:
    """Rank correlation (no ties among these continuous values)."""
    n, a, b = len(xs), ranks(xs), ranks(ys)
    return 1 - 6 * sum((i - j) ** 2 for i, j in zip(a, b, strict=True)) / (n * (n * n - 1))


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


def test_ratings_order_like_strengths_and_difficulties_after_a_few_thousand_tries() -> None:
    strengths, players, difficulties, puzzles = simulate(4000)
    assert spearman(strengths, [p.mu for p in players]) > 0.85
    tried = [i for i, b in puzzles.items() if b.tries >= 5]
    assert len(tried) > 150
    assert spearman([difficulties[int(i)] for i in tried], [puzzles[i].mu for i in tried]) > 0.7


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Belief(), Belief.of_puzzle(1600)
    up, down = duel(player, puzzle, solved=True)
    assert up.mu > player.mu and down.mu < puzzle.mu and up.tries == 1
    worse, harder = duel(player, puzzle, solved=False)
    assert worse.mu < player.mu and harder.mu > puzzle.mu


def test_the_next_puzzle_is_untried_and_near_the_players_rating() -> None:
    puzzles = {str(r): Belief.of_puzzle(r) for r in range(800, 2400, 20)}
    player = Belief(mu=mu_of(1700))
    rng = Random(1)
    picks = {next_puzzle(player, puzzles, {"1700"}, rng) for _ in range(50)}
    assert "1700" not in picks
    assert all(abs(int(p or 0) - 1700) <= 60 for p in picks)
    assert next_puzzle(player, puzzles, set(puzzles), rng) is None
    assert shown(mu_of(1234)) == 1234
