"""The web server under load: `chuko serve` (uvicorn, SQLite with group
commit) in a subprocess on loopback, driven by WebSocket clients in forked client processes
(`serverload`). Each game is a room of two human seats, Crossroads or Chükö (half each), each
seat a client that makes a room, joins it and picks any move from `legal`, as a person
would, from its own loopback address.

Reported, each as the median of `--runs` runs on a fresh server and database:
- saturated: 100 games at a time, no pause, a new room when one ends; accepted moves per
  second, and the server's CPU time per accepted move (from /proc/<pid>/stat, everything
  it does for one: HTTP to make and join rooms, sockets, engine, store, broadcast), with
  the part of it spent in the main thread (the event loop; the rest is the database writer
  and `to_thread` work);
- the echo: `echo_peer`, a bare relay on the same uvicorn/websockets stack, driven by the
  same clients with the same messages (the saturated runs' own: states, and a room's first
  log page and presence messages where the server sends them) and game lengths, each room
  made and joined by the same two HTTP requests, answered bare: its CPU per relayed move is
  the limit. Each run says how many messages the seats received per move, so that the
  relay can be seen to send as many as the server. It runs right after each saturated run,
  and the ratio (the median of the runs' ratios) says how far the server is from it. The
  relay is also run with the sockets alone, its rooms taken without HTTP, and that ratio is
  shown too;
- paced: 200 and 1,000 games at a time whose players think 1–2 s before each move; the
  p99 time from sending a move to the state that includes it.
CPU is split between the server, the clients and the rest of the machine (other work).
Each server's garbage collections in the window are timed (`gc.callbacks`) and reported per
generation: how many, the longest pause and the time paused in all.

Goals: ≥1,500 moves/s saturated; p99 < 50 ms at 200 paced games and < 100 ms at
1,000; the server within 3× the echo's per-move cost.

With `--workers N` it compares, in one run, `chuko serve --workers N` with one
worker, both on PostgreSQL (`--db`, emptied before each run) and a private `redis-server`:
the saturated and paced figures of each, side by side; the server's CPU is that of all its
worker processes (PostgreSQL's and Redis's count as other work).

    python -m bench server [--runs 3] [--quick] [--clients 2] [--profile server.prof]
    python -m bench server --memory 180   (memory under saturated play, every 15 s)
    python -m bench server --workers 2 --db postgresql://chuko:chuko@127.0.0.1/chukobench
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.redis_process import redis_server
from bench.server_process import (
    Server,
    cpu_seconds,
    gc_pauses,
    machine_cpu,
    rss_mb,
    tree_cpu_seconds,
)
from bench.serverload import Clients, Pace, Tally, collect, fork_clients, percentile

SATURATED = 100  # games at a time with no pause: enough to keep the server busy
PACED = (200, 1000)
THINK = (1.0, 2.0)  # a person's pause before each move of theirs
MOVES_PER_SECOND, P99_MS, ECHO_RATIO = 1500, {200: 50.0, 1000: 100.0}, 3.0
SAMPLES = 400  # state messages kept from a saturated run for the echo


@dataclass
class Run:
    moves: int
    seconds: float
    server_cpu: float
    server_main_cpu: float | None  # a one-process server's main thread: its event loop
    client_cpu: float
    other_cpu: float
    p50: float
    p99: float
    tally: Tally
    start: float  # monotonic seconds: the window measured
    gc: str = ""  # the server's garbage collections in the window (`gc_pauses`)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def cpu_per_move(self) -> float:
        return self.server_cpu / max(1, self.moves)

    @property
    def _main_share(self) -> str:
        if self.server_main_cpu is None:
            return ""
        return f" ({self.server_main_cpu / max(1, self.moves) * 1e3:.2f} in its main thread)"

    def line(self, label: str) -> str:
        t = self.tally
        return (f"  {label}: {self.moves} moves in {self.seconds:.0f} s = {self.rate:.0f}/s, "
                f"server {self.cpu_per_move * 1e3:.2f} ms CPU/move{self._main_share}; "
                f"move→ack p50 "
                f"{self.p50:.1f} ms, p99 {self.p99:.1f} ms; CPU cores: server "
                f"{self.server_cpu / self.seconds:.2f}, clients "
                f"{self.client_cpu / self.seconds:.2f}, other work "
                f"{self.other_cpu / self.seconds:.2f}; games finished {t.games}, "
                f"errors {len(t.errors)}, refused {t.refused}; "
                f"{t.messages / max(1, len(t.acks)):.2f} messages sent per move")


def load(server: Server, slots: int, think: tuple[float, float], *, ramp: float,
         settle: float, window: float, workers: int, echo_moves: int = 0,
         samples: int = 0, one_process: bool = True, rooms_by_http: bool = True) -> Run:
    """Drive `server` with `slots` games at a time; measure over `window` seconds once the
    slots have started (`ramp`) and settled. A `one_process` server's CPU is also split
    between its main thread and the others."""
    start_at = time.monotonic() + 0.5
    t0 = start_at + ramp + settle
    t1 = t0 + window
    pace = Pace(think=think, stop_at=t1, samples=samples, rooms_by_http=rooms_by_http)
    clients = fork_clients(workers, server.port, slots, pace, start_at, ramp, echo_moves)
    before = _snapshot(server, clients, t0)
    after = _snapshot(server, clients, t1)
    tally = collect(clients)
    latencies = [lat * 1e3 for at, lat in tally.acks if t0 <= at < t1]
    server_cpu, main_cpu, client_cpu, busy = (b - a for a, b in zip(before, after,
                                                                     strict=True))
    return Run(len(latencies), t1 - t0, server_cpu, main_cpu if one_process else None,
               client_cpu, busy - server_cpu - client_cpu, percentile(latencies, 50),
               percentile(latencies, 99), tally, t0)


def _snapshot(server: Server, clients: list[Clients],
              at: float) -> tuple[float, float, float, float]:
    time.sleep(max(0.0, at - time.monotonic()))
    return (tree_cpu_seconds(server.pid), cpu_seconds(server.pid, thread=server.pid),
            sum(cpu_seconds(c.pid) for c in clients), machine_cpu()[0])


@dataclass
class Medians:
    """Each figure's median over the runs (each taken on its own)."""

    rate: float
    cpu_per_move: float
    p99: float


def medians(label: str, runs: list[Run]) -> Medians:
    for n, run in enumerate(runs, 1):
        print(run.line(f"{label}, run {n}"), flush=True)
        if run.gc:
            print(f"    {run.gc}")
        for error in run.tally.errors[:3]:
            print(f"    error: {error}")
    return Medians(statistics.median(r.rate for r in runs),
                   statistics.median(r.cpu_per_move for r in runs),
                   statistics.median(r.p99 if r.moves else float("inf") for r in runs))


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench server")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="short windows, 40 and 100 "
                        "games: a check that it works, not a measurement")
    parser.add_argument("--clients", type=int, default=os.cpu_count() or 2,
                        help="client processes (default: one per core)")
    parser.add_argument("--seconds", type=float, help="seconds measured per run "
                        "(default 20; 5 with --quick)")
    parser.add_argument("--profile", type=Path, help="also run a saturated load on a server "
                        "under cProfile and write its profile here")
    parser.add_argument("--memory", type=float, metavar="SECONDS", help="instead, keep one "
                        "server saturated this long and print its memory every 15 s")
    parser.add_argument("--workers", type=int, default=1, help="compare this many workers "
                        "sharing rooms through PostgreSQL and Redis with one (needs --db)")
    parser.add_argument("--db", default=os.environ.get("CHUKO_BENCH_POSTGRES"),
                        help="the PostgreSQL database for --workers (emptied before each run)")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv or [])
    window = args.seconds or (5.0 if args.quick else 20.0)
    saturated = 40 if args.quick else SATURATED
    paced = (40, 100) if args.quick else PACED
    work = dict(workers=args.clients, window=window)
    if args.memory:
        memory(args.memory, saturated, args.clients)
        return
    if args.workers > 1:
        if not args.db:
            parser.error("--workers needs --db postgresql://… (or CHUKO_BENCH_POSTGRES)")
        cluster(args, saturated, paced, work)
        return
    print(f"{idle_before()}{args.clients} client processes, {args.runs} runs per figure, "
          f"{window:.0f} s measured per run, half Crossroads, half Chükö (2 human seats).",
          flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        def fresh(n: int, kind: str) -> Path:
            directory = Path(tmp) / f"{kind}{n}"
            directory.mkdir()
            return directory

        # Each saturated run of the server is followed at once by the relay's runs, so a
        # run and its limit see the machine alike (a shared machine's speed drifts from
        # minute to minute); the ratio is the median of the runs' own ratios. The limit
        # serves the same traffic as the server: rooms made and joined by HTTP, then their
        # sockets. The relay's sockets alone (its rooms taken without HTTP) are shown too.
        runs: list[Run] = []
        by_http: list[Run] = []
        sockets_only: list[Run] = []
        corpus: list[str] = []
        others: dict[str, str] = {}
        lengths: list[int] = []
        corpus_file = Path(tmp) / "corpus.json"
        for n in range(args.runs):
            directory = fresh(n, "saturated")
            server = Server.chuko(directory, gc_log=directory / "gc.json").start()
            try:
                runs.append(load(server, saturated, (0.0, 0.0), ramp=1.0, settle=2.0,
                                 samples=SAMPLES // args.clients, **work))
            finally:
                server.stop()
            runs[-1].gc = gc_pauses(directory / "gc.json", runs[-1].start,
                                    runs[-1].start + window)
            corpus += runs[-1].tally.samples
            lengths += runs[-1].tally.game_moves
            others.update(runs[-1].tally.others)
            corpus_file.write_text(json.dumps({"states": corpus, "others": others}),
                                   encoding="utf-8")
            moves = round(statistics.mean(lengths)) if lengths else 20
            for rooms_by_http, echoes in ((True, by_http), (False, sockets_only)):
                echo = Server([sys.executable, "-m", "bench.echo_peer", "{port}"], "/ready",
                              fresh(n, f"echo{int(rooms_by_http)}-") / "echo.log",
                              env={**os.environ, "CHUKO_ECHO_CORPUS": str(corpus_file)}).start()
                try:
                    echoes.append(load(echo, saturated, (0.0, 0.0), ramp=1.0, settle=2.0,
                                       echo_moves=moves, rooms_by_http=rooms_by_http, **work))
                finally:
                    echo.stop()
        sat = medians(f"saturated, {saturated} games at a time", runs)
        sizes = [len(text) for text in corpus] or [0]
        described = (f"{saturated} games at a time, {moves} moves a game, state messages of "
                     f"{statistics.mean(sizes):.0f} characters on average")
        peer = medians(f"echo relay, {described}", by_http)
        bare = medians(f"echo relay, sockets only (no HTTP for the rooms), {described}",
                       sockets_only)
        ratios = [r.cpu_per_move / max(e.cpu_per_move, 1e-9)
                  for r, e in zip(runs, by_http, strict=True)]
        bare_ratios = [r.cpu_per_move / max(e.cpu_per_move, 1e-9)
                       for r, e in zip(runs, sockets_only, strict=True)]
        print("  server ÷ echo, run by run: " + ", ".join(f"{x:.2f}×" for x in ratios)
              + "; ÷ the sockets alone: " + ", ".join(f"{x:.2f}×" for x in bare_ratios))
        ratio, bare_ratio = statistics.median(ratios), statistics.median(bare_ratios)

        p99s = {}
        for games in paced:
            runs = []
            ramp = max(2.0, games / 50)  # rooms made at about 50 a second to start
            for n in range(args.runs):
                directory = fresh(n, f"paced{games}-")
                server = Server.chuko(directory, gc_log=directory / "gc.json").start()
                try:
                    runs.append(load(server, games, THINK, ramp=ramp, settle=3.0, **work))
                finally:
                    server.stop()
                runs[-1].gc = gc_pauses(directory / "gc.json", runs[-1].start,
                                        runs[-1].start + window)
            p99s[games] = medians(f"paced, {games} games at a time, players think "
                                     f"{THINK[0]:.0f}–{THINK[1]:.0f} s", runs).p99

        print(f"  medians of {args.runs}: saturated {sat.rate:.0f} accepted moves/s "
              f"(goal {MOVES_PER_SECOND:,}), server {sat.cpu_per_move * 1e3:.2f} ms CPU per "
              f"move (at most {1 / sat.cpu_per_move:.0f}/s on a whole core), echo "
              f"{peer.cpu_per_move * 1e3:.3f} ms per relayed move: "
              f"{ratio:.1f}× (goal {ECHO_RATIO:.0f}×; against the sockets alone, "
              f"{bare.cpu_per_move * 1e3:.3f} ms, {bare_ratio:.1f}×); paced p99 "
              + ", ".join(f"{p99:.0f} ms at {g}" for g, p99 in p99s.items()))
        if not args.quick:
            verdicts = [("saturated moves/s", sat.rate >= MOVES_PER_SECOND),
                        ("echo ratio", ratio <= ECHO_RATIO)]
            verdicts += [(f"p99 at {g}", p99 < P99_MS[g]) for g, p99 in p99s.items()]
            print("  goals: " + ", ".join(f"{name} {'met' if ok else 'NOT met'}"
                                          for name, ok in verdicts))
        if args.profile:
            profile(Path(tmp), saturated, args.profile, work)


def memory(seconds: float, games: int, clients: int) -> None:
    """One server kept saturated for `seconds`: its resident memory every 15 s, which levels
    off unless something piles up with the traffic."""
    print(f"{idle_before()}{games} games at a time, no pause, for {seconds:.0f} s; the "
          "server's resident memory:", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server.chuko(Path(tmp)).start()
        try:
            start = time.monotonic() + 0.5
            forked = fork_clients(clients, server.port, games, Pace(stop_at=start + seconds),
                                  start, 1.0)
            samples = []
            for mark in range(15, int(seconds) + 1, 15):
                time.sleep(max(0.0, start + mark - time.monotonic()))
                samples.append(f"{rss_mb(server.pid):.0f}")
            tally = collect(forked)
        finally:
            server.stop()
    print(f"  every 15 s: {', '.join(samples)} MB; {tally.games // 2} games played, errors "
          f"{len(tally.errors)}")


def profile(tmp: Path, games: int, out: Path, work: dict) -> None:
    """A saturated run on a server under cProfile; its top costs per accepted move."""
    import pstats

    directory = tmp / "profiled"
    directory.mkdir()
    server = Server.chuko(directory, profile=out.resolve()).start()
    try:
        run = load(server, games, (0.0, 0.0), ramp=1.0, settle=2.0, **work)
    finally:
        server.stop()
    print(run.line("saturated under cProfile"))
    print(f"  profile written to {out}; {run.tally.games} games. Top costs (the profile "
          f"covers the whole server life, all {sum(run.tally.game_moves)} moves):")
    stats = pstats.Stats(str(out))
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(40)


def idle_before() -> str:
    """How busy the machine is before the bench starts, over one second, as a sentence."""
    busy0, total0 = machine_cpu()
    time.sleep(1)
    busy1, total1 = machine_cpu()
    cores = (busy1 - busy0) / (total1 - total0) * (os.cpu_count() or 1)
    return f"{os.cpu_count()} cores; before starting, other work kept {cores:.2f} cores busy. "


def cluster(args: argparse.Namespace, saturated: int, paced: tuple[int, ...],
            work: dict) -> None:
    """One worker against `args.workers`, both on PostgreSQL and Redis, in one run."""
    print(f"{idle_before()}{args.clients} client processes, {args.runs} runs per figure, "
          f"{work['window']:.0f} s measured per run; 1 worker against {args.workers}, on "
          "PostgreSQL and Redis.", flush=True)
    counts = (1, args.workers)
    figures: dict[int, dict[str, float]] = {n: {} for n in counts}
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as redis:
        def fresh(workers: int, label: str) -> Server:
            directory = Path(tmp) / f"{label}-{workers}w-{time.monotonic_ns()}"
            directory.mkdir()
            empty(args.db)
            return Server.chuko(directory, db=args.db, redis=redis, workers=workers).start()

        for label, games, think, ramp in (
                ("saturated", saturated, (0.0, 0.0), 1.0),
                *((f"paced {g}", g, THINK, max(2.0, g / 50)) for g in paced)):
            for workers in counts:
                runs = []
                for _ in range(args.runs):
                    server = fresh(workers, label.replace(" ", ""))
                    try:
                        runs.append(load(server, games, think, ramp=ramp, settle=3.0,
                                         one_process=False, **work))
                    finally:
                        server.stop()
                found = medians(f"{label}, {games} games at a time, {workers} worker(s)", runs)
                figures[workers][label] = found.p99 if think[1] else found.rate
                if not think[1]:
                    figures[workers]["cpu"] = found.cpu_per_move
    for workers in counts:
        f = figures[workers]
        print(f"  medians of {args.runs}, {workers} worker(s): saturated {f['saturated']:.0f} "
              f"moves/s ({f['cpu'] * 1e3:.2f} ms server CPU per move); paced p99 "
              + ", ".join(f"{f[f'paced {g}']:.0f} ms at {g}" for g in paced))
    print(f"  scaling: {figures[args.workers]['saturated'] / figures[1]['saturated']:.2f}x the "
          f"saturated moves/s of one worker with {args.workers}")


def empty(url: str) -> None:
    """The bench's database with its schema and no rooms."""
    from sqlalchemy import text

    from chuko.server.store.database import Store

    store = Store(url)
    try:
        with store.engine.begin() as conn:
            # (and what refers to the rooms: the rating history)
            conn.execute(text("TRUNCATE moves, seats, rooms CASCADE"))
    finally:
        store.close()
