"""Exact solving speed of the layout games, on fixed seeded sets of
random deals, all in this process, in deals per second: a plain memoised depth-first
search (the baseline, written here); the pure-Python solvers; the same solvers backed by
the numba kernels, one deal at a time through their public API (as `chuko solve` uses
them); and the kernels' batch functions over a numpy array of deals.

The baseline memoises on the literal state that decides the future: the cards left in
each row, the literal end cards (for Caravan with their face), bridges used; no card
classes, no unordered ends, no move ordering. (Memoising on whole trails instead makes
Crossroads infeasible: its states are then as many as its ~35 million move sequences.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from math import gcd
from random import Random

from chuko.core.layout import COLUMNS, ROWS
from chuko.core.packs import PACKS
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver
from chuko.solvers.reference import BACKEND as REFERENCE

Rows = tuple[tuple[int, ...], ...]


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


def batch_rate(solve_batch: Callable, batch: list[tuple[int, ...]]) -> tuple:
    import numpy as np  # only with the kernels, which need numba (and so numpy)

    array = np.array(batch, dtype=np.int64)
    start = time.perf_counter()
    results = solve_batch(array)
    return len(batch) / (time.perf_counter() - start), [r.item() for r in results]


def report(name: str, deals: list[tuple[int, ...]], rows: list[tuple], summary: Callable) -> None:
    """rows: (label, deal count, rate function, solver) with the baseline first; every row's
    answers must agree with the rows before it on the deals they share."""
    print(name)
    answers: list = []
    base = pure = 0.0
    for label, count, measure, solver in rows:
        speed, results = measure(solver, deals[:count])
        shared = min(len(answers), len(results))
        if results[:shared] != answers[:shared]:
            raise SystemExit(f"{name}: {label} disagrees with the rows above")
        answers = results if len(results) > len(answers) else answers
        base = base or speed
        pure = speed if label == "pure solver" else pure
        ratios = f"{speed / base:6.1f}× baseline" if speed != base else ""
        if pure and speed != pure:
            ratios += f", {speed / pure:5.1f}× pure"
        print(f"  {label:<16} {speed:>9,.0f} deals/s  ({count:>7,} deals)  {ratios}".rstrip())
    print(f"  {summary(answers)}")


def parser() -> argparse.ArgumentParser:
    """No options: its sizes are the constants above."""
    return argparse.ArgumentParser(prog="python -m bench layout",
                                   description=__doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    parser().parse_args(argv or [])
    try:
        from chuko.solvers import kernels
    except ImportError:
        kernels = None
        print("The compiled kernels need numba: pip install 'chuko[fast]'.")
    if kernels is not None:
        start = time.perf_counter()
        kernels.warm_up()
        print(f"kernels ready in {time.perf_counter() - start:.2f} s (compiled or from cache)")

    def winnable_share(results: list) -> str:
        return f"{sum(results) / len(results):.1%} of {len(results):,} deals winnable"

    # name: pack, bridges, seed, deals for (baseline, pure, compiled solver, batch kernel)
    caravan_sets = {
        "Caravan, plain pack, 2 bridges": ("plain", 2, 1, (1_000, 4_000, 20_000, 100_000)),
        "Caravan, standard pack, 0 bridges": ("standard", 0, 2, (2_000, 10_000, 40_000, 200_000)),
    }
    for name, (pack, bridges, seed, sizes) in caravan_sets.items():
        rows = [
            ("baseline", sizes[0], rate, lambda d, b=bridges: baseline_caravan(d, b)),
            ("pure solver", sizes[1], rate,
             lambda d, b=bridges: CaravanSolver(d, b, backend=REFERENCE).fresh()),
        ]
        if kernels is not None:
            rows += [
                ("compiled solver", sizes[2], rate,
                 lambda d, b=bridges: CaravanSolver(d, b, backend=kernels.BACKEND).fresh()),
                ("batch kernel", sizes[3], batch_rate,
                 lambda a, b=bridges: kernels.caravan_winnable_batch(a, b)),
            ]
        report(name, deals(pack, max(sizes), seed), rows, winnable_share)

    def mean_value(results: list) -> str:
        return f"mean value for the first player {sum(results) / len(results):+.3f} " \
            f"over {len(results):,} deals"

    sizes = (10, 200, 2_000, 5_000)
    rows = [
        ("baseline", sizes[0], rate, baseline_crossroads),
        ("pure solver", sizes[1], rate,
         lambda d: CrossroadsSolver(d, backend=REFERENCE).fresh_value()),
    ]
    if kernels is not None:
        rows += [
            ("compiled solver", sizes[2], rate,
             lambda d: CrossroadsSolver(d, backend=kernels.BACKEND).fresh_value()),
            ("batch kernel", sizes[3], batch_rate, kernels.crossroads_values_batch),
        ]
    report("Crossroads, standard pack, one round", deals("standard", max(sizes), 3), rows,
           mean_value)
