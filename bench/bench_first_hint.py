"""The first hint after a server starts. `chuko serve` is started afresh for each run, on a
SQLite file of its own, with numba's on-disk cache in place (as `make install` leaves it); a
Crossroads room against the easy bot, the player to move, is made and its seat asks for a
hint over its socket at once:

- at once: the room made the moment the server answers, while the server may still be
  loading the solvers' kernels in the background;
- after a pause: the room made `--after` seconds after the server answers, once the
  warm-up has had its time (a player arriving at a server that has been up a little);
- and, in each run, the same seat's second hint, the warm peer both are compared with.

Printed: the median, least and most of each over the runs. With `--empty-cache` each server
starts with an empty numba cache of its own (as the first start after an install where the
cache could not be written): then the kernels compile, for seconds, rather than load.

    python -m bench first_hint [--runs 5] [--after 3] [--empty-cache]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import websockets

from bench.server_process import Server
from bench.serverload import request


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench first_hint")
    parser.add_argument("--runs", type=int, default=5, help="server starts per way of asking")
    parser.add_argument("--after", type=float, default=3.0,
                        help="seconds from the server's start to the room asking after a pause")
    parser.add_argument("--empty-cache", action="store_true",
                        help="each server with an empty numba cache of its own")
    return parser


async def two_hints(port: int, pause: float) -> tuple[float, float]:
    """Milliseconds to the first and to the second hint of a room's seat, the room made
    `pause` seconds from now."""
    await asyncio.sleep(pause)
    status, made = await request(port, "127.0.0.1", "POST", "/api/rooms", {
        "game": "crossroads", "options": {"first": "0"},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    assert status == 201, made
    url = f"ws://127.0.0.1:{port}/ws/{made['room']}?token={made['token']}"
    async with websockets.connect(url, max_size=2**23) as ws:
        times = []
        for _ in range(2):
            asked = time.perf_counter()
            await ws.send('{"type": "hint"}')
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "hint":
                    break
                assert message["type"] != "error", message
            times.append((time.perf_counter() - asked) * 1e3)
    return times[0], times[1]


def spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):,.0f} ms "
            f"(least {min(values):,.0f}, most {max(values):,.0f})")


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv or [])
    found: dict[str, list[float]] = {"at once": [], "after a pause": [], "second hint": []}
    for _ in range(args.runs):
        for way, pause in (("at once", 0.0), ("after a pause", args.after)):
            with tempfile.TemporaryDirectory() as tmp:
                server = Server.chuko(Path(tmp))
                if args.empty_cache:
                    server.env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}
                server.start()
                try:
                    first, second = asyncio.run(two_hints(server.port, pause))
                finally:
                    server.stop()
            found[way].append(first)
            found["second hint"].append(second)
    cache = "an empty numba cache" if args.empty_cache else "numba's cache on disk"
    print(f"The first hint after a fresh `chuko serve`, {args.runs} starts each "
          f"(Crossroads against the easy bot, {cache}):")
    print(f"  asked at once:               {spread(found['at once'])}")
    print(f"  asked {args.after:g} s after the start: {spread(found['after a pause'])}")
    print(f"  the same seat's second hint: {spread(found['second hint'])}")
