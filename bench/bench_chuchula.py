"""Chuchula: the advisor's time per hand (against the greedy grouping, the baseline, in the
same process) and the points per round of `hard` against three `easy` bots."""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from chuko.analysis.simulate_chuchula import simulate
from chuko.core.deck52 import DECK
from chuko.solvers.chuchula_advisor import advise, greedy_grouping, shipped_table

HANDS = 300
ROUNDS = 5000
SEED = 2026


def _times(function, hands) -> list[float]:
    times = []
    for hand in hands:
        start = time.perf_counter()
        function(hand)
        times.append(time.perf_counter() - start)
    return times


def parser() -> argparse.ArgumentParser:
    """No options: its sizes are the constants above."""
    return argparse.ArgumentParser(prog="python -m bench chuchula",
                                   description=__doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    parser().parse_args(argv or [])
    rng = Random(SEED)
    hands = [tuple(rng.sample(DECK, 13)) for _ in range(HANDS)]
    shipped_table()  # load the table outside the timing
    greedy = _times(greedy_grouping, hands)
    advisor = _times(lambda hand: advise(hand, 4), hands)
    print(f"advisor, {HANDS} random hands, 4 players:")
    print(f"  mean {statistics.fmean(advisor) * 1e3:.2f} ms, median "
          f"{statistics.median(advisor) * 1e3:.2f} ms, max {max(advisor) * 1e3:.2f} ms per hand "
          f"(goal: 50 ms)")
    print(f"  greedy grouping (baseline): mean {statistics.fmean(greedy) * 1e3:.2f} ms; "
          f"advisor/greedy = {statistics.fmean(advisor) / statistics.fmean(greedy):.2f}")

    start = time.perf_counter()
    study = simulate(["hard", "easy", "easy", "easy"], ROUNDS, seed=SEED)
    elapsed = time.perf_counter() - start
    hard, easy = study.level_interval("hard"), study.level_interval("easy")
    print(f"hard vs three easy, {ROUNDS} four-player rounds, seed {SEED} ({elapsed:.0f} s):")
    print(f"  hard: {hard} points per round")
    print(f"  easy: {easy} points per round (per easy seat)")
    for seat, level in enumerate(study.levels):
        print(f"  seat {seat} {level}: {study.seat_interval(seat)}; "
              f"games won {study.win_interval(seat).percent()}")
    verdict = "met" if hard.low > easy.estimate else "NOT met"
    print(f"  goal (hard's lower end above easy's mean): {verdict}")
