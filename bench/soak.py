"""The soak (issue 10, point 9): minutes of mixed play and abuse on one server, killed with
SIGKILL and restarted on the same database twice along the way.

- Well-behaved: `--games` rooms at a time of two human seats (Crossroads and Chükö), whose
  players think 1–2 s before each move, a new room when one ends; each seat reconnects
  when its socket drops and remembers every move of its that the server acknowledged.
- Abuse, in a process of its own: a socket flooding pings as fast as it can (reconnecting
  whenever the server closes it); a new 8-player Chükö room with a 1,000-card pack of large
  numbers every 10 s, left waiting; two Chükö games played to the 2,000-card turn limit
  (4,000 moves) over and over; and four replays at once of a finished long game (every page of
  its frames) every 15 s.
- Two `kill -9` restarts, at 60% and 80% of the run (so the first life is long enough to
  show whether memory levels off); one more after the end,
  after which every acknowledged move is looked for in each seat's move log (read from the
  stored record, page by page): a move missing there, or worded otherwise than
  its acknowledgement, is lost.

Reported: the server's resident memory (each minute of each life between restarts, its
peak and its end), the well-behaved clients' move→ack p99, what the abuse got, and
the acknowledged moves lost (must be 0).

    python -m bench soak [--minutes 10] [--games 60]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

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

THINK = (1.0, 2.0)
ABUSE_SLOT = 1_000_000  # far from the well-behaved slots' addresses
BIG_PACK_EVERY, REPLAY_EVERY = 10.0, 15.0
LONG_THINK = (0.04, 0.04)  # a long game's seats stay under the server's 20 messages/s
RESTART_QUIET = 15.0  # seconds after a restart left out of the "steady" p99


@dataclass
class Abuse:
    pings: int = 0
    flood_closed: int = 0
    big_rooms: int = 0
    big_refused: list[str] = field(default_factory=list)
    replays: list[tuple[float, int]] = field(default_factory=list)  # (seconds, bytes)
    replay_failed: list[str] = field(default_factory=list)
    long: Tally = field(default_factory=Tally)


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
                if status != 200:
                    abuse.replay_failed.append(f"{status} {str(body)[:200]}")
                    return
                size = max(size, len(json.dumps(body)))
                first, total = body["from"] + len(body["frames"]), body["total"]
            abuse.replays.append((time.monotonic() - start, size))

        await asyncio.gather(*(one(room, token) for _ in range(4)))


def _abuse_main(send: Any, port: int, stop_at: float) -> None:
    import uvloop

    async def everything() -> Abuse:
        abuse = Abuse()
        pace = Pace(think=LONG_THINK, stop_at=stop_at, reconnect=True, prefer="reset")
        await asyncio.gather(
            flood(port, stop_at, abuse), big_packs(port, stop_at, abuse),
            replays(port, stop_at, abuse),
            *(play_slot(port, ABUSE_SLOT + 100_000 + n, "chuko-long", pace, abuse.long, 0.0)
              for n in range(2)))
        return abuse

    send.send(uvloop.run(everything()))
    send.close()


async def check_acked(port: int, acked: dict[tuple[str, str], dict[int, str]]) -> int:
    """Acknowledged moves missing from (or worded otherwise in) each seat's move log."""
    gate = asyncio.Semaphore(20)

    async def one(room: str, token: str, moves: dict[int, str]) -> int:
        async with gate:
            return lost_moves(moves, await whole_log(port, room, token))

    lost = await asyncio.gather(*(one(room, token, moves)
                                  for (room, token), moves in acked.items() if moves))
    return sum(lost)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench soak")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run")
    parser.add_argument("--games", type=int, default=60,
                        help="well-behaved games at a time")
    args = parser.parse_args(argv)
    span = args.minutes * 60
    with tempfile.TemporaryDirectory() as tmp:
        server = Server.chuko(Path(tmp), bot_delay=0.6).start()
        started = time.monotonic()
        stop_at = started + span
        restarts = [started + span * 0.6, started + span * 0.8]
        lives: list[list[tuple[float, float]]] = [[]]  # (seconds into the life, RSS MB)
        life_start, killed_at = started, []
        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        abuser = context.Process(target=_abuse_main, args=(send, server.port, stop_at),
                                 daemon=True)
        try:
            well = fork_clients(1, server.port, args.games, Pace(
                think=THINK, stop_at=stop_at, keep_acked=True, reconnect=True),
                started, ramp=min(10.0, span / 10))
            abuser.start()
            send.close()
            while time.monotonic() < stop_at:
                if restarts and time.monotonic() >= restarts[0]:
                    restarts.pop(0)
                    server.kill()
                    killed_at.append(time.monotonic())
                    server.start()
                    life_start = time.monotonic()
                    lives.append([])
                with contextlib.suppress(OSError):
                    lives[-1].append((time.monotonic() - life_start, rss_mb(server.pid)))
                time.sleep(1)
            tally = collect(well)
            abuse: Abuse = receive.recv()
            abuser.join()
            server.kill()
            server.start()
            lost = asyncio.run(check_acked(server.port, tally.acked))
        finally:
            if abuser.is_alive():
                abuser.kill()
            server.stop()

    acked = sum(len(moves) for moves in tally.acked.values())
    latencies = [lat * 1e3 for _, lat in tally.acks]
    steady = [lat * 1e3 for at, lat in tally.acks
              if not any(k <= at < k + RESTART_QUIET for k in killed_at)]
    print(f"{args.minutes:g} minutes, {args.games} well-behaved games at a time (players "
          f"think {THINK[0]:g}–{THINK[1]:g} s), 2 kill -9 restarts, bot delay 0.6 s:")
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
          f"{percentile(latencies, 99):.1f} ms, p99 outside the {RESTART_QUIET:.0f} s after "
          f"each restart {percentile(steady, 99):.1f} ms; {tally.reconnects} reconnects, "
          f"errors {len(tally.errors)}")
    for error in tally.errors[:3]:
        print(f"    error: {error}")
    replay_s = [s for s, _ in abuse.replays]
    print(f"  abuse: {abuse.pings:,} pings flooded, the flooder closed {abuse.flood_closed} "
          f"times; {abuse.big_rooms} big-pack rooms ({len(abuse.big_refused)} refused); "
          f"{abuse.long.games} long games ({len(abuse.long.acks):,} moves); "
          f"{len(abuse.replays)} replays, p50 {percentile(replay_s, 50):.2f} s, max "
          f"{max(replay_s, default=0):.2f} s, {max((b for _, b in abuse.replays), default=0):,}"
          f" bytes in its largest page ({len(abuse.replay_failed)} failed)")
    for failure in abuse.big_refused[:2] + abuse.replay_failed[:2]:
        print(f"    refused: {failure}")
    print(f"  acknowledged moves lost: {lost} of {acked} checked after the last restart "
          f"({tally.lost} missing at reconnects along the way) (goal 0)")
