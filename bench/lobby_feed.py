"""The lobby's coalesced updates: N lobby sockets (1,000 by default) watch while seeks are
posted and cancelled at a steady churn (200 changes a second by default); each socket counts
the updates it is sent. The lobby promises at most 2 a second per socket, whatever the churn.

The app runs under uvicorn in a process of its own on a loopback port (players known by a
cookie instead of a session, sockets per address uncapped, as behind a proxy), churning the
seeks itself; the watchers are real WebSocket clients in this process.
A part of the lobby's bench (`bench_lobby.py`):
`python -m bench lobby [--sockets N] [--churn N] [--seconds S] [--quick]`.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.children import popen


@dataclass(frozen=True)
class Guest:
    id: str
    name: str
    username: str | None = None


def serve(port: int, rate: float, stats: str) -> None:
    """The app on `port`, churning seeks at `rate` changes a second from its start (run in a
    process of its own: `--serve`); at its stop, the times its feed sent an update, as JSON
    in the file `stats`, one a line."""
    import uvicorn

    from chuko.server import create_app
    from chuko.server.shared.limits import Buckets, Rate

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'chuko.db'}")

        async def identify(scope):
            cookie = dict(scope["headers"]).get(b"cookie", b"").decode()
            return Guest(cookie.removeprefix("who="), "Watcher") if cookie else None

        lobby, log = app.state.lobby, Path(stats)
        lobby.sockets.identify = identify
        lobby.sockets.opened = Buckets(Rate(1e9, 10**9))
        refresh = lobby.feed.refresh

        async def counted() -> bool:
            if await refresh():
                with log.open("a") as out:  # uvicorn ends the process at its stop
                    out.write(f"{time.time()}\n")
                return True
            return False

        lobby.feed.refresh = counted
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="warning",
                                               ws_per_message_deflate=False))

        async def both() -> None:
            churning = asyncio.create_task(churn(app, rate))
            await server.serve()
            churning.cancel()

        asyncio.run(both())


async def churn(app, rate: float) -> None:
    """Post and cancel seeks at `rate` changes a second, for ever."""
    made = app.state.lobby.matchmaker
    posters = [Guest(f"poster{i}", f"Poster {i}") for i in range(int(rate))]
    changes, start = 0, time.monotonic()
    while True:
        poster = posters[changes % len(posters)]
        mine = await made.board.mine_of(poster.id)
        if mine:
            await made.cancel(poster, mine[0])
        else:
            # Each poster from an address of its own: the lobby caps the seeks of one.
            n = changes % len(posters)
            address = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
            await made.post(poster, {"game": "chuko"}, address)
        changes += 1
        await asyncio.sleep(max(0.0, start + changes / rate - time.monotonic()))


async def watch(url: str, who: str, counts: dict[str, list[float]], ready: asyncio.Event,
                stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, additional_headers={"Cookie": f"who={who}"},
                       compression=None, max_queue=None, open_timeout=60) as ws:
        stamps = counts.setdefault(who, [])
        async for text in ws:  # the server's JSON puts the type first: no parse needed
            if stop.is_set():
                return
            if ready.is_set() and text.startswith('{"type":"update"'):
                stamps.append(time.time())


async def run(sockets: int, rate: float, seconds: float) -> dict[str, float]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    stats = str(Path(tempfile.gettempdir()) / f"lobby-feed-{port}.json")
    process = popen([sys.executable, "-m", "bench.lobby_feed", "--serve", str(port),
                     "--churn", str(rate), "--stats", stats])
    try:
        url = f"ws://127.0.0.1:{port}/lobby/ws"
        await wait_for_port(port)
        counts: dict[str, list[float]] = {}
        ready, stop = asyncio.Event(), asyncio.Event()
        watchers = [asyncio.create_task(watch(url, f"w{i}", counts, ready, stop))
                    for i in range(sockets)]
        while len(counts) < sockets:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        ready.set()
        began = time.time()
        await asyncio.sleep(seconds)
        stop.set()
        ended = time.time()
    finally:
        process.terminate()
        process.wait(30)
        await asyncio.gather(*watchers, return_exceptions=True)
    sends = [float(t) for t in Path(stats).read_text().split()]
    sends = [t for t in sends if began <= t <= ended]
    Path(stats).unlink()
    per_socket = [len([t for t in stamps if t <= ended]) / (ended - began)
                  for stamps in counts.values()]
    gaps = [b - a for stamps in counts.values()
            for a, b in zip(stamps, stamps[1:], strict=False)]
    return {"sockets": sockets, "churn": rate, "mean_per_s": statistics.fmean(per_socket),
            "sent_per_s": len(sends) / (ended - began),
            "min_sent_gap_ms": 1000 * min(b - a for a, b in zip(sends, sends[1:],
                                                                 strict=False)),
            "max_per_s": max(per_socket),
            "min_gap_ms": 1000 * min(gaps) if gaps else float("nan"),
            "median_gap_ms": 1000 * statistics.median(gaps) if gaps else float("nan")}


async def wait_for_port(port: int) -> None:
    for _ in range(300):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start within 30 s")


def add_options(parser: argparse.ArgumentParser) -> None:
    """This part's options, on the lobby bench's parser."""
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--churn", type=float, default=200.0, help="seek changes a second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="200 sockets for 3 s")


def feed(args: argparse.Namespace) -> None:
    """The part: watchers against the app churning seeks; its figures printed."""
    sockets, seconds = (200, 3.0) if args.quick else (args.sockets, args.seconds)
    found = asyncio.run(run(sockets, args.churn, seconds))
    print(f"{found['sockets']} lobby sockets, {found['churn']:.0f} seek changes/s: "
          f"{found['mean_per_s']:.2f} updates/s per socket on average, "
          f"{found['max_per_s']:.2f} at most; the server sent {found['sent_per_s']:.2f} "
          f"updates/s to each, at least {found['min_sent_gap_ms']:.0f} ms apart; between two "
          f"updates a socket received, {found['median_gap_ms']:.0f} ms (median), "
          f"{found['min_gap_ms']:.0f} ms at least")


def main(argv: list[str] | None = None) -> None:
    """The app's process of this part (`--serve`)."""
    parser = argparse.ArgumentParser(prog="python -m bench.lobby_feed")
    add_options(parser)
    parser.add_argument("--serve", type=int, required=True)  # the server's port
    parser.add_argument("--stats", required=True)  # where it writes its updates
    args = parser.parse_args(argv or [])
    serve(args.serve, args.churn, args.stats)


if __name__ == "__main__":
    main(sys.argv[1:])
