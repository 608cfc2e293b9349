"""Tournament pairing under load, timed in this process; goal under 200 ms each:

- a Swiss round (`chuko.server.tournament.swiss.pair_round`) of 2,000 players in a
  realistic state: ratings ~ N(1500, 300), rounds 1-5 paired by `pair_round` itself and
  played with seeded results (the stronger player's chance by the Elo curve, one game in
  ten drawn), then round 6 timed. One untimed pairing first loads networkx, as a server's
  first repeated pair would;
- an arena's wave (`chuko.server.tournament.arena.pair_wave`) of 10,000 waiting players:
  points uniform over 0-40, ratings ~ N(1500, 300), waits uniform over 0-60 s, and each
  player's last opponent another of them (two by two), so the rule against meeting them
  again applies throughout.

Each figure is the median of `--runs` runs on the same state (at least 5); the Swiss round
is timed on `--seeds` states, with how many repeated pairs its fold left to blossom, and
its figure is the slowest of their medians.

    python -m bench tournament [--swiss 2000] [--rounds 5] [--arena 10000] [--runs 7]
                               [--seed 0] [--seeds 5] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from random import Random

from chuko.server.tournament.arena import ArenaWaiting, pair_wave
from chuko.server.tournament.swiss import Entrant, fold, pair_round, round_order

GOAL_MS = 200.0
DRAWS = 0.1


def played(entrants: list[Entrant], rng: Random) -> list[Entrant]:
    """The entrants after one round paired by `pair_round` and played with seeded results."""
    found = pair_round(entrants)
    by_id = {e.id: e for e in entrants}
    gained: dict[str, float] = {}
    met: dict[str, str] = {}
    for a, b in found.pairs:
        chance = 1 / (1 + 10 ** ((by_id[b].rating - by_id[a].rating) / 400))
        roll = rng.random()
        gained[a] = 0.5 if roll < DRAWS else 1.0 if roll < DRAWS + (1 - DRAWS) * chance else 0.0
        gained[b] = 1.0 - gained[a]
        met[a], met[b] = b, a
    if found.bye is not None:
        gained[found.bye] = 1.0
    return [Entrant(e.id, e.score + gained[e.id], e.rating,
                    e.opponents | ({met[e.id]} if e.id in met else set()),
                    e.had_bye or e.id == found.bye) for e in entrants]


def swiss_state(players: int, rounds: int, seed: int) -> list[Entrant]:
    """`players` after `rounds` rounds, seeded."""
    rng = Random(seed)
    entrants = [Entrant(f"p{k}", 0.0, rng.gauss(1500.0, 300.0), frozenset(), False)
                for k in range(players)]
    for _ in range(rounds):
        entrants = played(entrants, rng)
    return entrants


def arena_state(players: int, seed: int) -> list[ArenaWaiting]:
    """`players` waiting in an arena, seeded, each with another of them as last opponent."""
    rng = Random(seed)
    ids = [f"p{k}" for k in range(players)]
    shuffled = rng.sample(ids, players)
    last = dict(zip(shuffled[0::2], shuffled[1::2], strict=False))
    last |= {b: a for a, b in last.items()}
    return [ArenaWaiting(p, rng.randrange(41), rng.gauss(1500.0, 300.0), last.get(p),
                         rng.uniform(0.0, 60.0)) for p in ids]


def median_ms(run: Callable[[], object], runs: int) -> tuple[float, float, float]:
    """The median, least and most wall milliseconds of `runs` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def repeats_left(entrants: list[Entrant], bye: str | None) -> int:
    """How many pairs of the round's fold repeat a game (each paired in a part by blossom)."""
    ordered = round_order([e for e in entrants if e.id != bye])
    partner = fold([round(2 * e.score) for e in ordered],
                   lambda a, b: ordered[b].id in ordered[a].opponents)
    return sum(a < b and ordered[b].id in ordered[a].opponents for a, b in enumerate(partner))


def swiss_figures(options: argparse.Namespace) -> list[dict]:
    """The Swiss round's figures, one for each seed."""
    found = []
    for seed in range(options.seed, options.seed + options.seeds):
        entrants = swiss_state(options.swiss, options.rounds, seed)
        start = time.perf_counter()
        first = pair_round(entrants)
        first_ms = (time.perf_counter() - start) * 1000
        median, least, most = median_ms(lambda e=entrants: pair_round(e), options.runs)
        found.append({"seed": seed, "pairs": len(first.pairs), "bye": first.bye is not None,
                      "repeats_in_fold": repeats_left(entrants, first.bye),
                      "first_ms": round(first_ms, 1), "median_ms": round(median, 1),
                      "min_ms": round(least, 1), "max_ms": round(most, 1)})
    return found


def measure(options: argparse.Namespace) -> dict[str, object]:
    """The figures of both parts."""
    swiss = swiss_figures(options)
    waiting = arena_state(options.arena, options.seed)
    median, least, most = median_ms(lambda: pair_wave(waiting), options.runs)
    slowest = max(seed["median_ms"] for seed in swiss)
    return {
        "load_average": round(os.getloadavg()[0], 2), "cores": os.cpu_count(),
        "runs": options.runs,
        "swiss": {"players": options.swiss, "round": options.rounds + 1, "seeds": swiss,
                  "slowest_median_ms": slowest, "within_goal": slowest < GOAL_MS},
        "arena": {"waiting": options.arena, "pairs": len(pair_wave(waiting)),
                  "median_ms": round(median, 1), "min_ms": round(least, 1),
                  "max_ms": round(most, 1), "within_goal": median < GOAL_MS},
    }


def report(figures: dict) -> None:
    swiss, arena = figures["swiss"], figures["arena"]
    print(f"load average {figures['load_average']:.2f} on {figures['cores']} cores")
    print(f"Swiss round {swiss['round']} of {swiss['players']:,} players, medians of "
          f"{figures['runs']} runs:")
    for seed in swiss["seeds"]:
        print(f"  seed {seed['seed']}: {seed['pairs']:,} pairs{', a bye' if seed['bye'] else ''}"
              f", {seed['repeats_in_fold']} repeats left in the fold; median "
              f"{seed['median_ms']:.1f} ms (min {seed['min_ms']:.1f}, max {seed['max_ms']:.1f};"
              f" the first, loading networkx if a repeat needs it, {seed['first_ms']:.1f})")
    print(f"  slowest median {swiss['slowest_median_ms']:.1f} ms; goal {GOAL_MS:.0f} ms: "
          f"{'within' if swiss['within_goal'] else 'OVER'}")
    print(f"arena wave of {arena['waiting']:,} waiting ({arena['pairs']:,} pairs): median "
          f"{arena['median_ms']:.1f} ms of {figures['runs']} (min {arena['min_ms']:.1f}, max "
          f"{arena['max_ms']:.1f}); goal {GOAL_MS:.0f} ms: "
          f"{'within' if arena['within_goal'] else 'OVER'}")


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench tournament")
    parser.add_argument("--swiss", type=int, default=2_000, help="players in the Swiss round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before it")
    parser.add_argument("--arena", type=int, default=10_000, help="players in the wave")
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (at least 5)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--seeds", type=int, default=5, help="Swiss states, one a seed")
    parser.add_argument("--quick", action="store_true",
                        help="200 and 1,000 players, 5 runs, 2 seeds")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = parser().parse_args(argv or [])
    if options.quick:
        options.swiss, options.arena, options.runs, options.seeds = 200, 1_000, 5, 2
    options.runs = max(5, options.runs)
    figures = measure(options)
    if options.json:
        print(json.dumps(figures))
    else:
        report(figures)
