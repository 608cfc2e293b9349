"""Exact solving speed of the layout games (issue 2, item 7): deals per second for a plain
memoised depth-first search (the baseline, written here), the pure-Python solvers and the
compiled kernels, on fixed seeded sets of random deals, all in this process.

The baseline memoises on the literal state that decides the future: the cards left in
each row, the literal end cards (for Caravan with their face), bridges used; no card
classes, no unordered ends, no move ordering. (Memoising on whole trails instead makes
Crossroads infeasible: its states are then as many as its ~35 million move sequences.)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from math import gcd
from random import Random

from chuko.core.layout import COLUMNS, ROWS
from chuko.core.packs import PACKS
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver

Rows = tuple[tuple[int, ...], ...]
sys.setrecursionlimit(10_000)


def deals(pack: str, count: int, seed: int) -> list[tuple[int, ...]]:
    rng = Random(seed)
    out = []
    for _ in range(count):
        cards = list(PACKS[pack])
        rng.shuffle(cards)
        out.append(tuple(cards))
    return out


def split_rows(layout: tuple[int, ...]) -> Rows:
    return tuple(layout[r * COLUMNS : (r + 1) * COLUMNS] for r in range(ROWS))


def next_states(rows: Rows):
    """(card taken, rows after) for each row's leftmost card."""
    for r, row in enumerate(rows):
        if row:
            yield row[0], rows[:r] + (row[1:],) + rows[r + 1 :]


def baseline_caravan(layout: tuple[int, ...], bridges: int) -> bool:
    memo: dict = {}

    def win(rows: Rows, left, right, used: int) -> bool:
        # left/right: (card, face_up), None before the first card
        key = (rows, left, right, used)
        if key in memo:
            return memo[key]
        if not any(rows):
            result = left[1] and right[1]
        else:
            result = False
            for card, after in next_states(rows):
                if left is None:
                    result = win(after, (card, True), (card, True), used)
                else:
                    for end in (0, 1):
                        piece = (left, right)[end]
                        tries = []
                        if not piece[1] or gcd(card, piece[0]) > 1:
                            tries.append(((card, True), used))
                        if piece[1] and used < bridges:
                            tries.append(((card, False), used + 1))
                        for new, now_used in tries:
                            ends = (new, right) if end == 0 else (left, new)
                            if win(after, *ends, now_used):
                                result = True
                                break
                        if result:
                            break
                if result:
                    break
        memo[key] = result
        return result

    return win(split_rows(layout), None, None, 0)


def baseline_crossroads(layout: tuple[int, ...]) -> int:
    memo: dict = {}

    def future(rows: Rows, mine, theirs) -> int:
        # mine/theirs: (left card, right card) of a trail, None before its first card
        key = (rows, mine, theirs)
        if key in memo:
            return memo[key]
        if not any(rows):
            best = 0
        else:
            best = -99
            for card, after in next_states(rows):
                if mine is None:
                    value = -future(after, theirs, (card, card))
                else:
                    left, right = mine
                    value = max(
                        (gcd(card, left) > 1) - future(after, theirs, (card, right)),
                        (gcd(card, right) > 1) - future(after, theirs, (left, card)),
                    )
                best = max(best, value)
        memo[key] = best
        return best

    return future(split_rows(layout), None, None)


def rate(solve: Callable[[tuple[int, ...]], object], batch: list[tuple[int, ...]]) -> tuple:
    start = time.perf_counter()
    results = [solve(layout) for layout in batch]
    return len(batch) / (time.perf_counter() - start), results


def kernel_rate(solve_batch, batch: list[tuple[int, ...]]) -> tuple:
    import numpy as np

    array = np.array(batch, dtype=np.int64)
    solve_batch(array[:1])  # load (or compile) before timing
    start = time.perf_counter()
    results = solve_batch(array)
    return len(batch) / (time.perf_counter() - start), [r.item() for r in results]


def report(name: str, sizes: tuple[int, int, int], baseline, pure, kernel_batch, summary) -> None:
    base_rate, expected = rate(baseline, deals_for[name][: sizes[0]])
    pure_rate, pure_results = rate(pure, deals_for[name][: sizes[1]])
    print(f"{name}: {summary(pure_results)}")
    print(f"  baseline  {base_rate:>10,.0f} deals/s   ({sizes[0]:,} deals)")
    print(f"  pure      {pure_rate:>10,.0f} deals/s   ({sizes[1]:,} deals)"
          f"   {pure_rate / base_rate:5.1f}× baseline")
    if pure_results[: sizes[0]] != expected:
        raise SystemExit(f"{name}: the pure solver disagrees with the baseline")
    if kernel_batch is None:
        print("  kernel    (numba is not installed: pip install chuko[fast])")
        return
    kernel_rate_, kernel_results = kernel_rate(kernel_batch, deals_for[name][: sizes[2]])
    print(f"  kernel    {kernel_rate_:>10,.0f} deals/s   ({sizes[2]:,} deals)"
          f"   {kernel_rate_ / base_rate:5.1f}× baseline, {kernel_rate_ / pure_rate:5.1f}× pure")
    if kernel_results[: sizes[1]] != pure_results:
        raise SystemExit(f"{name}: the kernel disagrees with the pure solver")


deals_for: dict[str, list[tuple[int, ...]]] = {}


def main() -> None:
    try:
        from chuko.solvers import kernels
    except ImportError:
        kernels = None
    sets = {
        # name: (pack, seed, (baseline deals, pure deals, kernel deals))
        "caravan plain, 2 bridges": ("plain", 1, (1_000, 4_000, 100_000)),
        "caravan standard, 0 bridges": ("standard", 2, (2_000, 10_000, 200_000)),
        "crossroads standard, one round": ("standard", 3, (20, 200, 5_000)),
    }
    for name, (pack, seed, sizes) in sets.items():
        deals_for[name] = deals(pack, max(sizes), seed)
    if kernels is not None:
        start = time.perf_counter()
        kernels.caravan_winnable_batch(kernels.np.array([PACKS["plain"]]), 2)
        kernels.crossroads_values_batch(kernels.np.array([PACKS["standard"]]))
        print(f"kernels ready in {time.perf_counter() - start:.2f} s (compiled or from cache)")

    def winnable_share(results: list) -> str:
        return f"{sum(results) / len(results):.1%} winnable"

    for bridges, name in ((2, "caravan plain, 2 bridges"), (0, "caravan standard, 0 bridges")):
        report(
            name,
            sets[name][2],
            lambda layout, b=bridges: baseline_caravan(layout, b),
            lambda layout, b=bridges: CaravanSolver(layout, b).fresh(),
            None if kernels is None else lambda a, b=bridges: kernels.caravan_winnable_batch(a, b),
            winnable_share,
        )

    def mean_value(results: list) -> str:
        return f"mean value for the first player {sum(results) / len(results):+.2f}"

    name = "crossroads standard, one round"
    report(
        name,
        sets[name][2],
        baseline_crossroads,
        lambda layout: CrossroadsSolver(layout).fresh_value(),
        None if kernels is None else kernels.crossroads_values_batch,
        mean_value,
    )
