"""The lobby of a real cluster: two `chuko serve` workers sharing PostgreSQL and Redis (as in
test_cluster.py). Forty guests, each with a session cookie of their own, join the heads-up
pool over `/lobby/ws` through both workers at once and each is paired exactly once: one
`paired` message, one seat in one room of the database. Then the worker holding the lease
(the pairing leader) is killed with SIGKILL while it makes a wave's rooms, with players
joining all the while: nobody who joined is lost, each is paired once by the new leader
(a pairing it had recorded is made by the new leader, in the room it may have made already).

Skipped without CHUKO_TEST_POSTGRES; Redis from CHUKO_TEST_REDIS, else a private one."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import Counter

import pytest
from test_cluster import URL, workers  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")]
httpx = pytest.importorskip("httpx")
aioredis = pytest.importorskip("redis.asyncio")
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

POOL = "chuko/duel"
PLAYERS = 40
WAIT = 30.0  # seconds a player may wait to be paired, at most


class LobbyPlayer:
    """A guest's lobby socket (on one worker, then on another if that one dies): the rooms
    it is told it was paired into, besides the ones it knew before (`known`)."""

    def __init__(self, cookie: str, player: str) -> None:
        self.cookie, self.player = cookie, player
        self.known: set[str] = set()
        self.paired: list[str] = []  # the new rooms it was told of
        self.told = 0  # `paired` messages of new rooms, on the sockets it had
        self.replies = 0  # `you` messages after the greeting: answers to its joins
        self.greeted = asyncio.Event()
        self.closed = asyncio.Event()
        self.ws = None
        self.reader: asyncio.Task | None = None

    async def connect(self, port: int) -> None:
        self.greeted, self.closed = asyncio.Event(), asyncio.Event()
        self.ws = await connect(f"ws://127.0.0.1:{port}/lobby/ws", additional_headers={
            "Cookie": f"chuko_session={self.cookie}", "Origin": f"http://127.0.0.1:{port}"})
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.greeted.wait(), 10)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "paired" and message["room"] not in self.known:
                    self.told += 1
                    if message["room"] not in self.paired:
                        self.paired.append(message["room"])
                elif message["type"] == "you":
                    if "name" in message:
                        self.greeted.set()
                    else:
                        self.replies += 1
                elif message["type"] == "error":
                    raise AssertionError(message["message"])
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def join(self) -> None:
        """Join the pool, once the answer to it came (a `you`, or the pairing itself)."""
        before = self.replies
        await self.ws.send(json.dumps({"type": "pool", "pool": POOL, "bots_after": None}))
        await until(lambda: self.replies > before or bool(self.paired), 10)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


async def until(done, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


def guests(pool: list) -> list[LobbyPlayer]:
    """Forty guests, made through both workers (`POST /api/me`), with their players' ids
    from the database's sessions."""
    from sqlalchemy import create_engine, select

    from chuko.server.store.schema import secret_hash, sessions

    made = []
    for n in range(PLAYERS):
        worker = pool[n % 2]
        answer = httpx.post(worker.base + "/api/me", json={},
                            headers={"Origin": worker.base})
        assert answer.status_code == 200, answer.text
        made.append(answer.cookies["chuko_session"])
    engine = create_engine(URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as conn:
        rows = dict(conn.execute(select(sessions.c.id_hash, sessions.c.player).where(
            sessions.c.id_hash.in_([secret_hash(c) for c in made]))).all())
    engine.dispose()
    return [LobbyPlayer(cookie, rows[secret_hash(cookie)]) for cookie in made]


def rooms_of(players: list[LobbyPlayer]) -> dict[str, list[str]]:
    """Each player's rooms, as the database's seats say."""
    from sqlalchemy import create_engine, select

    from chuko.server.store.schema import seats

    engine = create_engine(URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as conn:
        rows = conn.execute(select(seats.c.player, seats.c.room).where(
            seats.c.player.in_([p.player for p in players]))).all()
    engine.dispose()
    found: dict[str, list[str]] = {p.player: [] for p in players}
    for player, room in rows:
        found[player].append(room)
    return found


def assert_paired_once(players: list[LobbyPlayer], reconnected=()) -> None:
    """Each player was told of one new room (once, but on a socket that reconnected, which
    is told again), sits in it and in no other new room, with one other player of
    theirs."""
    stored = rooms_of(players)
    for p in players:
        assert len(p.paired) == 1, (p.player, p.paired)
        assert p.told == 1 or p in reconnected, (p.player, p.told)
        fresh = [room for room in stored[p.player] if room not in p.known]
        assert fresh == p.paired, (p.player, fresh, p.paired)
    assert set(Counter(p.paired[0] for p in players).values()) == {2}


def test_forty_guests_on_two_workers_are_paired_once_and_a_killed_leader_loses_nobody(
        workers, redis_url):  # noqa: F811
    pool = workers(2)
    players = guests(pool)
    asyncio.run(_pair_and_kill(pool, players, redis_url, workers.name))


async def _pair_and_kill(pool, players: list[LobbyPlayer], redis_url: str, name: str) -> None:
    redis = aioredis.Redis.from_url(redis_url)
    try:
        await asyncio.gather(*(p.connect(pool[n % 2].port) for n, p in enumerate(players)))
        # Every guest joins at once, half through each worker.
        await asyncio.gather(*(p.join() for p in players))
        await until(lambda: all(p.paired for p in players), WAIT)
        assert_paired_once(players)

        for p in players:
            p.known |= set(p.paired)
            p.paired.clear()
            p.told = 0
        leader_id = (await redis.get(f"{name}:lease")).decode()
        leader = next(w for w in pool if w.process.pid == int(leader_id.split(":")[1]))
        survivor = next(w for w in pool if w is not leader)
        on_leader = [p for n, p in enumerate(players) if pool[n % 2] is leader]
        on_survivor = [p for p in players if p not in on_leader]
        # The leader's own players are in the pool (their joins answered) before it dies;
        # the survivor's join one after another, while the leader's waves run.
        await asyncio.gather(*(p.join() for p in on_leader))
        killed = asyncio.create_task(_kill_mid_wave(redis, name, leader))

        async def stream() -> None:
            for p in on_survivor:
                await p.join()
                await asyncio.sleep(0.05)

        await stream()
        mid_wave = await killed
        # The leader's sockets closed: their players come back through the survivor, no
        # faster than one address may open sockets (5 a second once its burst is spent).
        await asyncio.gather(*(p.closed.wait() for p in on_leader))
        for p in on_leader:
            await p.connect(survivor.port)
            await asyncio.sleep(0.25)
        await until(lambda: all(p.paired for p in players), WAIT)
        assert mid_wave, "the kill did not land while the leader made a wave's rooms"
        assert await redis.hlen(f"{name}:lobby:making") == 0
        assert await redis.hlen(f"{name}:lobby:pool:{POOL}") == 0
        assert_paired_once(players, on_leader)
    finally:
        for p in players:
            await p.close()
        await redis.aclose()


async def _kill_mid_wave(redis, name: str, leader) -> bool:
    """SIGKILL the leader as soon as a pairing of its wave is recorded and not yet told (its
    room being made); after 5 s without one, anyway. Whether it was mid-wave."""
    making = f"{name}:lobby:making"
    deadline = time.monotonic() + 5
    mid_wave = False
    while time.monotonic() < deadline:
        if await redis.hlen(making):
            mid_wave = True
            break
    os.kill(leader.process.pid, signal.SIGKILL)
    leader.process.wait()
    return mid_wave
