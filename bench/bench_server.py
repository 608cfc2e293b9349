"""The web server under load: `chuko serve` (uvicorn, SQLite, group commit) in a subprocess on
loopback, driven by WebSocket clients in this process. Each game is a Crossroads room of two
friend seats, each seat played by its own client that picks any move from `legal`, as a bot
would. Reported: moves per second and the time from sending a move to receiving the state
that includes it (p50, p99), for one game alone (the baseline) and for many at once.

Goal (issue 5): 200 concurrent games, p99 under 100 ms, no error.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

CONCURRENT = 200
GAMES_EACH = 2  # games played one after another by each concurrent pair of clients
# A bot-paced client: the server's own bots wait 0.6 s before a move (`--bot-delay`);
# these clients think 0.2–1.0 s. THINK_FLOOD (no pause) shows the server's saturated rate.
THINK = (0.2, 1.0)
SEED = 2026


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    games: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "chuko.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", f"sqlite:///{db}", "--bot-delay", "0"]
    server = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"The server did not start; see {log}.")


async def new_game(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    """A Crossroads room of two friends: its id and both seats' tokens."""
    made = (await http.post("/api/rooms", json={
        "game": "crossroads", "options": {"rounds": 1},
        "seats": [{"kind": "me"}, {"kind": "friend"}],
    })).json()
    invite = made["invites"][0]["url"].rsplit("/", 1)[1]
    joined = (await http.post(f"/api/rooms/{made['room']}/join", json={"invite": invite})).json()
    return made["room"], [made["token"], joined["token"]]


async def play_seat(url: str, think: tuple[float, float], rng: random.Random,
                    tally: Tally) -> None:
    """One seat from its first state to the end: move when it is its turn, time each move
    from sending it to the first state that includes it."""
    async with websockets.connect(url, max_size=2**20) as ws:
        sent_at, moved_at = None, -1
        async for text in ws:
            message = json.loads(text)
            if message["type"] == "error":
                tally.errors.append(message["message"])
                return
            if message["type"] != "state":
                continue
            version = message["version"]
            if sent_at is not None and version > moved_at:
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.moves += 1
                sent_at = None
            if message["status"] == "over":
                return
            if message["legal"] and version > moved_at and message["status"] == "playing":
                if think[1]:
                    await asyncio.sleep(rng.uniform(*think))
                moved_at = version
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"])}))


async def run_load(port: int, concurrent: int, games_each: int,
                   think: tuple[float, float]) -> tuple[Tally, float]:
    tally = Tally()
    rng = random.Random(SEED)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits,
                                 timeout=30) as http:

        async def pair(number: int) -> None:
            for _ in range(games_each):
                room, tokens = await new_game(http)
                urls = [f"ws://127.0.0.1:{port}/ws/{room}?token={t}" for t in tokens]
                seeds = [rng.getrandbits(32) for _ in urls]
                try:
                    await asyncio.gather(*(play_seat(u, think, random.Random(s), tally)
                                           for u, s in zip(urls, seeds, strict=True)))
                    tally.games += 1
                except (OSError, websockets.WebSocketException) as error:
                    tally.errors.append(f"pair {number}: {error!r}")

        start = time.perf_counter()
        await asyncio.gather(*(pair(n) for n in range(concurrent)))
        return tally, time.perf_counter() - start


def report(label: str, tally: Tally, elapsed: float) -> float:
    latencies = tally.latencies or [0.0]
    cuts = statistics.quantiles(latencies * 2 if len(latencies) == 1 else latencies, n=100,
                                method="inclusive")
    p50, p99 = statistics.median(latencies) * 1e3, cuts[98] * 1e3
    print(f"  {label}: {tally.games} games, {tally.moves} moves in {elapsed:.1f} s = "
          f"{tally.moves / elapsed:.0f} moves/s; send→update p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, max {max(latencies) * 1e3:.1f} ms; "
          f"errors {len(tally.errors)}")
    for error in tally.errors[:3]:
        print(f"    error: {error}")
    return p99


def main() -> None:
    concurrent = int(os.environ.get("BENCH_SERVER_GAMES", CONCURRENT))
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        server = start_server(port, Path(tmp) / "bench.db", log)
        try:
            print(f"chuko serve on 127.0.0.1:{port}, SQLite (WAL, synchronous=FULL), "
                  f"Crossroads rooms of two WebSocket clients:")
            alone = asyncio.run(run_load(port, 1, 3, (0, 0)))
            report("baseline, 1 game at a time, no pause", *alone)
            flood = asyncio.run(run_load(port, concurrent, 1, (0, 0)))
            flood_p99 = report(f"{concurrent} concurrent games, no pause (saturated)", *flood)
            paced = asyncio.run(run_load(port, concurrent, GAMES_EACH, THINK))
            paced_p99 = report(f"{concurrent} concurrent games, clients pause "
                               f"{THINK[0]}–{THINK[1]} s per move", *paced)
            for label, p99, (tally, _), games in (("paced", paced_p99, paced, GAMES_EACH),
                                                  ("saturated", flood_p99, flood, 1)):
                met = (concurrent >= 200 and p99 < 100 and not tally.errors
                       and tally.games == concurrent * games)
                print(f"  goal (200 concurrent games, p99 < 100 ms, no error), {label}: "
                      f"{'met' if met else 'NOT met'}")
        finally:
            server.terminate()
            server.wait(timeout=30)
