"""The database goes away and comes back, twice, under a game: a PostgreSQL server of the
test's own (`bench/postgres_process.py`) is stopped for a few seconds mid-game. Meanwhile
each move is refused with the sentence at once and reads answer 503 with Retry-After; once
it is back the game goes on by itself (its bot moves again) and nothing acknowledged is
lost; the store's writer thread lives through it; and a stop (SIGTERM) ends the server within
its timeout even while the database is away. In-process for the store, then on a real
`chuko serve`, with one worker and with two sharing a Redis."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from bench.postgres_process import PostgresProcess, binaries
from server_helpers import random_chooser, start_serve

pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(binaries() is None, reason="PostgreSQL is not installed")]
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from chuko.server.rooms.move_path import MOVE_NOT_SAVED  # noqa: E402
from chuko.server.store import database as db  # noqa: E402

STOP_TIMEOUT = 15.0  # seconds a SIGTERM may take: uvicorn's grace, then the store's close


@pytest.fixture
def postgres():
    server = PostgresProcess()
    server.start()
    try:
        yield server
    finally:
        server.close()


def test_the_store_refuses_at_once_while_the_database_is_away_and_resumes_when_it_is_back(
        postgres):
    async def scenario() -> list[str]:
        store = db.Store(postgres.url)
        store.start()
        room = db.RoomRow("outage", "crossroads", {}, "playing", 0, {"x": 1},
                          [db.SeatRow(0, "human", None, "h", None, True, None)])
        await store.submit(db.insert_room(room))
        number = 0
        try:
            for _ in range(2):
                number += 1
                await store.submit(db.append_move(room.id, number, 0, f"m{number}", "playing"))
                postgres.stop()
                for _ in range(3):
                    began = time.monotonic()
                    with pytest.raises(db.Unavailable):
                        await store.submit(db.append_move(room.id, number + 1, 0, "x",
                                                          "playing"))
                    assert time.monotonic() - began < 1.0
                    with pytest.raises(db.Unavailable):
                        store.load(room.id)
                    await asyncio.sleep(0.5)
                assert all(lane.thread.is_alive() for lane in store._lanes)
                postgres.start()
                number += 1
                await until_stored(store, db.append_move(room.id, number, 0, f"m{number}",
                                                         "playing"))
            return [move for _, move in store.load(room.id).moves]
        finally:
            store.close()

    assert asyncio.run(scenario()) == ["m1", "m2", "m3", "m4"]


async def until_stored(store: db.Store, write: db.Write, within: float = 10.0) -> None:
    """Submit `write` again while the database is still away, for at most `within` s."""
    deadline = time.monotonic() + within
    while True:
        try:
            await store.submit(write)
            return
        except db.Unavailable:
            assert time.monotonic() < deadline, "the store did not resume"
            await asyncio.sleep(0.1)


class Server:
    """`chuko serve` on the test's PostgreSQL (with `workers` > 1, sharing a Redis)."""

    def __init__(self, db_url: str, log: Path, workers: int = 1,
                 redis_url: str | None = None) -> None:
        self.log = log
        args = ["--db", db_url, "--bot-delay", "0", "--round-pause", "0"]
        if redis_url:
            args += ["--workers", str(workers), "--redis", redis_url,
                     "--cluster-name", f"outage-{log.parent.name}"]
        self.port, self.process = start_serve(args, log)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> float:
        """SIGTERM; the seconds the server took to end (killed past STOP_TIMEOUT)."""
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return time.monotonic() - began


class Seat:
    """A player's socket: moves sent, refusals and acknowledged versions read."""

    def __init__(self, server: Server, room: str, token: str) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/{room}?token={token}"
        self.ws = connect(self.url, legacy=True)
        self.choose = random_chooser(7)
        self.state: dict = {}
        self.acknowledged = 0  # the highest version this seat was sent

    def read(self, timeout: float) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            self.state = message
            self.acknowledged = max(self.acknowledged, message["version"])
        return message

    def my_turn(self, timeout: float = 30.0) -> bool:
        """Read until it is this seat's turn (True) or the game is over (False)."""
        deadline = time.monotonic() + timeout
        while not (self.state and (self.state["status"] == "over" or (
                self.state["status"] == "playing"
                and self.state["seat"] in self.state["view"]["to_move"]))):
            self.read(max(0.01, deadline - time.monotonic()))
        return self.state["status"] == "playing"

    def move(self) -> dict:
        """Send a move; the answer: the state that holds it, or an error."""
        version = self.state["version"]
        self.ws.send(json.dumps({"type": "move", "move": self.choose(self.state)}))
        while True:
            message = self.read(1.0)  # refusal or acknowledgement within a second
            if message["type"] == "error" or (message["type"] == "state"
                                              and message["version"] > version):
                return message


def play_through_two_outages(server: Server, postgres: PostgresProcess) -> None:
    made = httpx.post(server.base + "/api/rooms", json={
        "game": "crossroads", "options": {"rounds": 2, "first": "0"},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}).json()
    seat = Seat(server, made["room"], made["token"])
    for _ in range(2):
        for _ in range(2):  # moves while the database is there
            assert seat.my_turn()
            assert seat.move()["type"] == "state"
        assert seat.my_turn()
        postgres.stop()
        for _ in range(3):
            assert seat.move() == {"type": "error", "message": MOVE_NOT_SAVED}
            absent = httpx.get(server.base + "/api/rooms/0000000000000000notloaded")
            assert absent.status_code == 503 and absent.headers["retry-after"]
            assert absent.json()["error"].endswith("try again in a moment.")
            assert absent.headers["x-content-type-options"] == "nosniff"
            assert_socket_refused(server, "0000000000000000notloaded")
            time.sleep(0.5)
        postgres.start()
        deadline = time.monotonic() + 10
        while seat.move()["type"] == "error":  # refused until the writer is back
            assert time.monotonic() < deadline, "moves were still refused 10 s after"
            time.sleep(0.2)
        assert seat.my_turn()  # the bot moved again by itself
    while seat.my_turn():
        assert seat.move()["type"] == "state"
    seat.ws.close()
    stored = stored_moves(postgres.url, made["room"])
    assert seat.state["version"] == seat.acknowledged == len(stored)


def assert_socket_refused(server: Server, room: str) -> None:
    """A socket to a room that cannot be read gets the sentence, then a close frame."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/{room}") as ws:
        message = json.loads(ws.recv(timeout=1.0))
        assert message["type"] == "error" and "try again in a moment" in message["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=1.0)
    assert ws.close_code == 1011 and ws.close_reason == message["message"]


def stored_moves(url: str, room: str) -> list[tuple[int, str]]:
    store = db.Store(url)
    try:
        return store.moves(room)
    finally:
        store.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_goes_on_through_two_outages_and_sigterm_stops_the_server_during_one(
        postgres, tmp_path, request, workers):
    """With one worker, and with two sharing a Redis."""
    redis_url = request.getfixturevalue("redis_url") if workers > 1 else None
    server = Server(postgres.url, tmp_path / "server.log", workers, redis_url)
    try:
        play_through_two_outages(server, postgres)
        postgres.stop()
        assert server.stop() < STOP_TIMEOUT, server.log.read_text()
    finally:
        server.stop()
    log = server.log.read_text()
    # On failure, the traceback's last lines: where it was raised, and what.
    assert "Traceback" not in log, "\n".join(log[log.find("Traceback"):].splitlines()[-40:])
