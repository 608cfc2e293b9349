"""`chuko arena GAME`: every bot level against every other, with ratings.

Each pair of levels plays `--games` games through `chuko.analysis.simulate`, the seats
rotating each game. With more than two seats the two levels alternate round the table (and,
with an odd number of seats, each starts half the games), and a game counts for the level
whose bot won it; no winner, or winners of both levels, is a draw.

A solitaire has no opponent, so its arena plays every level on the same deals and compares
them deal by deal: a level beats another on a deal it wins and the other loses, and both
winning or both losing is a draw. Its table also gives each level's win rate.

Ratings are Elo points on the Bradley–Terry model (a level rated 400 above another scores
10 to 1 against it), fitted to all the pairings at once with draws as half a win and one
virtual draw per pairing, which keeps a level that never lost finite. The first level
listed (`random` where the game has it) is the zero. The 95% intervals come from a
bootstrap that resamples the games (a solitaire's deals) and fits again.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from random import Random
from typing import Any

from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate import _positive, add_budget_arguments, read_budget, simulate
from chuko.analysis.stats import Interval, proportion_interval
from chuko.bots import make_bot
from chuko.console import (
    add_option_flags,
    console,
    game_from_flags,
    option_values,
    print_table,
)
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.rng import make_rng
from chuko.core.words import bot_name, seat_names
from chuko.games import game_class

HELP: dict[str, str] = {}
BOOTSTRAP = 1000
ITERATIONS = 1000  # at most, of the Bradley–Terry fit; it stops once no strength moves
SETTLED = 1e-7  # relative change: well below 0.01 Elo


@dataclass
class Pairing:
    """Games between levels `a` and `b`, each game's result for `a`: 1 won, 0.5 drawn, 0 lost.
    A solitaire pairing compares the two levels deal by deal."""

    a: str
    b: str
    results: list[float]

    def count(self, result: float) -> int:
        return self.results.count(result)

    def to_json(self) -> Json:
        n = len(self.results)
        score = proportion_interval(round(2 * sum(self.results)), 2 * n) if n else None
        return {"a": self.a, "b": self.b, "games": n, "wins_a": self.count(1.0),
                "wins_b": self.count(0.0), "draws": self.count(0.5),
                "score_a": score.to_json() if score else None}


# -- ratings --------------------------------------------------------------------------------

def fit_elo(levels: Sequence[str], scores: dict[tuple[int, int], tuple[float, int]]) -> list[float]:
    """Elo ratings from (i, j) → (i's score against j, games), i < j, the first level at 0.
    Hunter's minorisation–maximisation for Bradley–Terry; one virtual draw per pairing."""
    count = len(levels)
    won = [0.0] * count
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score, n) in scores.items():
        won[i] += score + 0.5
        won[j] += n - score + 0.5
        games[i, j] = games[j, i] = n + 1.0
    strength = [1.0] * count
    for _ in range(ITERATIONS):
        new = []
        for i in range(count):
            pace = sum(n / (strength[i] + strength[j]) for (k, j), n in games.items() if k == i)
            new.append(won[i] / pace if pace else strength[i])
        moved = max(abs(n / s - 1) for n, s in zip(new, strength, strict=True))
        strength = new
        if moved < SETTLED:
            break
    return [400 * math.log10(s / strength[0]) for s in strength]


def pair_scores(pairings: Sequence[Pairing], levels: Sequence[str],
                results: Callable[[Pairing], Sequence[float]] = lambda p: p.results,
                ) -> dict[tuple[int, int], tuple[float, int]]:
    index = {level: i for i, level in enumerate(levels)}
    found = {}
    for pairing in pairings:
        got = results(pairing)
        i, j = index[pairing.a], index[pairing.b]
        score = sum(got)
        found[(i, j) if i < j else (j, i)] = (score if i < j else len(got) - score, len(got))
    return found


@dataclass
class Ratings:
    levels: list[str]
    elo: list[float]
    intervals: list[Interval]
    resamples: int


def rate(levels: Sequence[str], pairings: Sequence[Pairing], rng: Random, *,
         shared_deals: bool, resamples: int = BOOTSTRAP) -> Ratings:
    """Elo ratings with 95% bootstrap intervals (percentiles). Games of different pairings
    are independent and resampled apart; a solitaire's pairings share their deals, so the
    deals are resampled once for all of them."""
    elo = fit_elo(levels, pair_scores(pairings, levels))
    draws: list[list[float]] = [[] for _ in levels]
    for _ in range(resamples):
        if shared_deals:
            n = len(pairings[0].results)
            picked = [rng.randrange(n) for _ in range(n)]

            def deals(pairing: Pairing, picked: list[int] = picked) -> list[float]:
                return [pairing.results[k] for k in picked]

            again = pair_scores(pairings, levels, deals)
        else:
            again = pair_scores(pairings, levels,
                                lambda p: rng.choices(p.results, k=len(p.results)))
        for i, value in enumerate(fit_elo(levels, again)):
            draws[i].append(value)
    intervals = []
    for value, sample in zip(elo, draws, strict=True):
        sample.sort()
        low = sample[int(0.025 * (resamples - 1))] if sample else -math.inf
        high = sample[math.ceil(0.975 * (resamples - 1))] if sample else math.inf
        intervals.append(Interval(value, min(low, value), max(high, value)))
    return Ratings(list(levels), elo, intervals, resamples)


# -- playing --------------------------------------------------------------------------------

def _simulate(game: Game, lineup: list[str], games: int, rng: Random, *,
              budget: dict[str, Any], on_result: Callable[[int, State, list[str]], None],
              advance: Callable[[int], None]) -> None:
    """`simulate`, with the search budget for the bots that take one; a lineup of bots that
    take none (random against easy) plays without, as `simulate` refuses a budget nobody
    takes before it deals."""
    takes = budget and any(_takes_budget(game.id, level, budget) for level in lineup)
    simulate(game, lineup, games, rng, budget=budget if takes else None, on_result=on_result,
             advance=advance)


def _takes_budget(game_id: str, level: str, budget: dict[str, Any]) -> bool:
    try:
        make_bot(game_id, level, Random(0), **budget)
    except (ConfigError, TypeError):
        return False
    return True


def _team_result(state: State, names: list[str], level_of: dict[str, str], a: str) -> float:
    outcome = state.outcome
    assert outcome is not None
    sides = {level_of[names[seat]] for seat in outcome.winners}
    return 0.5 if len(sides) != 1 else 1.0 if a in sides else 0.0


def play_pairing(game: Game, a: str, b: str, games: int, rng: Random,
                 budget: dict[str, Any], advance: Callable[[int], None]) -> Pairing:
    """`games` games between levels `a` and `b`, alternating round the table; with an odd
    number of seats each level starts half of them, so neither holds more seats overall."""
    players = game.players
    starts = [(a, b)] if players % 2 == 0 else [(a, b), (b, a)]
    results: list[float] = []
    for number, (first, second) in enumerate(starts):
        lineup = [first if seat % 2 == 0 else second for seat in range(players)]
        names = seat_names([bot_name(level) for level in lineup])
        level_of = dict(zip(names, lineup, strict=True))
        share = games // len(starts) + (number < games % len(starts))

        def record(_index: int, state: State, seated: list[str],
                   level_of: dict[str, str] = level_of) -> None:
            results.append(_team_result(state, seated, level_of, a))

        _simulate(game, lineup, share, Random(rng.getrandbits(64)), budget=budget,
                  on_result=record, advance=advance)
    return Pairing(a, b, results)


def play_solitaire(game: Game, levels: Sequence[str], games: int, rng: Random,
                   budget: dict[str, Any], advance: Callable[[int], None],
                   ) -> tuple[dict[str, list[bool]], list[Pairing]]:
    """Every level on the same `games` deals (each run seeded alike, and a lineup of one bot
    draws the same numbers before each deal); the pairings compare them deal by deal."""
    seed = rng.getrandbits(64)
    won: dict[str, list[bool]] = {}
    for level in levels:
        wins: list[bool] = []

        def record(_index: int, state: State, _names: list[str], wins: list[bool] = wins) -> None:
            wins.append(bool(state.outcome and state.outcome.winners))

        _simulate(game, [level], games, Random(seed), budget=budget, advance=advance,
                  on_result=record)
        won[level] = wins
    pairings = [Pairing(a, b, [0.5 if x == y else float(x) for x, y in zip(won[a], won[b],
                                                                            strict=True)])
                for a, b in combinations(levels, 2)]
    return won, pairings


@dataclass
class Arena:
    game: Game
    options: Json
    levels: list[str]
    games: int
    seed: int | None
    pairings: list[Pairing]
    ratings: Ratings
    win_rates: dict[str, list[bool]] | None  # a solitaire's wins per level and deal

    def to_json(self) -> Json:
        rates = None
        if self.win_rates is not None:
            rates = [{"level": level, "wins": sum(w), "games": len(w),
                      **proportion_interval(sum(w), len(w)).to_json()}
                     for level, w in self.win_rates.items()]
        return {
            "game": self.game.id, "options": self.options, "players": self.game.players,
            "levels": self.levels, "games": self.games, "seed": self.seed,
            "rating": (f"Elo (Bradley-Terry, draws as half a win, one virtual draw per "
                       f"pairing), {self.levels[0]} = 0; 95% bootstrap interval over "
                       f"{self.ratings.resamples} resamples"),
            "ratings": [{"level": level, "elo": round(value, 1),
                         "low": round(found.low, 1), "high": round(found.high, 1)}
                        for level, value, found in zip(self.levels, self.ratings.elo,
                                                       self.ratings.intervals, strict=True)],
            "pairings": [p.to_json() for p in self.pairings],
            "win_rates": rates,
        }


def arena(game: Game, levels: Sequence[str], games: int, seed: int | None, *,
          options: Json | None = None, budget: dict[str, Any] | None = None,
          resamples: int = BOOTSTRAP,
          advance: Callable[[int], None] = lambda n: None) -> Arena:
    """Play the arena: every pair of `levels`, or every level on the same deals for a
    solitaire, and rate them."""
    if len(levels) < 2:
        raise ConfigError("An arena needs at least two bot levels.")
    rng = make_rng(seed)
    budget = budget or {}
    won = None
    if game.players == 1:
        won, pairings = play_solitaire(game, levels, games, rng, budget, advance)
    else:
        pairings = [play_pairing(game, a, b, games, rng, budget, advance)
                    for a, b in combinations(levels, 2)]
    ratings = rate(levels, pairings, Random(rng.getrandbits(64)), shared_deals=won is not None,
                   resamples=resamples)
    return Arena(game, options or {}, list(levels), games, seed, pairings, ratings, won)


# -- output ---------------------------------------------------------------------------------

def print_arena(result: Arena) -> None:
    game = result.game
    what = ("every level on the same deals" if result.win_rates is not None else
            "every pair of levels, the seats rotating")
    console.print(f"[bold]{game.title}[/] arena: {result.games:,} games for {what}.")
    columns = ["Bot", "Elo", "95% interval"]
    if result.win_rates is not None:
        columns.append("Wins")
    order = sorted(range(len(result.levels)), key=lambda i: -result.ratings.elo[i])
    rows = []
    for i in order:
        level, found = result.levels[i], result.ratings.intervals[i]
        cells = [bot_name(level), f"{found.estimate:+.0f}",
                 f"[{found.low:+.0f}, {found.high:+.0f}]"]
        if result.win_rates is not None:
            wins = result.win_rates[level]
            cells.append(proportion_interval(sum(wins), len(wins)).percent())
        rows.append(cells)
    print_table("Ratings (Elo, 95% bootstrap interval)", columns, rows,
                right=range(1, len(columns)))
    against: dict[tuple[str, str], str] = {}
    for pairing in result.pairings:
        n = len(pairing.results)
        score = sum(pairing.results)
        against[pairing.a, pairing.b] = f"{score / n:.0%}" if n else "–"
        against[pairing.b, pairing.a] = f"{(n - score) / n:.0%}" if n else "–"
    print_table("Score of the row's bot against the column's (wins, half the draws)",
                ["", *map(bot_name, result.levels)],
                [[bot_name(row), *(against.get((row, col), "") for col in result.levels)]
                 for row in result.levels],
                right=range(1, len(result.levels) + 1))
    console.print(f"The first level, {bot_name(result.levels[0])}, is rated 0.")


def plot_arena(result: Arena, path: str) -> None:
    """The ratings with their intervals as a chart (SVG, PNG or PDF by the file's name)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable, selectable

    order = sorted(range(len(result.levels)), key=lambda i: result.ratings.elo[i])
    names = [bot_name(result.levels[i]) for i in order]
    values = [result.ratings.elo[i] for i in order]
    lows = [values[k] - result.ratings.intervals[i].low for k, i in enumerate(order)]
    highs = [result.ratings.intervals[i].high - values[k] for k, i in enumerate(order)]
    figure, axes = plt.subplots(figsize=(6, 0.6 * len(names) + 1.4))
    axes.errorbar(values, range(len(names)), xerr=[lows, highs], fmt="o", capsize=4)
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel(f"Elo ({bot_name(result.levels[0])} = 0), 95% bootstrap interval")
    axes.set_title(f"{result.game.title}: bot ratings from {result.games:,} games a pairing")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"Cannot write the plot {path}: {error}.") from None
    finally:
        plt.close(figure)


# -- the command ----------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    parser.description = (f"Every bot level of {described.title} against every other, the "
                          "seats rotating; Elo ratings with 95% bootstrap intervals.")
    add_option_flags(parser, described)
    parser.add_argument("--levels", default=",".join(described.levels), metavar="LEVELS",
                        help=f"the levels to rate, separated by commas (default "
                             f"{','.join(described.levels)})")
    parser.add_argument("--games", type=_positive(int), default=100, metavar="N",
                        help="games per pairing (default 100)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed for a reproducible run")
    add_budget_arguments(parser)
    parser.add_argument("--plot", metavar="FILE", help="draw the ratings to FILE (.svg, .png)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def read_levels(text: str, game_id: str) -> list[str]:
    known = game_class(game_id).descriptor.levels
    levels = [w.strip().lower() for w in text.split(",") if w.strip()]
    for level in levels:
        if level not in known:
            raise ConfigError(f"There is no {level!r} bot; choose from {', '.join(known)}.")
    if len(set(levels)) != len(levels):
        raise ConfigError("--levels names a level twice.")
    return levels


def run(args: argparse.Namespace) -> int:
    game = game_from_flags(args, bots_only=True)
    levels = read_levels(args.levels, game.id)
    if len(levels) < 2:
        raise ConfigError("An arena needs at least two bot levels.")
    budget = read_budget(args)
    pairs = len(levels) if game.players == 1 else math.comb(len(levels), 2)
    with progress_bar(pairs * args.games, f"{game.title} arena") as advance:
        result = arena(game, levels, args.games, args.seed,
                       options=game.descriptor.read_options(option_values(args)), budget=budget,
                       advance=advance)
    if args.plot:
        plot_arena(result, args.plot)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_arena(result)
    return 0
