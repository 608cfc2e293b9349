"""Clocks, resigning and claiming over the API and the socket: a room's clock asked for in
`POST /api/rooms` (a wrong one refused with one sentence), the state messages that carry it,
`resign` and `claim` messages, and a clocked game that outlives a `kill -9` of a real
server."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from server_helpers import first_message, join, start_serve, state_at

from chuko.server.shared.limits import Limits

CLOCK = {"kind": "move", "seconds": 600, "reserve": 0}


def clocked_room(client, clock: dict | None = CLOCK, players: int = 2) -> dict:
    response = client.post("/api/rooms", json={
        "game": "crossroads" if players == 2 else "chuko",
        "options": {"first": "0"} if players == 2 else {"players": players},
        "seats": [{"kind": "me"}] + [{"kind": "friend"}] * (players - 1), "clock": clock})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_wrong_clock_gets_400_and_one_sentence(make_client):
    client = make_client()
    response = client.post("/api/rooms", json={
        "game": "crossroads", "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
        "clock": {"kind": "days", "days": 0}})
    assert response.status_code == 400
    assert response.json()["error"] == ("A clock's days a move must be a whole number from 1 "
                                        "to 14, not 0.")


def test_the_state_carries_the_clock_and_a_resign_at_once_aborts_the_game(make_client):
    client = make_client()
    room = clocked_room(client)
    friend = join(client, room, name="Bob")
    state = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert state["clock"]["control"] == CLOCK and state["rated"] is False
    assert [s["running"] for s in state["clock"]["seats"]] == [True, False]
    assert 29 < state["clock"]["seats"][0]["left"] <= 30  # a first move's limit
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        first_message(watcher)
        state_at(watcher, 0)
        watcher.send_json({"type": "resign"})
        assert watcher.receive_json() == {"type": "error",
                                          "message": "Spectators cannot resign."}
    url = f"/ws/{room['room']}?token={friend['token']}"
    with client.websocket_connect(url) as ws:
        first_message(ws)
        state_at(ws, 0)
        ws.send_json({"type": "claim"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["message"].startswith(
            "There is nothing to claim")
        ws.send_json({"type": "resign"})
        over = ws.receive_json()
        while over["status"] != "over":
            over = ws.receive_json()
        assert over["result"] == "Game aborted: you resigned before two moves were played."
        assert [s["running"] for s in over["clock"]["seats"]] == [False, False]
        ws.send_json({"type": "resign"})
        assert ws.receive_json()["message"] == "Only a game in play can be given up or claimed."


def test_a_player_who_left_can_be_claimed_from_over_the_socket(make_client):
    client = make_client(limits=Limits(leave_grace=0))
    room = clocked_room(client, None)
    join(client, room)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        first_message(ws)
        state = state_at(ws, 0)
        assert state["claimable"] == [1]  # the friend has no socket open, and no grace
        ws.send_json({"type": "claim"})
        while state["status"] != "over":
            state = ws.receive_json()
        assert state["result"] == "Game aborted: Friend left before two moves were played."
        stored = client.app.state.hub.store.load(room["room"])
        assert stored.result == {"kind": "aborted", "seat": 1, "why": "left"}
        assert stored.status == "over"


@pytest.mark.slow
def test_a_clocked_game_outlives_kill_9_of_a_real_server(tmp_path: Path):
    """`kill -9` mid-game: the restarted server works the clocks out from the stored times,
    so the clock of the seat to move started when the move before it was stored."""
    httpx = pytest.importorskip("httpx")
    from websockets.sync.client import connect

    db_url = f"sqlite:///{tmp_path}/chuko.db"
    args = ["--db", db_url, "--bot-delay", "0", "--round-pause", "0"]
    port, process = start_serve(args, tmp_path / "serve.log")
    base = f"http://127.0.0.1:{port}"
    try:
        room = httpx.post(f"{base}/api/rooms", json={
            "game": "crossroads", "options": {"first": "0"}, "clock": CLOCK,
            "seats": [{"kind": "me"}, {"kind": "friend"}]}).json()
        code = room["invites"][0]["url"].rsplit("/", 1)[1]
        httpx.post(f"{base}/api/rooms/{room['room']}/join", json={"invite": code})
        with connect(f"ws://127.0.0.1:{port}/ws/{room['room']}?token={room['token']}") as ws:
            state: dict = {}
            while state.get("type") != "state":
                state = json.loads(ws.recv())
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]}))
            while state.get("version") != 1:
                state = json.loads(ws.recv())
        before = state["clock"]
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    port, process = start_serve(args, tmp_path / "serve.log")
    try:
        after = httpx.get(f"http://127.0.0.1:{port}/api/rooms/{room['room']}").json()["clock"]
    finally:
        process.terminate()
        process.wait(15)

    def since(clock: dict) -> float:  # when the running clock of seat 1 started
        return clock["now"] + clock["seats"][1]["left"] - CLOCK["seconds"]

    assert [s["running"] for s in after["seats"]] == [False, True]
    assert abs(since(after) - since(before)) < 0.2
    assert after["now"] > before["now"]
    assert after["seats"][0] == before["seats"][0]
