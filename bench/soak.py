"""The soak: minutes of mixed play and abuse on one server, killed with SIGKILL and
restarted on the same database twice along the way, and its database taken away once.

- Well-behaved: `--games` rooms at a time of two human seats (Crossroads and Chükö), whose
  players think 1–2 s before each move, a new room when one ends; each seat reconnects
  when its socket drops, sends a move again half a second after it was refused because the
  game could not be saved, and remembers every move of its that the server acknowledged.
- Abuse, in two processes of its own (the floods, and the long games with what feeds on
  them): a socket flooding pings as fast as it can (reconnecting
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
import json
import multiprocessing
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from bench.postgres_process import PostgresProcess, binaries
from bench.serverload import (
    Pace,
    Refused,
    Server,
    Tally,
    address,
    collect,
    fork_clients,
    lost_moves,
    new_room,
    percentile,
    play_slot,
    request,
    rss_mb,
    whole_log,
)
from bench.soak_rated import session_log

THINK = (1.0, 2.0)
ABUSE_SLOT = 1_000_000  # far from the well-behaved slots' addresses
BIG_PACK_EVERY, REPLAY_EVERY = 10.0, 15.0
LONG_THINK = (0.04, 0.04)  # a long game's seats stay under the server's 20 messages/s
RESTART_QUIET = 15.0  # seconds after a restart left out of the "steady" p99
SLOW_CONNECTIONS = 200  # the slowloris's connections from one address, a header every 2 s
PAGE_BUSTERS = 16  # clients asking random replay pages (from, count) back to back
# One-human rooms whose every socket asks a hint as often as a socket may send (20 a second):
# each ask gets past the socket's own limit, to the hints' budget and pool.
HINT_ROOMS, HINT_SOCKETS, HINT_EVERY = 20, 4, 0.05
OUTAGE_AT, OUTAGE_SECONDS = 0.3, 10.0  # the database goes away at 30% of the run, for 10 s
OUTAGE_QUIET = 5.0  # seconds after the database is back left out of the "steady" p99


@dataclass
class Abuse:
    pings: int = 0
    flood_closed: int = 0
    big_rooms: int = 0
    big_refused: list[str] = field(default_factory=list)
    replays: list[tuple[float, int]] = field(default_factory=list)  # (seconds, bytes)
    replay_failed: list[str] = field(default_factory=list)
    replay_waits: int = 0  # pages refused for the budget and asked again
    long: Tally = field(default_factory=Tally)
    slow_opened: int = 0
    slow_refused: int = 0  # answered 503 at once: over the cap of connections per address
    slow_timed_out: int = 0  # closed by the server, its headers never complete
    pages: Counter[int] = field(default_factory=Counter)  # the page buster's statuses
    hints: Counter[str] = field(default_factory=Counter)  # "hint", or the refusal's sentence

    def merge(self, other: Abuse) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(mine, Tally):
                mine.merge(value)
            elif isinstance(mine, Counter):
                mine.update(value)
            elif isinstance(mine, list):
                mine.extend(value)
            else:
                setattr(self, name, mine + value)


async def flood(port: int, stop_at: float, abuse: Abuse) -> None:
    """Pings without pause on a room of its own, reconnecting whenever it is closed."""
    addr = address(ABUSE_SLOT, 0)
    room, tokens = "", [""]
    while time.monotonic() < stop_at:
        try:
            if not room:
                room, tokens = await new_room(port, addr, {"game": "crossroads",
                                                           "options": {}})
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{room}?token={tokens[0]}",
                                          local_addr=(addr, 0)) as ws:
                async def drain() -> None:
                    async for _ in ws:
                        pass

                reader = asyncio.create_task(drain())
                try:
                    while time.monotonic() < stop_at:
                        await ws.send('{"type": "ping"}')
                        abuse.pings += 1
                        if abuse.pings % 50 == 0:
                            await asyncio.sleep(0)  # let this process's other abuse run
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed:
            abuse.flood_closed += 1
        except (OSError, Refused, websockets.WebSocketException):
            await asyncio.sleep(1)  # the server is restarting


async def big_packs(port: int, stop_at: float, abuse: Abuse) -> None:
    """A new waiting 8-player Chükö room with 1,000 large cards every BIG_PACK_EVERY s."""
    n = 0
    while time.monotonic() < stop_at:
        low = 200_000 + 7_919 * n
        n += 1
        with contextlib.suppress(OSError):
            status, body = await request(port, address(ABUSE_SLOT + n, 0), "POST",
                                         "/api/rooms", {
                "game": "chuko", "options": {"players": 8, "pack": f"{low}-{low + 999}"},
                "seats": [{"kind": "me"}] + [{"kind": "friend"}] * 7})
            if status in (200, 201):
                abuse.big_rooms += 1
                await request(port, address(ABUSE_SLOT + n, 0), "GET",
                              f"/api/rooms/{body['room']}?token={body['token']}")
            else:
                abuse.big_refused.append(f"{status} {body}")
        await asyncio.sleep(BIG_PACK_EVERY)


async def replays(port: int, stop_at: float, abuse: Abuse) -> None:
    """Four replays at once of the newest finished long game, every REPLAY_EVERY s."""
    while time.monotonic() < stop_at:
        await asyncio.sleep(REPLAY_EVERY)
        if not abuse.long.finished:
            continue
        room, token = abuse.long.finished[-1]

        async def one(room: str, token: str) -> None:
            start, size, first, total = time.monotonic(), 0, 0, 1
            while first < total:  # every page of frames
                try:
                    status, body = await request(port, "127.0.0.1", "GET",
                                                 f"/api/rooms/{room}/replay?token={token}"
                                                 f"&from={first}&count=100")
                except OSError as error:
                    abuse.replay_failed.append(repr(error))
                    return
                if status in (429, 503):  # over the pages' budget: asks again, as a page does
                    abuse.replay_waits += 1
                    await asyncio.sleep(0.5)
                    continue
                if status != 200:
                    abuse.replay_failed.append(f"{status} {str(body)[:200]}")
                    return
                size = max(size, len(json.dumps(body)))
                first, total = body["from"] + len(body["frames"]), body["total"]
            abuse.replays.append((time.monotonic() - start, size))

        await asyncio.gather(*(one(room, token) for _ in range(4)))


async def slowloris(port: int, stop_at: float, abuse: Abuse) -> None:
    """SLOW_CONNECTIONS connections from one address, each sending a header line every 2 s
    and never finishing its request; a new one whenever one is closed."""
    addr = address(ABUSE_SLOT + 2_000, 0)

    async def one() -> None:
        while time.monotonic() < stop_at:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                               local_addr=(addr, 0))
            except OSError:
                await asyncio.sleep(1)  # the server is restarting
                continue
            abuse.slow_opened += 1
            answer = b""
            try:
                writer.write(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while time.monotonic() < stop_at:
                    with contextlib.suppress(TimeoutError):
                        answer = await asyncio.wait_for(reader.read(256), 2.0)
                        break
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
            except OSError:
                pass
            finally:
                writer.close()
            if answer.startswith(b"HTTP/1.1 503"):
                abuse.slow_refused += 1
                await asyncio.sleep(0.5)
            elif time.monotonic() < stop_at:
                abuse.slow_timed_out += 1

    await asyncio.gather(*(one() for _ in range(SLOW_CONNECTIONS)))


async def page_buster(port: int, stop_at: float, abuse: Abuse, n: int) -> None:
    """Replay pages of the newest finished long game at random (from, count), back to back,
    from an address of its own: what the page cache cannot hold."""
    rng = random.Random(n)
    addr = address(ABUSE_SLOT + 3_000 + n, 0)
    while time.monotonic() < stop_at:
        if not abuse.long.finished:
            await asyncio.sleep(1)
            continue
        room, token = abuse.long.finished[-1]
        captions = "&captions=1" if rng.random() < 0.3 else ""
        try:
            status, _ = await request(port, addr, "GET", f"/api/rooms/{room}/replay?token="
                                      f"{token}&from={rng.randrange(4_000)}"
                                      f"&count={rng.randrange(1, 101)}{captions}")
        except OSError:
            await asyncio.sleep(1)
            continue
        abuse.pages[status] += 1
        if status != 200:
            await asyncio.sleep(0.05)  # refused: asks again at once, all but


async def hint_flood(port: int, stop_at: float, abuse: Abuse, n: int) -> None:
    """A one-human room against a bot whose HINT_SOCKETS sockets (the seat's most) ask for
    hints as fast as a socket may send and never move, each reconnecting whenever it is
    closed."""
    addr = address(ABUSE_SLOT + 4_000 + n, 0)
    url = ""
    while not url and time.monotonic() < stop_at:
        with contextlib.suppress(OSError):
            status, made = await request(port, addr, "POST", "/api/rooms", {
                "game": "crossroads", "options": {"first": "0"},
                "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
            if status == 201:
                url = f"ws://127.0.0.1:{port}/ws/{made['room']}?token={made['token']}"
                break
        await asyncio.sleep(1)
    await asyncio.gather(*(_ask_hints(url, addr, stop_at, abuse) for _ in range(HINT_SOCKETS)))


async def _ask_hints(url: str, addr: str, stop_at: float, abuse: Abuse) -> None:
    while time.monotonic() < stop_at:
        try:
            async with websockets.connect(url, local_addr=(addr, 0), max_size=2**23) as ws:
                while time.monotonic() < stop_at:
                    await ws.send('{"type": "hint"}')
                    asked = time.monotonic()
                    while True:
                        message = json.loads(await ws.recv())
                        if message["type"] in ("hint", "error"):
                            abuse.hints[message.get("message", "hint")] += 1
                            break
                    await asyncio.sleep(max(0.0, asked + HINT_EVERY - time.monotonic()))
        except (OSError, websockets.WebSocketException):
            abuse.hints["socket closed"] += 1
            await asyncio.sleep(1)


def _abuse_main(send: Any, port: int, stop_at: float, floods: bool) -> None:
    """One of the two abuse processes: the floods (pings, a slowloris, hints), or the long
    games with what feeds on them (whole replays, the page buster) and the big packs. Apart,
    so that the floods' own work does not slow the long games the page buster waits for."""
    import uvloop

    async def floods_() -> Abuse:
        abuse = Abuse()
        await asyncio.gather(
            flood(port, stop_at, abuse), slowloris(port, stop_at, abuse),
            *(hint_flood(port, stop_at, abuse, n) for n in range(HINT_ROOMS)))
        return abuse

    async def history() -> Abuse:
        abuse = Abuse()
        pace = Pace(think=LONG_THINK, stop_at=stop_at, reconnect=True, prefer="reset",
                    retry_unsaved=0.5)
        await asyncio.gather(
            big_packs(port, stop_at, abuse), replays(port, stop_at, abuse),
            *(page_buster(port, stop_at, abuse, n) for n in range(PAGE_BUSTERS)),
            *(play_slot(port, ABUSE_SLOT + 100_000 + n, "chuko-long", pace, abuse.long, 0.0)
              for n in range(2)))
        return abuse

    send.send(uvloop.run(floods_() if floods else history()))
    send.close()


async def check_acked(port: int, tally: Tally) -> int:
    """Acknowledged moves missing from (or worded otherwise in) each seat's move log."""
    gate = asyncio.Semaphore(8)  # within the queue of the server's pool for costly work

    async def one(n: int, room: str, token: str, moves: dict[int, str]) -> int:
        async with gate:  # from addresses of its own, each within the log pages' bucket
            addr = address(ABUSE_SLOT + 10_000 + n // 20, 0)
            session = tally.sessions.get((room, token))
            return lost_moves(moves, await (session_log(port, room, session, addr) if session
                                            else whole_log(port, room, token, addr)))

    lost = await asyncio.gather(*(one(n, room, token, moves) for n, ((room, token), moves)
                                  in enumerate(tally.acked.items()) if moves))
    return sum(lost)


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
        restarts = [started + span * 0.6, started + span * 0.8]
        outage = [started + span * OUTAGE_AT] if postgres else []
        outages: list[tuple[float, float]] = []  # (the database stopped, back)
        lives: list[list[tuple[float, float]]] = [[]]  # (seconds into the life, RSS MB)
        life_start, killed_at = started, []
        context = multiprocessing.get_context("fork")
        pipes = [context.Pipe(duplex=False) for _ in range(2)]
        abusers = [context.Process(target=_abuse_main, daemon=True,
                                   args=(send, server.port, stop_at, floods))
                   for (_, send), floods in zip(pipes, (True, False), strict=True)]
        try:
            well = fork_clients(1, server.port, args.games, Pace(
                think=THINK, stop_at=stop_at, keep_acked=True, reconnect=True,
                retry_unsaved=0.5), started, ramp=min(10.0, span / 10))
            for abuser, (_, send) in zip(abusers, pipes, strict=True):
                abuser.start()
                send.close()
            # Both restarts happen even when a slow machine's outage ran past the end.
            while time.monotonic() < stop_at or restarts:
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
