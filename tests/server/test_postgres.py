"""The same schema on PostgreSQL: a game played, the server restarted, the game finished.
Runs when CHUKO_TEST_POSTGRES names a database (e.g. postgresql://chuko@127.0.0.1/chukotest)
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


def test_postgres_database_without_the_new_columns_gains_them_on_start():
    """A database made before seats had names and rooms had rematches: the columns are
    dropped here to make one; starting the app adds them back, and old rooms still load."""
    pytest.importorskip("psycopg")
    from sqlalchemy import inspect, text

    from chuko.server import store as db

    with TestClient(create_app(URL, bot_delay=0, round_pause=0, rng=random.Random(4))) as client:
        room = new_room(client, "caravan", [{"kind": "me", "name": "Ann"}])
    engine = db.make_engine(URL)
    with engine.begin() as conn:
        conn.execute(text('ALTER TABLE seats DROP COLUMN "name"'))
        conn.execute(text('ALTER TABLE rooms DROP COLUMN "rematch"'))
        conn.execute(text('ALTER TABLE rooms DROP COLUMN "rematch_of"'))
    with TestClient(create_app(URL, bot_delay=0, round_pause=0)) as client:
        state = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
        assert state["seat"] == 0 and state["seats"][0]["name"] == "Host"
        renamed = new_room(client, "caravan", [{"kind": "me", "name": "Bob"}])
        assert client.get(f"/api/rooms/{renamed['room']}").json()["seats"][0]["name"] == "Bob"
    columns = {c["name"] for c in inspect(engine).get_columns("seats")}
    assert "name" in columns
    engine.dispose()
