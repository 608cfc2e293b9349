"""The soak's abuse (`soak.py`), in two processes of its own: the floods (pings, a
slowloris, hints), and the long games with what feeds on them (whole replays, the page
buster) and the big packs. Each reports what it got in an `Abuse`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from bench.serverload import Pace, Refused, Tally, address, new_room, play_slot, request

ABUSE_SLOT = 1_000_000  # far from the well-behaved slots' addresses
BIG_PACK_EVERY, REPLAY_EVERY = 10.0, 15.0
LONG_THINK = (0.04, 0.04)  # a long game's seats stay under the server's 20 messages/s
SLOW_CONNECTIONS = 200  # the slowloris's connections from one address, a header every 2 s
PAGE_BUSTERS = 16  # clients asking random replay pages (from, count) back to back
# One-human rooms whose every socket asks a hint as often as a socket may send (20 a second):
# each ask gets past the socket's own limit, to the hints' budget and pool.
HINT_ROOMS, HINT_SOCKETS, HINT_EVERY = 20, 4, 0.05


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
            except (OSError, RuntimeError):
                # uvloop says RuntimeError, not an OSError, for a write to a connection the
                # server has closed meanwhile (or lost in a kill -9).
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


def abuse_main(send: Any, port: int, stop_at: float, floods: bool) -> None:
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
