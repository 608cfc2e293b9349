"""The lobby under load, part by part (`PARTS`, each printing its own figures):

- heads-up wave: one wave of quick pairing (`chuko.server.pairing.pair_heads_up`) on
  10,000 players waiting in one heads-up pool, timed in this process; goal under 200 ms.
  The pool is seeded and, we take it, what a big pool looks like: ratings ~ N(1500, 300) on
  the display scale the window assumes, waits uniform over 0–60 s (windows from
  `pairing.window`: 50 points at once, +10 a second, 500 from 45 s on). Printed: the median
  of several waves on the same pool and the pairs made; then, over pools of the same kind
  (other seeds), how many a proof spares the exact sweep (see pairing's module docstring)
  and the slowest single wave.

    python -m bench lobby [--players 10000] [--runs 7] [--seeds 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from random import Random

from chuko.server import pairing
from chuko.server.pairing import Waiting, pair_heads_up
from chuko.server.pairing_line import certified, has_partner, parts

GOAL_MS = 200.0
NOW = 10_000.0


def big_pool(players: int, seed: int) -> list[Waiting]:
    """A heads-up pool of the documented kind, seeded."""
    rng = Random(seed)
    return [Waiting(f"p{i}", rng.gauss(1500.0, 300.0), NOW - rng.uniform(0.0, 60.0))
            for i in range(players)]


def proved(pool: list[Waiting]) -> bool:
    """Whether every part of the pool's wave is settled by the parity bound's proof."""
    line = sorted(pool, key=lambda p: (p.rating, p.player))
    t = [p.rating for p in line]
    w = [pairing.window(NOW - p.since) for p in line]
    met = [i for i in range(len(t)) if has_partner(t, w, i)]
    found = parts([t[i] for i in met], [w[i] for i in met])
    return all(certified([t[met[i]] for i in part], [w[met[i]] for i in part])
               is not None for part in found)


def heads_up_wave(options: argparse.Namespace) -> None:
    pool = big_pool(options.players, seed=0)
    times, pairs = [], []
    for _ in range(options.runs):
        start = time.perf_counter()
        pairs = pair_heads_up(pool, NOW)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    verdict = "within" if median < GOAL_MS else "OVER"
    print(f"heads-up wave, {options.players:,} waiting: median {median:.1f} ms of "
          f"{options.runs} (min {min(times):.1f}, max {max(times):.1f}); {len(pairs):,} pairs; "
          f"goal {GOAL_MS:.0f} ms: {verdict}")
    spared, slowest = 0, (0.0, 0)
    for seed in range(options.seeds):
        pool = big_pool(options.players, seed)
        spared += proved(pool)
        start = time.perf_counter()
        pair_heads_up(pool, NOW)
        slowest = max(slowest, ((time.perf_counter() - start) * 1000, seed))
    print(f"  over {options.seeds} seeded pools of the kind: the parity bound proves every part "
          f"of {spared}; slowest wave {slowest[0]:.1f} ms (seed {slowest[1]})")


# The lobby's parts, in order: (name, function of the parsed options).
PARTS: list[tuple[str, Callable[[argparse.Namespace], None]]] = [
    ("heads-up wave", heads_up_wave),
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench lobby")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=20)
    options = parser.parse_args(argv or [])
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, part in PARTS:
        print(f"-- {name}", flush=True)
        part(options)


if __name__ == "__main__":
    main()
