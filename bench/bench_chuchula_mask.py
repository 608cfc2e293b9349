"""Chuchula's stepwise mask (games/encodings/chuchula.py): the time of each step's
`legal_mask` while a grouping is built a card at a time with random legal steps, median per
step over fresh hands, against the seat's `view` (which every environment step also builds)
as the baseline in the same run. The process's first mask is reported apart: it pays for
anything built once per process."""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

import numpy as np

from chuko.games.chuchula import Game
from chuko.games.encodings.chuchula import encoding

SEED = 2026


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench chuchula_mask")
    parser.add_argument("--hands", type=int, default=200)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv or [])
    game = Game(players=4, length=100)
    code, rng = encoding(game), Random(SEED)
    steps: list[list[float]] = [[] for _ in range(12)]
    cpu: list[list[float]] = [[] for _ in range(12)]  # this thread's CPU: apart from load
    views: list[float] = []
    first: float | None = None
    for number in range(args.hands):
        state = game.new(seed=SEED + number)
        seat = number % game.players
        partial = None
        for step in range(12):
            start, used = time.perf_counter(), time.thread_time()
            mask = code.legal_mask(state, seat, partial)
            took = time.perf_counter() - start
            if first is None:
                first = took
            else:
                steps[step].append(took)
                cpu[step].append(time.thread_time() - used)
            start = time.perf_counter()
            state.view(seat)
            views.append(time.perf_counter() - start)
            partial, move = code.step_move(partial, int(rng.choice(np.flatnonzero(mask))))
        assert move is not None
    print(f"legal_mask per step, {args.hands} hands, random legal steps (ms):")
    print("  step  median    p90     max   CPU median")
    for step, (times, used) in enumerate(zip(steps, cpu, strict=True), 1):
        ordered = sorted(times)
        print(f"  {step:4d}  {statistics.median(times) * 1e3:6.3f} "
              f"{ordered[int(0.9 * len(ordered))] * 1e3:7.3f} {ordered[-1] * 1e3:7.1f} "
              f"{statistics.median(used) * 1e3:9.3f}")
    every = [t for times in steps for t in times]
    print(f"  all steps: median {statistics.median(every) * 1e3:.3f} ms, mean "
          f"{statistics.fmean(every) * 1e3:.3f} ms (goal: every step's median well under 1 ms)")
    print(f"  the process's first mask: {(first or 0) * 1e3:.1f} ms")
    print(f"  baseline, view(seat): median {statistics.median(views) * 1e3:.3f} ms")
