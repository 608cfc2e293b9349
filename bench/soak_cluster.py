"""The soak's two-worker mode (`python -m bench soak --workers 2`): minutes of well-behaved
play on two `chuko serve` workers sharing a PostgreSQL server of the soak's own and a Redis,
while the database misbehaves twice:

- a lock: at 25% of the run, another connection takes `SELECT … FOR UPDATE` on the row of a
  room in play and holds it for `HOLD_SECONDS`;
- a stopped reader: at 60%, the PostgreSQL backend of an idle connection that last read
  (one the workers read through, from `pg_stat_activity`) is stopped with SIGSTOP for
  `HOLD_SECONDS`, then continued.

- a worker killed: at 85%, one of the workers (a child of the server's process, which
  uvicorn replaces) gets SIGKILL, rated games ending meanwhile.

A quarter of the games at a time are rated ones between accounts made for each game and
paired through the lobby (`soak_rated.py`), played like the others.

Reported: the move→ack p99 of the moves sent during each window (the locked room's own are
refused with the sentence meanwhile, and retried as a player would), the same outside the
windows, the moves refused, the acknowledged moves lost (each seat's acknowledged moves
looked for in its room's move log at the end: goal 0), and for every finished rated room
whether its result was applied exactly once: one `rating_history` row per seat, or none
and the reason it did not count stored in its `result`; any other count is a rating lost
or doubled (goal none), as is a rating whose count of games is not its rows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from bench.postgres_process import PostgresProcess, binaries
from bench.redis_process import redis_server
from bench.server_process import Server
from bench.serverload import Pace, Tally, collect, fork_clients, percentile
from bench.soak_rated import Applied, check_acked, fork_rated, rated_rooms_applied

HOLD_SECONDS = 20.0
LOCK_AT, STOP_AT, KILL_AT = 0.25, 0.6, 0.85  # the windows' starts, as parts of the run
KILL_WINDOW = 10.0  # seconds after the kill counted as its window (its seats reconnect)
RATED_SHARE = 4  # one game in this many at a time is rated


@contextlib.contextmanager
def given_or_own_redis(directory: Path) -> Iterator[str]:
    """CHUKO_TEST_REDIS, else a private redis-server that keeps nothing on disk."""
    given = os.environ.get("CHUKO_TEST_REDIS")
    if given:
        yield given
        return
    with redis_server(directory) as url:
        yield url


def hold_a_room_lock(engine: Engine, seconds: float) -> tuple[float, float, str]:
    """`SELECT … FOR UPDATE` on the row of the room in play updated last, held for
    `seconds`; (when taken, when let go, the room)."""
    with engine.connect() as conn:
        room = conn.execute(text("SELECT id FROM rooms WHERE status = 'playing' "
                                 "ORDER BY updated DESC LIMIT 1")).scalar_one()
        conn.execute(text("SELECT id FROM rooms WHERE id = :id FOR UPDATE"), {"id": room})
        taken = time.monotonic()
        time.sleep(seconds)
        conn.rollback()
        return taken, time.monotonic(), room


def stop_a_reader(engine: Engine, seconds: float) -> tuple[float, float, int]:
    """SIGSTOP on the backend of an idle connection of the workers' that a read gave back
    to the pool last (its last statement the pool's ROLLBACK: a writer's is a COMMIT),
    SIGCONT `seconds` later; (when stopped, when continued, its pid)."""
    with engine.connect() as conn:
        pid = conn.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state = 'idle' AND query = 'ROLLBACK' "
            "ORDER BY state_change LIMIT 1")).scalar_one()
    os.kill(pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)
    return stopped, time.monotonic(), pid


def kill_a_worker(server_pid: int) -> tuple[float, float, int]:
    """SIGKILL on one of the server's worker processes; (when killed, KILL_WINDOW later or
    when uvicorn had replaced it if later, its pid)."""
    before = workers(server_pid)
    pid = before[-1]
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    while time.monotonic() < killed + 30 and len(set(workers(server_pid)) - {pid}) < len(
            before):
        time.sleep(0.2)
    return killed, max(time.monotonic(), killed + KILL_WINDOW), pid


def workers(server_pid: int) -> list[int]:
    """The worker processes uvicorn runs under `server_pid` (its spawned children)."""
    found = []
    for task in Path(f"/proc/{server_pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread that ended since the listing
            continue
        for child in children:
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(int(child))
    return sorted(found)


def main(args: argparse.Namespace, think: tuple[float, float]) -> None:
    if binaries() is None:
        raise SystemExit("The two-worker soak needs PostgreSQL (apt-get install postgresql).")
    span = args.minutes * 60
    windows: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp, given_or_own_redis(Path(tmp)) as redis:
        postgres = PostgresProcess()
        postgres.start()
        watcher = create_engine(postgres.url.replace("postgresql:", "postgresql+psycopg:"))
        server = Server.chuko(Path(tmp), bot_delay=0.6, db=postgres.url, redis=redis,
                              workers=args.workers).start()
        try:
            started, wall_started = time.monotonic(), time.time()
            stop_at = started + span
            pace = Pace(think=think, stop_at=stop_at, keep_acked=True, reconnect=True,
                        retry_unsaved=0.5)
            rated_slots = args.games // RATED_SHARE
            ramp = min(10.0, span / 10)
            clients = fork_clients(1, server.port, args.games - rated_slots, pace, started,
                                   ramp) + [fork_rated(server.port, rated_slots, pace,
                                                       started, ramp)]
            misbehave(watcher, server.pid, started, span, windows)
            tally = collect(clients)
            lost = asyncio.run(check_acked(server.port, tally))
            applied = rated_rooms_applied(watcher)
        finally:
            server.stop()
            watcher.dispose()
            postgres.close()
    report(args, tally, windows, lost)
    report_rated(applied, windows, started - wall_started)


def misbehave(engine: Engine, server_pid: int, started: float, span: float,
              windows: dict[str, tuple[float, float]]) -> None:
    """The lock, the stopped reader and the killed worker, each in a thread of its own at
    its time."""

    def at(part: float, name: str, action: Callable[[], tuple[float, float, object]]
           ) -> threading.Thread:
        def run() -> None:
            time.sleep(max(0.0, started + span * part - time.monotonic()))
            begin, end, what = action()
            windows[f"{name} ({what})"] = (begin, end)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    threads = [at(LOCK_AT, "row lock on room", lambda: hold_a_room_lock(engine, HOLD_SECONDS)),
               at(STOP_AT, "reader backend stopped, pid",
                  lambda: stop_a_reader(engine, HOLD_SECONDS)),
               at(KILL_AT, "worker killed, pid",
                  lambda: kill_a_worker(server_pid))]
    while time.monotonic() < started + span:
        time.sleep(1)
    for thread in threads:
        thread.join(HOLD_SECONDS + 5)


def report(args: argparse.Namespace, tally: Tally, windows: dict[str, tuple[float, float]],
           lost: int) -> None:
    acked = sum(len(moves) for moves in tally.acked.values())
    # Each ack as (when its move was sent, its latency in ms).
    sent = [(at - latency, latency * 1e3) for at, latency in tally.acks]
    inside = [lat for when, lat in sent
              if any(begin <= when < end for begin, end in windows.values())]
    outside = [lat for when, lat in sent
               if not any(begin <= when < end for begin, end in windows.values())]
    print(f"{args.minutes:g} minutes, {args.workers} workers on one PostgreSQL and Redis, "
          f"{args.games} well-behaved games at a time; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end, "
          f"{os.cpu_count()} cores:")
    print(f"  {tally.games} games finished, {len(sent)} moves acked; move→ack p50 "
          f"{percentile(outside, 50):.1f} ms, p99 {percentile(outside, 99):.1f} ms outside "
          f"the windows; {len(tally.unsaved)} moves refused as not saved (and sent again); "
          f"{tally.reconnects} reconnects, errors {len(tally.errors)}")
    for error in tally.errors[:3]:
        print(f"    error: {error}")
    for name, (begin, end) in windows.items():
        moves = [lat for when, lat in sent if begin <= when < end]
        refused = [1 for at, _ in tally.unsaved if begin <= at < end + 2]
        print(f"  {name}, {end - begin:.1f} s: {len(moves)} moves sent in it acked, "
              f"p50 {percentile(moves, 50):.1f} ms, p99 {percentile(moves, 99):.1f} ms, max "
              f"{max(moves, default=0):.1f} ms (goal p99 under the 2,000 ms timeout + 100); "
              f"{len(refused)} refused as not saved")
    print(f"  all moves sent in the windows: p99 {percentile(inside, 99):.1f} ms")
    print(f"  acknowledged moves lost: {lost} of {acked} (goal 0)")


def report_rated(applied: Applied, windows: dict[str, tuple[float, float]],
                 wall_offset: float) -> None:
    """The rated rooms' check; `wall_offset` turns `rooms.ended` into monotonic time."""
    unrated = ", ".join(f"{n} {reason}" for reason, n in applied.unrated.most_common())
    print(f"  rated rooms finished: {applied.finished} ({applied.playing} still in play at "
          f"the end): {applied.once} applied once (a rating_history row per seat), "
          f"{sum(applied.unrated.values())} not counted with their reason stored "
          f"({unrated or 'none'}), {len(applied.wrong)} lost or doubled (goal 0); "
          f"{applied.miscounted} ratings whose games are not their rows (goal 0)")
    for wrong in applied.wrong[:5]:
        print(f"    wrong: {wrong}")
    for name, (begin, end) in windows.items():
        ended = sum(1 for at in applied.ended_at.values()
                    if begin <= at + wall_offset < end + 2)
        print(f"  rated rooms that ended in the {name.split(' (')[0]} window or the 2 s "
              f"after it: {ended}")
