"""Several workers share rooms: real `chuko serve` processes on two ports, one
PostgreSQL database and one Redis. Two friends, each on a different worker, play whole games
(one taking turns, one where both seats commit at once); the same move sent to both workers
at once is accepted once; killing the worker that holds the bots' lease mid-game, the game
finishes on the other.

PostgreSQL comes from CHUKO_TEST_POSTGRES (`.ci/run` sets it); Redis from CHUKO_TEST_REDIS,
else a private `redis-server` started here. Each test is skipped, saying why, where either
cannot be had."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
from server_helpers import play_out, random_chooser, start_serve, state_at

URL = os.environ.get("CHUKO_TEST_POSTGRES")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")]
httpx = pytest.importorskip("httpx")
pytest.importorskip("redis")
pytest.importorskip("psycopg")
from websockets.sync.client import connect  # noqa: E402


class Worker:
    """A `chuko serve` process: one worker of the cluster `name`."""

    def __init__(self, redis_url: str, name: str, log: Path, bot_delay: float) -> None:
        self.log = log
        self.port, self.process = start_serve(
            ["--db", URL, "--redis", redis_url, "--cluster-name", name,
             "--bot-delay", str(bot_delay), "--round-pause", "0"], log)
        self.base = f"http://127.0.0.1:{self.port}"

    def post(self, path: str, body: dict) -> dict:
        response = httpx.post(self.base + path, json=body)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def socket(self, room: str, token: str | None) -> Socket:
        query = f"?token={token}" if token else ""
        return Socket(connect(f"ws://127.0.0.1:{self.port}/ws/{room}{query}", legacy=True))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Socket:
    """The sync websockets client with the TestClient's two calls, for server_helpers."""

    def __init__(self, ws) -> None:
        self.ws = ws

    def send_json(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def receive_json(self) -> dict:
        return json.loads(self.ws.recv(timeout=60))

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def workers(redis_url, tmp_path):
    """`workers(n, bot_delay=0)`: n workers of a cluster of the test's own."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    started: list[Worker] = []

    def start(n: int, bot_delay: float = 0.0) -> list[Worker]:
        for _ in range(n):
            started.append(Worker(redis_url, name, tmp_path / f"worker{len(started)}.log",
                                  bot_delay))
        return started[-n:]

    start.name = name  # type: ignore[attr-defined]
    try:
        yield start
    finally:
        for worker in started:
            worker.stop()


def stored_moves(room: str) -> list[tuple[int, str]]:
    from chuko.server.store.database import Store

    store = Store(URL)
    try:
        return store.moves(room)
    finally:
        store.close()


@pytest.mark.parametrize(("game", "options"), [
    ("crossroads", {"rounds": 1}),  # the seats take turns
    ("chuchula", {"players": 2, "length": 2}),  # both seats commit at once, racing
])
def test_two_friends_on_two_workers_play_a_whole_game(workers, game, options):
    a, b = workers(2)
    room = a.post("/api/rooms", {"game": game, "options": options,
                                 "seats": [{"kind": "me"}, {"kind": "friend"}]})
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    friend = b.post(f"/api/rooms/{room['room']}/join", {"invite": code, "name": "Bea"})
    sockets = [a.socket(room["room"], room["token"]), b.socket(room["room"], friend["token"])]
    seen: list[list[dict]] = [[], []]

    def play(seat: int) -> None:
        seen[seat] = play_out(sockets[seat], random_chooser(seat + 1))

    try:
        threads = [threading.Thread(target=play, args=(seat,)) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        for ws in sockets:
            ws.close()
    finals = [[m for m in messages if m["type"] == "state"][-1] for messages in seen]
    assert [f["status"] for f in finals] == ["over", "over"]
    assert finals[0]["version"] == finals[1]["version"] == len(stored_moves(room["room"]))
    # Every version reached each seat on its own worker, in order, so each log is whole.
    for messages in seen:
        versions = sorted({m["version"] for m in messages if m["type"] == "state"})
        assert versions == list(range(versions[0], finals[0]["version"] + 1))
    assert finals[0]["seats"][1]["name"] == "Bea"  # the join on B reached A


def test_the_same_move_sent_to_both_workers_at_once_is_accepted_once(workers):
    a, b = workers(2)
    room = a.post("/api/rooms", {"game": "crossroads", "options": {"rounds": 1, "first": "0"},
                                 "seats": [{"kind": "me"}, {"kind": "friend"}]})
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    friend = b.post(f"/api/rooms/{room['room']}/join", {"invite": code})
    tokens = [room["token"], friend["token"]]
    choose = random_chooser(5)
    version = 0
    for _ in range(6):  # six moves, each sent twice, through both workers at once
        mover = version % 2
        pair = [a.socket(room["room"], tokens[mover]), b.socket(room["room"], tokens[mover])]
        try:
            states = [state_at(ws, version) for ws in pair]
            assert states[0]["version"] == states[1]["version"] == version
            move = choose(states[0])
            for ws in pair:
                ws.send_json({"type": "move", "move": move})
            for ws in pair:
                ws.send_json({"type": "ping"})
            replies = [[], []]
            for k, ws in enumerate(pair):
                while not replies[k] or replies[k][-1]["type"] != "pong":
                    replies[k].append(ws.receive_json())
            errors = [m for got in replies for m in got if m["type"] == "error"]
            assert len(errors) == 1, replies  # the second of the two is refused
            version += 1
            for ws, got in zip(pair, replies, strict=True):
                states = [m["version"] for m in got if m["type"] == "state"]
                if not states or states[-1] < version:  # the other worker's move, on its way
                    states.append(state_at(ws, version)["version"])
                assert states[-1] == version
        finally:
            for ws in pair:
                ws.close()
    assert len(stored_moves(room["room"])) == version == 6


def test_killing_the_worker_that_runs_the_bots_moves_them_to_the_other(workers, redis_url):
    import redis

    started = workers(2, bot_delay=0.05)
    holder_id = None
    for _ in range(100):
        holder_id = redis.Redis.from_url(redis_url).get(f"{workers.name}:lease")
        if holder_id:
            break
        time.sleep(0.05)
    assert holder_id is not None
    pid = int(holder_id.decode().split(":")[1])
    holder = next(w for w in started if w.process.pid == pid)
    other = next(w for w in started if w is not holder)
    room = other.post("/api/rooms", {"game": "crossroads",
                                     "options": {"rounds": 2, "first": "0"},
                                     "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    choose = random_chooser(7)
    ws = other.socket(room["room"], room["token"])
    try:
        play_out(ws, choose, until=lambda state: state["version"] >= 6)
    finally:
        ws.close()
    holder.process.send_signal(signal.SIGKILL)
    holder.process.wait()
    ws = other.socket(room["room"], room["token"])  # resumes from the version it is sent
    try:
        received = play_out(ws, choose)  # the bot's moves come from the other worker now
    finally:
        ws.close()
    final = [m for m in received if m["type"] == "state"][-1]
    assert final["status"] == "over" and final["version"] == 24
    assert len(stored_moves(room["room"])) == 24


def test_a_move_stored_while_a_worker_reads_the_room_reaches_that_worker(redis_url):
    """Worker B reads a room from the database just as worker A stores a move in it: A's
    announcement reaches B before B holds the room, so B drops it. B must still end up at the
    stored version, or the seat on B waits for a move it is never told of."""
    asyncio.run(_read_during_a_move(redis_url))


@contextlib.asynccontextmanager
async def two_workers(redis_url: str) -> AsyncIterator[tuple[Any, Any]]:
    """Two hubs on the test database, each a worker of one cluster on `redis_url`, in one
    process: stopped and closed at the end, whatever happened."""
    from chuko.server.cluster.workers import Cluster
    from chuko.server.rooms.hub import Hub
    from chuko.server.store.database import Store
    from chuko.server.web.app import CLUB_TERMS

    name = f"test-{uuid.uuid4().hex[:8]}"
    hubs: list[Hub] = []
    clusters: list[Cluster] = []
    try:
        for n in range(2):
            store = Store(URL)
            store.start()
            hub = Hub(store, CLUB_TERMS, bot_delay=0, round_pause=0, rng=Random(n))
            hub.cluster = cluster = Cluster(hub, redis_url, name=name)
            hubs.append(hub)
            clusters.append(cluster)
            await cluster.start()
        yield hubs[0], hubs[1]
    finally:
        for cluster in clusters:
            await cluster.stop()
        for hub in hubs:
            await hub.close()
            await asyncio.to_thread(hub.store.close)


async def _read_during_a_move(redis_url: str, resign: bool = False) -> None:
    async with two_workers(redis_url) as (a, b):
        made = await a.create("crossroads", {"rounds": 1, "first": "0"},
                              [{"kind": "me"}, {"kind": "friend"}])
        room_id = made["room"]
        await b.join(room_id, made["invites"][0]["url"].rsplit("/", 1)[1])
        b.rooms.pop(room_id, None)  # as B forgets a room nobody there watches

        announced = asyncio.Event()
        on_event = b.cluster._on_event

        def hear(room: str, event: dict) -> None:
            on_event(room, event)
            if room == room_id and (event.get("reload") if resign else event.get("version")):
                announced.set()

        b.cluster._on_event = hear  # type: ignore[method-assign]
        read, go_on = threading.Event(), threading.Event()
        load = b.store.load

        def slow_load(*args):
            row = load(*args)
            read.set()
            go_on.wait(10)
            return row

        b.store.load = slow_load  # type: ignore[method-assign]
        reading = asyncio.create_task(b.room(room_id))
        assert await asyncio.to_thread(read.wait, 10)
        held = await a.room(room_id)
        if resign:
            await a.resign(held, 0)
        else:
            await a.play(held, 0, held.legal(0, held.moment())[0])
        await asyncio.wait_for(announced.wait(), 10)  # heard while B was still reading
        go_on.set()
        room = await reading
        if resign:
            deadline = time.monotonic() + 10  # B catches the room up once it holds it
            while room.status != "over":
                assert time.monotonic() < deadline, "B holds the ended game as in play"
                await asyncio.sleep(0.02)
            assert room.result is not None and room.result["seat"] == 0
        else:
            assert room.version == 1 and room.moment().version == 1


def test_a_game_ended_without_a_move_while_a_worker_reads_the_room_reaches_that_worker(
        redis_url):
    """Worker B reads a room in play just as worker A stores its end with no move (a
    resignation; a claim is the same write): A's announcement reaches B before B holds the
    room. B must still hold the room as over, or a seat there plays on in a game that ended."""
    asyncio.run(_read_during_a_move(redis_url, resign=True))


def test_a_message_the_bus_cannot_handle_leaves_the_worker_listening(redis_url):
    """A message on a room's channel that is no event (not JSON) is logged and passed over:
    the worker still hears the next move and catches up."""
    asyncio.run(_catch_up_refused(redis_url, garbage=True))


def test_a_catch_up_the_database_refuses_is_tried_again(redis_url):
    """Worker B, whose sockets watch a room, hears of A's move just as the database cannot
    be read (a reader timed out): B tries the catch-up again in a moment, rather than leave
    its sockets behind the room until its next move (for ever, after a game's last)."""
    asyncio.run(_catch_up_refused(redis_url))


async def _catch_up_refused(redis_url: str, garbage: bool = False) -> None:
    from chuko.server.rooms.outbox import Client
    from chuko.server.store.database import Unavailable

    async with two_workers(redis_url) as (a, b):
        made = await a.create("crossroads", {"rounds": 1, "first": "0"},
                              [{"kind": "me"}, {"kind": "friend"}])
        await b.join(made["room"], made["invites"][0]["url"].rsplit("/", 1)[1])
        watched = await b.room(made["room"])
        watched.clients.add(Client(watched, None))  # a spectator's socket on B watches it
        refused = asyncio.Event()
        fetch = b.store.fetch_timed_moves

        async def unreadable_once(*args):
            if not refused.is_set():
                refused.set()
                raise Unavailable()
            return await fetch(*args)

        b.store.fetch_timed_moves = unreadable_once  # type: ignore[method-assign]
        held = await a.room(made["room"])
        if garbage:
            await a.cluster.redis.publish(a.cluster.channel(made["room"]), b"{no json")
        await a.play(held, 0, held.legal(0, held.moment())[0])
        await asyncio.wait_for(refused.wait(), 10)
        for _ in range(1000):
            if watched.version == 1:
                break
            await asyncio.sleep(0.01)
        assert watched.version == 1 and b.rooms.get(made["room"]) is watched


def test_a_rated_game_on_two_workers_shows_both_seats_change_on_each(workers):
    """A rated duel of two accounts, each seat on its own worker: both are shown their
    ratings before play, and at the end both workers show each seat's change, the one that
    stored the end from its write, the other from the database once told of it."""
    from sqlalchemy import update

    from chuko.server.store.database import Store
    from chuko.server.store.schema import seats, secret_hash
    from club_seed import add_player, add_room

    store = Store(URL)
    try:
        engine = store.engine
        suffix = uuid.uuid4().hex[:6]
        holders = [add_player(engine, f"ann{suffix}"), add_player(engine, f"bob{suffix}")]
        room, _ = add_room(engine, "crossroads", holders, status="playing",
                           options={"rounds": 1}, names=["Ann", "Bob"])
        with engine.begin() as conn:
            for seat in (0, 1):
                conn.execute(update(seats).where(seats.c.room == room, seats.c.seat == seat)
                             .values(token_hash=secret_hash(f"token{seat}{suffix}")))
    finally:
        store.close()
    a, b = workers(2)
    sockets = [a.socket(room, f"token0{suffix}"), b.socket(room, f"token1{suffix}")]
    seen: list[list[dict]] = [[], []]

    def play(seat: int) -> None:
        seen[seat] = play_out(sockets[seat], random_chooser(seat + 1))

    try:
        threads = [threading.Thread(target=play, args=(seat,)) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        for ws in sockets:
            ws.close()
    states = [[m for m in messages if m["type"] == "state"] for messages in seen]
    assert [s[0]["seats"][0]["rating"]["text"] for s in states] == ["1500?", "1500?"]
    ends = [[seat["rating"] for seat in s[-1]["seats"]] for s in states]
    assert ends[0] == ends[1], ends
    assert all(rating["change"] is not None for rating in ends[0])  # 0 for a draw
    assert [r["rating"] - r["change"] for r in ends[0]] == [1500, 1500]
    assert ends[0][0]["change"] == -ends[0][1]["change"]
