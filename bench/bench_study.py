"""Exhaustive Caravan speed for `chuko study caravan --exact`, in one
run on the same fixed shards of the standard pack (every STRIDE-th shard):
- distinct deals per second on one core (solving in this process), the baseline;
- the same shards through the local-process backend with --jobs 1 and 2 (wall clock,
  processes started included), and the speed-up of 2 over 1;
- the enumeration's overhead: enumerating the shards' deals alone against solving the
  same deals alone (already enumerated), which should stay under 10%;
- Crossroads' distinct deals per second on one core, and what the exact run of a pack of
  twelve distinct classes (39,916,800 distinct deals for standard) would take on N cores.

Each figure is the median of RUNS runs. The machine may be shared: the load average is
printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import time
from statistics import median

RUNS = 3
STRIDE = 60  # shards of the standard pack: 141 of 8,460, about 660,000 distinct deals


def parser() -> argparse.ArgumentParser:
    """No options: its sizes are the constants above."""
    return argparse.ArgumentParser(prog="python -m bench study",
                                   description=__doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    parser().parse_args(argv or [])
    try:
        from chuko.analysis.study import backends, caravan, crossroads
        from chuko.analysis.study.layout import read_pack
    except ImportError as error:
        print(f"The study's exact solving needs numba ({error.name}): pip install 'chuko[fast]'.")
        return
    pack = read_pack("standard")
    shards = list(range(0, len(pack.shards), STRIDE))
    work = caravan.exact_work(pack, shard=(0, STRIDE))
    work.solve(shards[:1])  # compile, or load numba's cache
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"standard pack, {len(shards)} of {len(pack.shards):,} shards; medians of {RUNS} runs")

    enumerate_s, solve_s, count = [], [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        made = [pack.deals(s) for s in shards]
        enumerate_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        for deals, _ in made:
            if len(deals):
                caravan.least_limits(deals, pack.match)
        solve_s.append(time.perf_counter() - start)
        count = sum(len(deals) for deals, _ in made)
    rate = count / median(solve_s)
    print(f"Caravan, least limit of {count:,} distinct deals, one core: "
          f"{rate:,.0f} deals/s solving alone")
    print(f"  enumeration alone {median(enumerate_s):.3f} s against solving alone "
          f"{median(solve_s):.3f} s: overhead {median(enumerate_s) / median(solve_s):.1%}")
    whole = 39_916_800
    print(f"  all {whole:,} distinct deals of standard at this pace: "
          f"{whole / rate / 60:.1f} min on one core, {whole / rate / 120:.1f} min on two")

    start = time.perf_counter()
    backends.run(caravan.exact_work(pack, shard=(shards[-1], len(pack.shards))), jobs=2)
    startup = time.perf_counter() - start  # two processes started for one small shard
    print(f"  starting two worker processes (spawn, numba's cache): about {startup:.2f} s")
    walls = {}
    for jobs in (1, 2):
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            backends.run(work, jobs=jobs)
            times.append(time.perf_counter() - start)
        walls[jobs] = median(times)
        print(f"  backend local, --jobs {jobs}: {walls[jobs]:.2f} s, "
              f"{count / walls[jobs]:,.0f} deals/s ({count / walls[jobs] / jobs:,.0f} per core)")
    print(f"  speed-up of --jobs 2 over --jobs 1: {walls[1] / walls[2]:.2f}×, "
          f"{walls[1] / max(walls[2] - startup, 1e-9):.2f}× without the start-up")

    cross = crossroads.exact_work(pack, shard=(0, len(pack.shards)))
    small = [5275]  # 360 distinct deals
    cross.solve(small)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        cross.solve(small)
        times.append(time.perf_counter() - start)
    deals = len(pack.deals(small[0])[0])
    cross_rate = deals / median(times)
    print(f"Crossroads, value of {deals} distinct deals, one core: {cross_rate:,.0f} deals/s")
    for cores in (2, 64, 512):
        print(f"  exact standard ({whole:,} distinct deals) on {cores} cores: "
              f"{whole / cross_rate / cores / 60:,.1f} min")
