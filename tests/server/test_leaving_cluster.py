"""Leaving with several workers: a seat's presence is every worker's, decided by the lease
holder (presence.py). Two workers (hubs on one PostgreSQL and one Redis, with a grace of a
second): a player connected to the other worker is never counted as gone; a heads-up player
who closes their socket may be claimed from by their opponent after the grace, whichever
workers hold them (the lease holder one of them, or neither); a 3-player seat whose player
left, or whose worker was killed, is handed to a bot.

Skipped without CHUKO_TEST_POSTGRES; Redis from CHUKO_TEST_REDIS, else a private one."""

from __future__ import annotations

import asyncio
import time
import uuid
from random import Random

import pytest
from test_cluster import URL

from chuko.core.errors import ConfigError

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")]
pytest.importorskip("redis")
pytest.importorskip("psycopg")

GRACE = 1.0


async def until(done, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


class Workers:
    """Two hubs, each a worker of one cluster; the first holds the lease."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url, self.name = redis_url, f"test-{uuid.uuid4().hex[:8]}"
        self.hubs: list = []

    async def __aenter__(self) -> Workers:
        from chuko.server.cluster.workers import Cluster
        from chuko.server.rooms.hub import Hub
        from chuko.server.store.database import Store
        from chuko.server.web.app import CLUB_TERMS

        for n in range(2):
            store = Store(URL)
            store.start()
            hub = Hub(store, CLUB_TERMS, bot_delay=0, round_pause=0, rng=Random(n), grace=GRACE)
            hub.cluster = Cluster(hub, self.redis_url, name=self.name, lease_seconds=1.0)
            self.hubs.append(hub)
            await hub.cluster.start()
            if n == 0:
                await until(lambda cluster=hub.cluster: cluster.leader)
        return self

    async def __aexit__(self, *_) -> None:
        for hub in self.hubs:
            await hub.cluster.stop()
            await hub.close()
            await asyncio.to_thread(hub.store.close)

    async def table(self, game: str, options: dict, homes: list[int]) -> list:
        """A room whose seat n is taken on worker `homes[n]` (seat 0 makes it and waits at
        the table for the others), each seat with a socket there; the room as each seat's
        worker holds it, and the sockets."""
        from chuko.server.rooms.outbox import Client

        hubs = [self.hubs[home] for home in homes]
        made = await hubs[0].create(game, options, [{"kind": "me"}] + [{"kind": "friend"}]
                                    * (len(homes) - 1))
        first = await hubs[0].room(made["room"])
        sockets = [Client(first, 0)]
        hubs[0].connect(first, sockets[0])
        await asyncio.sleep(0.5)  # its socket is shared while the room waits
        for invite in made["invites"]:
            code = invite["url"].rsplit("/", 1)[1]
            await hubs[invite["seat"]].join(made["room"], code)
        rooms = [first] + [await hub.room(made["room"]) for hub in hubs[1:]]
        await until(lambda: all(room.status == "playing" for room in rooms))
        for seat, (hub, room) in enumerate(zip(hubs[1:], rooms[1:], strict=True), 1):
            sockets.append(Client(room, seat))
            hub.connect(room, sockets[-1])
        return [rooms, sockets]


def run(test) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


async def opening(cluster: Workers, rooms: list, homes: list[int], moves: int = 2) -> None:
    """The game's first `moves` moves, each by the seat to move on its own worker: a game
    between people that has them is no longer aborted by a player who leaves."""
    rng = Random(7)
    for number in range(moves):
        await until(lambda n=number: all(room.version == n for room in rooms))
        seat = rooms[0].state.to_move[0]
        room = rooms[seat]
        await cluster.hubs[homes[seat]].play(room, seat, str(room.state.random_move(seat, rng)))
    await until(lambda: all(room.version == moves for room in rooms))


@pytest.mark.parametrize("homes", [[0, 1], [1, 0], [1, 1]],
                         ids=["leaver-on-the-other", "leaver-on-the-leader", "both-on-the-other"])
def test_a_heads_up_player_who_left_is_claimed_from_whichever_workers_hold_them(
        redis_url, homes):
    async def test() -> None:
        async with Workers(redis_url) as cluster:
            stayer, leaver = homes  # seat 0 stays, seat 1 leaves
            (stays, goes), (_, socket) = await cluster.table(
                "crossroads", {"rounds": 1, "first": "0"}, homes)
            await opening(cluster, [stays, goes], homes)
            await asyncio.sleep(GRACE + 0.5)  # connected on the other worker: not gone
            assert stays.claimable(0) == [] and goes.claimable(1) == []
            with pytest.raises(ConfigError, match="nothing to claim"):
                await cluster.hubs[stayer].claim(stays, 0)
            cluster.hubs[leaver].disconnect(goes, socket)
            await until(lambda: stays.claimable(0) == [1], GRACE + 5)
            await cluster.hubs[stayer].claim(stays, 0)
            assert stays.status == "over" and stays.result == {"kind": "left", "seat": 1}
            row = await asyncio.to_thread(cluster.hubs[leaver].store.load, stays.id)
            assert row.status == "over" and row.result == {"kind": "left", "seat": 1}
            await until_over(cluster.hubs[leaver], stays.id)  # told by the bus

    run(test)


async def until_over(hub, room_id: str, seconds: float = 10.0) -> None:
    """Wait until `hub` holds the room as over. Asked afresh each time: a worker with no
    socket in a room forgets it when told of a change, rather than keeping it up to date,
    so a room object taken before the news may never hear it."""
    deadline = time.monotonic() + seconds
    while (await hub.room(room_id)).status != "over":
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


def test_a_player_who_comes_back_on_another_worker_is_not_gone(redis_url):
    async def test() -> None:
        from chuko.server.rooms.outbox import Client

        async with Workers(redis_url) as cluster:
            (stays, goes), (_, socket) = await cluster.table(
                "crossroads", {"rounds": 1, "first": "0"}, [0, 1])
            cluster.hubs[1].disconnect(goes, socket)  # leaves worker 1 …
            back = await cluster.hubs[0].room(stays.id)
            cluster.hubs[0].connect(back, Client(back, 1))  # … and comes back through worker 0
            await asyncio.sleep(GRACE + 0.5)
            assert stays.claimable(0) == [] and 1 not in stays.away

    run(test)


@pytest.mark.parametrize("how", ["closes", "worker-killed"])
def test_a_three_player_seat_whose_player_left_goes_to_a_bot(redis_url, how):
    async def test() -> None:
        async with Workers(redis_url) as cluster:
            rooms, sockets = await cluster.table(
                "chuko", {"players": 3}, [0, 0, 1])
            await opening(cluster, rooms, [0, 0, 1])
            await asyncio.sleep(GRACE + 0.5)
            assert [s.kind for s in rooms[0].seats] == ["human"] * 3
            if how == "closes":
                cluster.hubs[1].disconnect(rooms[2], sockets[2])
            else:  # the worker dies: nothing said, its heartbeat lapses
                for task in cluster.hubs[1].cluster._loops:
                    task.cancel()
            await until(lambda: rooms[0].seats[2].kind == "bot", GRACE + 8)
            assert rooms[0].seats[2].gone == "left" and rooms[0].status == "playing"
            assert [s.kind for s in rooms[0].seats[:2]] == ["human", "human"]
            row = await asyncio.to_thread(cluster.hubs[0].store.load, rooms[0].id)
            assert [s.gone for s in row.seats] == [None, None, "left"]

    run(test)
