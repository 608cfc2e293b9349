"""The lobby under load, part by part (`PARTS`, each printing its own figures):

- pairing alone: one heads-up wave of quick pairing
  (`chuko.server.lobby.pairing.waves.pair_wave`) on 10,000 players waiting in one pool,
  timed in this process; goal under 200 ms. The pool is seeded and, we take it, what a big
  pool looks like: ratings ~ N(1500, 300) on the display scale the window assumes, waits
  uniform over 0-60 s (windows from `pairing.window`: 50 points at once, +10 a second, 500
  from 45 s on). Printed: the median of several waves on one pool; then, over pools of the
  same kind (other seeds), how many the parity bound proves whole, how many waves fell back
  from the best pairing (`waves.py`'s docstring, 4) and the slowest wave; then the same over
  pools of 100 players, where parts are hard more often.
- the pairing's bounds: blossom on the hardest parts it is given (`BLOSSOM_MOST` players,
  every pair acceptable) and a sweep that runs out of its budget, with the runs it falls
  back to.
- the whole wave: the same 10,000 players in a board in memory (`lobby/board.py`), through
  `Matchmaker.claim_wave` as the lease holder runs it: the pool read, paired (in a thread)
  and every pairing recorded. The rooms of its 5,000 pairs are made afterwards, 64 at a
  time, and are not in this figure. The collector runs on the server's schedule
  (`web/collector.py`). Goal under 200 ms.
- the lobby's updates (`bench/lobby_feed.py`).

    python -m bench lobby [--players 10000] [--runs 7] [--seeds 20] [--small 100]
                          [--sockets N] [--churn N] [--seconds S] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable
from random import Random

from bench import lobby_feed
from chuko.server.lobby.board import Board
from chuko.server.lobby.kv import MemoryKv
from chuko.server.lobby.matchmaking import Matchmaker
from chuko.server.lobby.pairing import waves as pairing
from chuko.server.lobby.pairing.blossom import blossom
from chuko.server.lobby.pairing.line import certified, has_partner, parts
from chuko.server.lobby.pairing.sweep import exact
from chuko.server.lobby.pairing.waves import Waiting, pair_wave
from chuko.server.lobby.seeks import Standing
from chuko.server.web import collector

GOAL_MS = 200.0
NOW = 10_000.0
POOL = "chuko/duel"


def big_pool(players: int, seed: int) -> list[Waiting]:
    """A heads-up pool of the documented kind, seeded."""
    rng = Random(seed)
    return [Waiting(f"p{i}", rng.gauss(1500.0, 300.0), NOW - rng.uniform(0.0, 60.0))
            for i in range(players)]


def line(pool: list[Waiting]) -> tuple[list[float], list[float]]:
    ordered = sorted(pool, key=lambda p: (p.rating, p.player))
    return [p.rating for p in ordered], [pairing.window(NOW - p.since) for p in ordered]


def proved(pool: list[Waiting]) -> bool:
    """Whether every part of the pool's wave is settled by the parity bound's proof."""
    t, w = line(pool)
    met = [i for i in range(len(t)) if has_partner(t, w, i)]
    found = parts([t[i] for i in met], [w[i] for i in met])
    return all(certified([t[met[i]] for i in part], [w[met[i]] for i in part])
               is not None for part in found)


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def verdict(ms: float) -> str:
    return f"goal {GOAL_MS:.0f} ms: {'within' if ms < GOAL_MS else 'OVER'}"


def pairing_alone(options: argparse.Namespace) -> None:
    pool = big_pool(options.players, seed=0)
    runs = [timed(lambda: pair_wave(pool, NOW)) for _ in range(options.runs)]
    wave = pair_wave(pool, NOW)
    wall = statistics.median(r[0] for r in runs)
    print(f"pairing alone, {options.players:,} waiting: median {wall:.1f} ms of "
          f"{options.runs} (CPU {statistics.median(r[1] for r in runs):.1f} ms; min "
          f"{min(r[0] for r in runs):.1f}, max {max(r[0] for r in runs):.1f}); "
          f"{len(wave.pairs):,} pairs, exact: {wave.exact}; {verdict(wall)}")
    for players, seeds in ((options.players, options.seeds), (100, options.small)):
        spared, fell, slowest = 0, 0, (0.0, 0)
        for seed in range(seeds):
            pool = big_pool(players, seed)
            spared += proved(pool)
            start = time.perf_counter()
            fell += not pair_wave(pool, NOW).exact
            slowest = max(slowest, ((time.perf_counter() - start) * 1000, seed))
        print(f"  over {seeds} seeded pools of {players:,}: the parity bound proves every "
              f"part of {spared}; {fell} fell back from the best pairing; slowest wave "
              f"{slowest[0]:.1f} ms (seed {slowest[1]})")


def bounds(options: argparse.Namespace) -> None:
    most = pairing.BLOSSOM_MOST
    worst = (0.0, 0.0)
    for seed in range(5):
        rng = Random(seed)
        t = sorted(1500.0 + rng.uniform(0.0, 400.0) for _ in range(most))
        worst = max(worst, timed(lambda t=t: blossom(t, [500.0] * most)))
    print(f"blossom on a part of {most} players, every pair acceptable: slowest of 5 "
          f"{worst[0]:.0f} ms (CPU {worst[1]:.0f} ms)")
    t, w = line(big_pool(100, 19))
    budget = pairing.SWEEP_BUDGET + pairing.SWEEP_PER_PLAYER * len(t)
    ran_out = timed(lambda: exact(t, w, budget))
    whole = timed(lambda: pair_wave(big_pool(100, 19), NOW))
    print(f"the sweep on a hard part of 100 (seed 19) runs out of its budget of "
          f"{budget:,} in {ran_out[0]:.0f} ms (CPU {ran_out[1]:.0f}); "
          f"the whole wave, with the runs it falls back to, {whole[0]:.0f} ms")


async def board_of(pool: list[Waiting]) -> Matchmaker:
    """A matchmaker on a board in memory with `pool` waiting in its heads-up pool, each
    player's lobby open."""
    kv = MemoryKv(lambda: NOW)
    board = Board(kv, "bench", lambda: NOW)

    async def no_room(record: dict) -> str:
        return "room"

    async def rating(player: str, game: str, klass: str) -> Standing:
        return Standing()

    made = Matchmaker(board, no_room, rating)
    await kv.commit([], [op for p in pool for op in (
        ("hset", board.pool_key(POOL), p.player, json.dumps(
            {"player": p.player, "name": f"Guest {p.player}", "pool": POOL, "rating": p.rating,
             "since": p.since, "bots_after": None})),
        ("hset", board.where, p.player, POOL))])
    await board.touch([p.player for p in pool], NOW + 60, made.me)
    return made


def whole_wave(options: argparse.Namespace) -> None:
    pool = big_pool(options.players, seed=0)

    async def waves() -> tuple[list[tuple[float, float]], int]:
        await asyncio.to_thread(int)  # the loop's threads are up, as in a running server
        runs, claimed = [], 0
        for _ in range(options.runs):
            made = await board_of(pool)
            game_id, described = made.pools[POOL]
            wall, cpu = time.perf_counter(), time.process_time()
            claimed = len(await made.claim_wave(POOL, game_id, described))
            runs.append(((time.perf_counter() - wall) * 1000,
                         (time.process_time() - cpu) * 1000))
        return runs, claimed

    collector.start()
    try:
        runs, claimed = asyncio.run(waves())
    finally:
        collector.stop()
    wall = statistics.median(r[0] for r in runs)
    print(f"the whole wave, {options.players:,} waiting in a board in memory (read, paired, "
          f"{claimed:,} pairings recorded): median {wall:.1f} ms of {options.runs} (CPU "
          f"{statistics.median(r[1] for r in runs):.1f} ms; min {min(r[0] for r in runs):.1f}"
          f", max {max(r[0] for r in runs):.1f}); {verdict(wall)}")
    print(f"  not in it: the {claimed:,} rooms, made afterwards 64 at a time")


# The lobby's parts, in order: (name, function of the parsed options).
PARTS: list[tuple[str, Callable[[argparse.Namespace], None]]] = [
    ("pairing alone", pairing_alone),
    ("the pairing's bounds", bounds),
    ("the whole wave", whole_wave),
    ("the lobby's updates", lobby_feed.feed),
]


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench lobby")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=20, help="pools of --players")
    parser.add_argument("--small", type=int, default=100, help="pools of 100 players")
    lobby_feed.add_options(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = parser().parse_args(argv or [])
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, part in PARTS:
        print(f"-- {name}", flush=True)
        part(options)


if __name__ == "__main__":
    main()
