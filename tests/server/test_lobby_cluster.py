"""The lobby of several workers sharing Redis: 40 guests join a pool through two workers at
once and each is paired exactly once, and told so on the worker holding their socket, even
with both workers running waves at the same moment; a leader dying mid-wave loses nobody; a
player leaves their pool the moment their last socket closes, whichever worker held it.

Redis comes from CHUKO_TEST_REDIS, else a private `redis-server` (tests/server/conftest.py);
each test uses keys of its own."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import pytest
from lobby_helpers import Clock, Rooms, guests, matchmaker, present

from chuko.server.cluster.workers import connect
from chuko.server.lobby.feed import Feed, LobbyClient
from chuko.server.lobby.kv import RedisKv

pytest.importorskip("redis")


async def two_workers(redis_url, clock, rooms, **options):
    """Two matchmakers, each on a Redis client of its own, sharing one prefix; the messages
    each worker delivers, by player."""
    prefix = f"lobby-test-{uuid.uuid4().hex[:8]}"
    workers, told = [], []
    for name in ("one", "two"):
        heard: list[tuple[str, dict]] = []
        kv = RedisKv(connect(redis_url), prefix)
        made = matchmaker(kv=kv, clock=clock, rooms=rooms, prefix=prefix, me=name, **options)
        await kv.start(lambda player, message, heard=heard: heard.append((player, message)))
        workers.append(made)
        told.append(heard)
    return workers, told


async def close(workers) -> None:
    redis = workers[0].board.kv.redis
    async for key in redis.scan_iter(match=workers[0].board.where.rsplit(":", 1)[0] + ":*"):
        await redis.delete(key)
    for made in workers:
        await made.board.kv.stop()
        await made.board.kv.redis.aclose()


async def settle_bus() -> None:
    await asyncio.sleep(0.3)  # pub/sub delivery between two clients of one Redis


def test_forty_guests_through_two_workers_are_each_paired_exactly_once(redis_url):
    clock, rooms = Clock(), Rooms()
    players = guests(40)

    async def go():
        workers, told = await two_workers(redis_url, clock, rooms)
        try:
            await present(workers[0], players)
            await asyncio.gather(*(workers[i % 2].toggle(p, "chuko/duel", None)
                                   for i, p in enumerate(players)))
            counts, _ = await workers[1].board.snapshot(["chuko/duel"])
            assert counts["chuko/duel"] == 40
            # Both run a wave at the same moment: each pair is claimed by one of them.
            made = await asyncio.gather(workers[0].wave(), workers[1].wave())
            assert sum(made) == 20
            await settle_bus()
            return told
        finally:
            await close(workers)

    told = asyncio.run(go())
    seated = Counter(p["player"] for room in rooms.made for p in room["players"])
    assert sorted(seated) == [p.id for p in players] and set(seated.values()) == {1}
    for i, player in enumerate(players):  # its socket is on worker i % 2
        paired = [m for who, m in told[i % 2] if who == player.id and m["type"] == "paired"]
        assert len(paired) == 1


def test_a_leader_killed_mid_wave_loses_no_player(redis_url):
    clock, rooms = Clock(), Rooms()
    players = guests(10)

    async def go():
        workers, _ = await two_workers(redis_url, clock, rooms)
        leader, follower = workers
        try:
            await present(leader, players, 600)
            for player in players:
                await leader.toggle(player, "chuko/duel", None)
            # The leader reads the pool, records the first two pairs and dies before it
            # makes their rooms; the rest of its wave never happens.
            rooms.fail = True
            original = leader.pair
            leader.pair = lambda pool, now: original(pool, now)[:2]
            assert await leader.wave() == 0
            rooms.fail = False
            await leader.board.kv.stop()
            # The follower leads now: the pairs left waiting are paired in its waves, and
            # the two recorded pairs are made once their maker has had its time.
            assert await follower.wave() == 3
            assert await follower.recover() == 0
            clock.now += follower.limits.keep_making + 1
            assert await follower.recover() == 2
            assert await follower.board.records() == []
            assert (await follower.board.snapshot(["chuko/duel"]))[0]["chuko/duel"] == 0
        finally:
            await close(workers)

    asyncio.run(go())
    seated = Counter(p["player"] for room in rooms.made for p in room["players"])
    assert sorted(seated) == [p.id for p in players] and set(seated.values()) == {1}


def test_a_pool_is_left_the_moment_the_last_socket_closes_on_either_worker(redis_url):
    clock, rooms = Clock(), Rooms()
    ghost, waiting = guests(2)

    async def go():
        workers, _ = await two_workers(redis_url, clock, rooms)
        feeds = [Feed(made.board, list(made.pools), worker=made.me, clock=clock)
                 for made in workers]
        try:
            tabs = [LobbyClient(ghost.id), LobbyClient(ghost.id)]
            for feed, tab in zip(feeds, tabs, strict=True):
                await feed.add(tab)
            await present(workers[0], [waiting])
            await workers[1].toggle(ghost, "chuko/duel", None)
            await feeds[1].remove(tabs[1])
            assert (await workers[0].you(ghost.id))["pool"] == "chuko/duel"
            await feeds[0].remove(tabs[0])  # the last tab, on the other worker
            assert (await workers[1].you(ghost.id))["pool"] is None
            await workers[1].toggle(waiting, "chuko/duel", None)
            assert await workers[0].wave() == 0
        finally:
            await close(workers)

    asyncio.run(go())
    assert rooms.made == []
