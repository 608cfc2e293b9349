"""Durability: a game survives the server stopping mid-game. A new app on the same SQLite
file rebuilds a room from its deal, its secret seed and its move log, exactly as it was
(chance events included), its bots go on, and the seats' tokens still hold."""

from __future__ import annotations

import random
import warnings

import pytest
from server_helpers import my_turn, new_room, play_out, random_chooser, state_at, whole_replay

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


@pytest.mark.parametrize(("game", "options", "chance"), [
    # Chükö whose draw pile has been recycled at least once (resets recycle it often)
    ("chuko", {"players": 2, "pack": "2-12", "turn_limit": 400},
     lambda record: any("recycled" in turn for turn in record["turns"])),
    # Chuchula into its third round: each round was dealt from the room's generator
    ("chuchula", {"players": 2, "length": 5},
     lambda record: len(record["rounds"]) >= 3),
])
def test_a_game_with_later_chance_survives_a_restart_exactly(db_url, game, options, chance):
    """Stored as its deal, its seed and its moves, the game rebuilt after a restart is the
    game that was played: the same record, chance events included, the same views, and its
    chance still to come is the same as it would have been."""
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    with TestClient(app(db_url, rng=random.Random(6))) as client:
        room = new_room(client, game, seats, **options)
        url = f"/ws/{room['room']}?token={room['token']}"
        live = client.app.state.hub.rooms[room["room"]]
        with client.websocket_connect(url) as ws:
            play_out(ws, random_chooser(3),
                     until=lambda state: my_turn(state) and chance(live.state.record()))
    # The server has stopped (its bots too): the room as it was then.
    record, view, version = live.state.record(), live.state.view(0), live.version
    assert chance(record) and live.status == "playing"
    ahead = live.state.copy()  # what would come next, chance included, had it not stopped
    with TestClient(app(db_url, bot_delay=3600)) as client:
        after = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
        assert after["version"] == version and after["view"] == view
        rebuilt = client.app.state.hub.rooms[room["room"]].state
        assert rebuilt.record() == record
        # The same moves from here draw the same chance, before and after the restart.
        rng = random.Random(1)
        for _ in range(60):
            if ahead.outcome is not None:
                break
            mover = ahead.to_move[0]
            move = ahead.random_move(mover, rng)
            ahead.play(mover, move)
            rebuilt.play(mover, move)
        assert rebuilt.record() == ahead.record()


def test_a_real_server_draws_its_chance_from_a_secret_seed_per_room(db_url):
    with TestClient(app(db_url)) as client:
        rooms = [new_room(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
                 for _ in range(2)]
        seeds = [client.app.state.hub.store.load(room["room"]).seed for room in rooms]
    assert all(isinstance(seed, int) for seed in seeds) and seeds[0] != seeds[1]


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
