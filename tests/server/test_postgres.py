"""The same schema on PostgreSQL: a game played, the server restarted, the game finished
(upgrading a database of an older schema there: test_migrations.py). Runs when
CHUKO_TEST_POSTGRES names a database (e.g. postgresql://chuko@127.0.0.1/chukotest)
and psycopg 3 (the `postgres` extra) is installed; skipped otherwise."""

from __future__ import annotations

import os
import random
import warnings

import pytest
from server_helpers import new_room, play_out, random_chooser, state_at, whole_replay

from chuko.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

URL = os.environ.get("CHUKO_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")


@pytest.mark.parametrize("game", ["chuko", "chuchula"])
def test_postgres_game_survives_a_restart(game):
    pytest.importorskip("psycopg")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]
    with TestClient(create_app(URL, bot_delay=0, round_pause=0, rng=random.Random(3))) as client:
        room = new_room(client, game, seats, players=2)
        url = f"/ws/{room['room']}?token={room['token']}"
        with client.websocket_connect(url) as ws:
            state = state_at(ws, 0)
            while 0 not in state["view"]["to_move"]:
                state = state_at(ws, state["version"] + 1)
            ws.send_json({"type": "move", "move": random_chooser(1)(state)})
            state_at(ws, state["version"] + 1)
    with TestClient(create_app(URL, bot_delay=0, round_pause=0)) as client:
        with client.websocket_connect(url) as ws:
            assert play_out(ws, random_chooser(2))[-1]["status"] == "over"
        frames = whole_replay(client, room["room"], room["token"])
        assert frames["frames"][0]["view"]["seat"] == 0


def test_the_writer_reconnects_when_the_database_dropped_its_connection():
    """The writer keeps one connection; when PostgreSQL drops it (a restart, an
    administrator), the next batch is written on a new one rather than failing."""
    pytest.importorskip("psycopg")
    import asyncio
    import time

    from sqlalchemy import text

    from chuko.server.store import database as db

    async def scenario() -> str:
        store = db.Store(URL)
        store.start()
        try:
            room = db.RoomRow(f"lost{time.time_ns()}"[:32], "crossroads", {}, "playing", 0,
                              {"x": 1}, [db.SeatRow(0, "human", None, "h", None, True, None)])
            await store.submit(db.insert_room(room))
            writer = await store.submit(
                lambda conn: conn.execute(text("SELECT pg_backend_pid()")).scalar())
            with store.engine.connect() as admin:
                admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": writer})
            await store.submit(db.append_move(room.id, 1, 0, "A", "playing"))
            return store.load(room.id).moves[0][1]
        finally:
            store.close()

    assert asyncio.run(scenario()) == "A"
