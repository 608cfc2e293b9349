"""Durability: a game survives the server stopping mid-game. A new app on the same SQLite
file rebuilds every unfinished room with Game.replay, its bots go on, the seats' tokens
still hold, and the future's chance comes from `secrets`, never from a seed."""

from __future__ import annotations

import random
import secrets
import warnings

from server_helpers import new_room, play_out, random_chooser, state_at, whole_replay

from chuko.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def app(db_url: str, **options):
    options.setdefault("bot_delay", 0)
    options.setdefault("round_pause", 0)
    return create_app(db_url, **options)


def test_crossroads_restart_mid_game_then_finish(db_url):
    with TestClient(app(db_url, rng=random.Random(4))) as client:
        room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                        first="0", rounds=2)
        url = f"/ws/{room['room']}?token={room['token']}"
        choose = random_chooser(2)
        with client.websocket_connect(url) as ws:
            state = state_at(ws, 0)
            for _ in range(3):  # three of my moves, each answered by the bot
                ws.send_json({"type": "move", "move": choose(state)})
                state = state_at(ws, state["version"] + 2)
        before = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert before["version"] == 6 and before["status"] == "playing"

    with TestClient(app(db_url)) as client:
        after = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
        assert after["view"] == before["view"] and after["version"] == 6
        assert after["legal"] == before["legal"]
        # The last move's sentence is rebuilt from the record.
        assert after["last"] == before["last"] and after["last"].startswith("Easy bot")
        with client.websocket_connect(url) as ws:
            received = play_out(ws, choose)
        assert received[-1]["view"]["outcome"] is not None
        assert received[-1]["version"] == 24  # two rounds of twelve cards
        replay = whole_replay(client, room["room"])
        assert len(replay["frames"]) == 25


def test_restored_chuko_and_chuchula_draw_their_chance_from_secrets(db_url):
    with TestClient(app(db_url, rng=random.Random(9))) as client:
        chuko = new_room(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        chuchula = new_room(client, "chuchula", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                            players=2, length=2)
        seeded = client.app.state.hub.rooms[chuko["room"]].state._rng
        assert type(seeded) is random.Random  # the test's seed, before the restart
    with TestClient(app(db_url)) as client:
        rooms = client.app.state.hub.rooms
        assert isinstance(rooms[chuko["room"]].state._rng, secrets.SystemRandom)
        assert isinstance(rooms[chuchula["room"]].state._rng, secrets.SystemRandom)
        # …and the games go on to their end, with recycles and new deals drawn afresh.
        for room in (chuko, chuchula):
            with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
                assert play_out(ws, random_chooser(3))[-1]["status"] == "over"


def test_a_real_server_deals_from_secrets(db_url):
    with TestClient(app(db_url)) as client:
        room = new_room(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        state = client.app.state.hub.rooms[room["room"]].state
        assert isinstance(state._rng, secrets.SystemRandom)


def test_bots_move_on_after_a_restart_without_anyone_connected(db_url):
    """Stopped while the bot was about to move (its pause is long): the restarted server lets
    it move with nobody connected."""
    with TestClient(app(db_url, rng=random.Random(1), bot_delay=60)) as client:
        room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                        first="0")
        with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
            state = state_at(ws, 0)
            ws.send_json({"type": "move", "move": state["legal"][0]})
            assert state_at(ws, 1)["view"]["to_move"] == [1]
    with TestClient(app(db_url)) as client:
        state = client.get(f"/api/rooms/{room['room']}").json()
        while state["version"] < 2:
            state = client.get(f"/api/rooms/{room['room']}").json()
        assert state["view"]["to_move"] == [0]


def test_a_waiting_room_keeps_its_invite_across_a_restart(db_url):
    with TestClient(app(db_url)) as client:
        room = new_room(client, "chuchula", [{"kind": "me"}, {"kind": "friend"}], players=2)
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    with TestClient(app(db_url)) as client:
        joined = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code})
        assert joined.status_code == 200
        state = client.get(f"/api/rooms/{room['room']}?token={joined.json()['token']}").json()
        assert state["status"] == "playing" and state["seat"] == 1
    with TestClient(app(db_url)) as client:
        again = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code})
        assert again.status_code == 409
