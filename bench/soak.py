"""The soak: minutes of mixed play and abuse on one server, killed with SIGKILL and
restarted on the same database twice along the way, and its database taken away once.

- Well-behaved: `--games` rooms at a time of two human seats (Crossroads and Chükö), whose
  players think 1–2 s before each move, a new room when one ends; each seat reconnects
  when its socket drops, sends a move again half a second after it was refused because the
  game could not be saved, and remembers every move of its that the server acknowledged.
- Abuse, in two processes of its own (`soak_abuse.py`: the floods, and the long games
  with what feeds on them): a socket flooding pings as fast as it can (reconnecting
  whenever the server closes it); a new 8-player Chükö room with a 1,000-card pack of large
  numbers every 10 s, left waiting; two Chükö games played to the 2,000-card turn limit
  (4,000 moves) over and over; four replays at once of a finished long game (every page of
  its frames) every 15 s; a slowloris (200 connections from one address that never finish
  their headers); a page buster (16 clients asking replay pages of the long game at random
  `from` and `count`, back to back); and a hint flood (20 one-human rooms, each seat's 4
  sockets asking hints as often as a socket may send, 20 a second).
- The database, a PostgreSQL server of the soak's own (`postgres_process.py`; SQLite and no
  outage where PostgreSQL is not installed), stopped at 30% of the run for 10 s.
- Two `kill -9` restarts, at 60% and 80% of the run (so the first life is long enough to
  show whether memory levels off); one more after the end, after which every acknowledged
  move is looked for in each seat's move log (read from the stored record, page by page): a
  move missing there, or worded otherwise than its acknowledgement, is lost.

Reported: the server's resident memory (each minute of each life between restarts, its
peak and its end), the well-behaved clients' move→ack p99 (outside the outage and the
restarts: goal under 100 ms), the refusals during the outage, what the abuse got, and the
acknowledged moves lost (must be 0).

    python -m bench soak [--minutes 10] [--games 60]

With `--workers 2`, two workers of a cluster under database misbehaviour instead
(`soak_cluster.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import tempfile
import time
from pathlib import Path

from bench.children import ending_with_parent
from bench.postgres_process import PostgresProcess, binaries
from bench.server_process import Server, rss_mb
from bench.serverload import (
    Pace,
    Tally,
    collect,
    fork_clients,
    percentile,
)
from bench.soak_abuse import HINT_ROOMS, HINT_SOCKETS, PAGE_BUSTERS, Abuse, abuse_main
from bench.soak_rated import check_acked

THINK = (1.0, 2.0)
RESTART_QUIET = 15.0  # seconds after a restart left out of the "steady" p99
OUTAGE_AT, OUTAGE_SECONDS = 0.3, 10.0  # the database goes away at 30% of the run, for 10 s
OUTAGE_QUIET = 5.0  # seconds after the database is back left out of the "steady" p99


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench soak")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run")
    parser.add_argument("--games", type=int, default=60,
                        help="well-behaved games at a time")
    parser.add_argument("--workers", type=int, default=1,
                        help="with 2 or more: the workers share a PostgreSQL and a Redis, "
                        "under a row lock and a stopped reader (bench/soak_cluster.py)")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv or [])
    if args.workers > 1:
        from bench import soak_cluster

        soak_cluster.main(args, THINK)
        return
    span = args.minutes * 60
    with tempfile.TemporaryDirectory() as tmp:
        # On a PostgreSQL server of its own, which the soak takes away for a while; on
        # SQLite, without that outage, where PostgreSQL is not installed.
        postgres = PostgresProcess() if binaries() is not None else None
        if postgres is not None:
            postgres.start()
        server = Server.chuko(Path(tmp), bot_delay=0.6,
                              db=postgres.url if postgres else None).start()
        started = time.monotonic()
        stop_at = started + span
        context = multiprocessing.get_context("fork")
        pipes = [context.Pipe(duplex=False) for _ in range(2)]
        abusers = [context.Process(target=ending_with_parent(abuse_main), daemon=True,
                                   args=(send, server.port, stop_at, floods))
                   for (_, send), floods in zip(pipes, (True, False), strict=True)]
        try:
            well = fork_clients(1, server.port, args.games, Pace(
                think=THINK, stop_at=stop_at, keep_acked=True, reconnect=True,
                retry_unsaved=0.5), started, ramp=min(10.0, span / 10))
            for abuser, (_, send) in zip(abusers, pipes, strict=True):
                abuser.start()
                send.close()
            lives, killed_at, outages = restart_and_outage(server, postgres, started, span)
            tally = collect(well)
            abuse = Abuse()
            for abuser, (receive, _) in zip(abusers, pipes, strict=True):
                abuse.merge(receive.recv())
                abuser.join()
            server.kill()
            server.start()
            lost = asyncio.run(check_acked(server.port, tally))
        finally:
            for abuser in abusers:
                if abuser.is_alive():
                    abuser.kill()
            server.stop()
            if postgres is not None:
                postgres.close()
    report(args, tally, abuse, lives, killed_at, outages, lost)


def restart_and_outage(server: Server, postgres: PostgresProcess | None, started: float,
                       span: float) -> tuple[list[list[tuple[float, float]]], list[float],
                                             list[tuple[float, float]]]:
    """The two `kill -9` restarts and the database's outage, at their times, with the
    server's memory each second: (each life's (seconds into it, RSS MB)), when each kill
    was, (when the database was stopped, when it was back))."""
    restarts = [started + span * 0.6, started + span * 0.8]
    outage = [started + span * OUTAGE_AT] if postgres else []
    outages: list[tuple[float, float]] = []
    lives: list[list[tuple[float, float]]] = [[]]
    life_start, killed_at = started, []
    # Both restarts happen even when a slow machine's outage ran past the end.
    while time.monotonic() < started + span or restarts:
        if restarts and time.monotonic() >= restarts[0]:
            restarts.pop(0)
            server.kill()
            killed_at.append(time.monotonic())
            server.start()
            life_start = time.monotonic()
            lives.append([])
        if outage and postgres and time.monotonic() >= outage[0]:
            outage.pop(0)
            away = time.monotonic()
            postgres.stop()
            time.sleep(OUTAGE_SECONDS)
            postgres.start()
            outages.append((away, time.monotonic()))
        with contextlib.suppress(OSError):
            lives[-1].append((time.monotonic() - life_start, rss_mb(server.pid)))
        time.sleep(1)
    return lives, killed_at, outages


def report(args: argparse.Namespace, tally: Tally, abuse: Abuse,
           lives: list[list[tuple[float, float]]], killed_at: list[float],
           outages: list[tuple[float, float]], lost: int) -> None:
    acked = sum(len(moves) for moves in tally.acked.values())
    latencies = [lat * 1e3 for _, lat in tally.acks]
    quiet = [(k, k + RESTART_QUIET) for k in killed_at] + [
        (away, back + OUTAGE_QUIET) for away, back in outages]
    steady = [lat * 1e3 for at, lat in tally.acks
              if not any(start <= at < end for start, end in quiet)]
    database = "its own PostgreSQL" if outages else "SQLite"
    print(f"{args.minutes:g} minutes on {database}, {args.games} well-behaved games at a time "
          f"(players think {THINK[0]:g}–{THINK[1]:g} s), 2 kill -9 restarts, bot delay 0.6 s:")
    for n, life in enumerate(lives, 1):
        if not life:
            continue
        minutes = [next(rss for at, rss in life if at >= 60 * m)
                   for m in range(int(life[-1][0] // 60) + 1)]
        print(f"  server life {n}: RSS by the minute "
              f"{', '.join(f'{rss:.0f}' for rss in minutes)} MB; peak "
              f"{max(r for _, r in life):.0f} MB, {life[-1][1]:.0f} MB at its end "
              f"({life[-1][0]:.0f} s)")
    print(f"  well-behaved: {tally.games} games finished, {len(latencies)} moves acked; "
          f"move→ack p50 {percentile(latencies, 50):.1f} ms, p99 "
          f"{percentile(latencies, 99):.1f} ms, p99 outside the outage and the "
          f"{RESTART_QUIET:.0f} s after each restart {percentile(steady, 99):.1f} ms (goal "
          f"under 100); {tally.reconnects} reconnects, errors {len(tally.errors)}")
    for error in tally.errors[:3]:
        print(f"    error: {error}")
    for away, back in outages:
        refused = [lat * 1e3 for at, lat in tally.unsaved if away <= at < back + OUTAGE_QUIET]
        after = [at for at, _ in tally.acks if at >= back]
        print(f"  database away {back - away:.1f} s: {len(refused)} moves refused with the "
              f"sentence, refusal p50 {percentile(refused, 50):.1f} ms, max "
              f"{max(refused, default=0):.1f} ms (goal under 1,000); first move stored "
              f"{(min(after) - back) if after else float('nan'):.2f} s after it was back")
    replay_s = [s for s, _ in abuse.replays]
    print(f"  abuse: {abuse.pings:,} pings flooded, the flooder closed {abuse.flood_closed} "
          f"times; {abuse.big_rooms} big-pack rooms ({len(abuse.big_refused)} refused); "
          f"{abuse.long.games} long games ({len(abuse.long.acks):,} moves); "
          f"{len(abuse.replays)} replays, p50 {percentile(replay_s, 50):.2f} s, max "
          f"{max(replay_s, default=0):.2f} s, {max((b for _, b in abuse.replays), default=0):,}"
          f" bytes in its largest page ({abuse.replay_waits:,} pages asked again after a "
          f"429 or 503, {len(abuse.replay_failed)} failed)")
    print(f"  slowloris: {abuse.slow_opened:,} slow connections from one address, "
          f"{abuse.slow_refused:,} refused at once (over its cap), "
          f"{abuse.slow_timed_out:,} closed unfinished by the server")
    print(f"  page buster: {PAGE_BUSTERS} clients, random pages answered "
          + ", ".join(f"{status}: {n:,}" for status, n in sorted(abuse.pages.items())))
    print(f"  hint flood: {HINT_ROOMS} rooms × {HINT_SOCKETS} sockets; "
          + "; ".join(f"{what[:50]}: {n:,}" for what, n in abuse.hints.most_common(4)))
    for failure in abuse.big_refused[:2] + abuse.replay_failed[:2]:
        print(f"    refused: {failure}")
    print(f"  acknowledged moves lost: {lost} of {acked} checked after the last restart "
          f"({tally.lost} missing at reconnects along the way) (goal 0)")
