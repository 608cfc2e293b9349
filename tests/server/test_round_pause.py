"""The pause between rounds: each state says whether the last move ended a round; when the
next seats to move are all bots they wait the app's `round_pause` seconds (`bots_wait` in the
state) unless a seat sends {"type": "next"}. A two-round Crossroads match ends its first round
after the 12th card."""

from __future__ import annotations

import time

import pytest
from server_helpers import first_message, new_room, play_out, random_chooser, state_at

BOT_ENDS_ROUND = {"rounds": 2, "first": "0"}  # seat 1 lays the 12th card and leads round 2
ME_VS_BOT = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


def error_of(ws) -> str:
    while (message := ws.receive_json())["type"] != "error":
        pass
    return message["message"]


def round_end(ws, choose) -> dict:
    """Play seat 0 until a state says a round ended; that state."""
    state = state_at(ws, 0)
    while not state["round_ended"]:
        if 0 in state["view"]["to_move"]:
            ws.send_json({"type": "move", "move": choose(state)})
        state = state_at(ws, state["version"] + 1)
    return state


def test_a_next_from_a_seat_ends_the_round_pause_early(make_client):
    client = make_client(seed=2, round_pause=30)
    room = new_room(client, "crossroads", ME_VS_BOT, **BOT_ENDS_ROUND)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        first_message(ws)
        paused = round_end(ws, random_chooser(1))
        assert paused["version"] == 12 and paused["view"]["to_move"] == [1]
        assert 29 <= paused["bots_wait"] <= 30
        assert paused["status"] == "playing" and paused["result"] is None
        started = time.monotonic()
        ws.send_json({"type": "next"})
        released = state_at(ws, 12)  # the pause is over for everyone…
        assert released["version"] == 12 and released["bots_wait"] is None
        after = state_at(ws, 13)  # …and the bot leads round 2 at once
        assert time.monotonic() - started < 5
        assert after["round_ended"] is False and after["bots_wait"] is None
        assert after["last"].startswith("Easy bot")
        ws.send_json({"type": "next"})
        assert error_of(ws) == "No round is waiting to start."


def test_without_a_next_the_bots_go_on_after_the_pause(make_client):
    client = make_client(seed=2, round_pause=0.3)
    room = new_room(client, "crossroads", ME_VS_BOT, **BOT_ENDS_ROUND)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        paused = round_end(ws, random_chooser(1))
        started = time.monotonic()
        assert 0 < paused["bots_wait"] <= 0.3
        assert state_at(ws, 13)["last"].startswith("Easy bot")
        assert 0.25 <= time.monotonic() - started < 5


def test_bots_alone_pause_between_rounds_and_a_spectator_cannot_cut_it_short(make_client):
    client = make_client(seed=3, round_pause=0.2)
    room = new_room(client, "crossroads", [{"kind": "bot", "level": "easy"}] * 2, rounds=2)
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        received = [first_message(watcher)]
        while received[-1].get("status") != "over":
            message = watcher.receive_json()
            received.append(message)
            if message["type"] == "state" and message["bots_wait"]:
                watcher.send_json({"type": "next"})
                assert error_of(watcher) == "Spectators cannot start the next round."
    states = [m for m in received if m["type"] == "state"]
    ended = {m["version"] for m in states if m["round_ended"]}
    assert ended == {12} and states[-1]["version"] == 24
    assert any(m["bots_wait"] for m in states if m["version"] == 12)
    assert not any(m["bots_wait"] for m in states if m["version"] != 12)


def test_no_pause_when_a_person_leads_the_next_round(make_client):
    """Seat 0 lays the 12th card and leads round 2: it takes its own time, nobody waits."""
    client = make_client(seed=2, round_pause=30)
    room = new_room(client, "crossroads", ME_VS_BOT, rounds=2, first="1")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        paused = round_end(ws, random_chooser(1))
        assert paused["version"] == 12 and paused["view"]["to_move"] == [0]
        assert paused["bots_wait"] is None
        ws.send_json({"type": "next"})
        assert error_of(ws) == "No round is waiting to start."
        ws.send_json({"type": "move", "move": random_chooser(1)(paused)})
        final = play_out(ws, random_chooser(1))[-1]
    assert final["version"] == 24 and final["round_ended"] is False


@pytest.mark.parametrize("pause", [0, 30])
def test_chuchula_rounds_end_after_the_last_commit_and_people_are_never_kept_waiting(
        make_client, pause):
    """In Chuchula every seat commits each round, the person too, so bots never wait."""
    client = make_client(seed=4, round_pause=pause)
    room = new_room(client, "chuchula", ME_VS_BOT, players=2, length=3)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        states = [m for m in play_out(ws, random_chooser(3)) if m["type"] == "state"]
    ended = sorted({m["view"]["round"] for m in states if m["round_ended"]})
    assert ended == [2, 3]  # the view is already at the next round when the state is sent
    assert all(m["bots_wait"] is None for m in states)
    assert states[-1]["round_ended"] is False and states[-1]["status"] == "over"


def test_round_pause_of_zero_means_no_wait(make_client):
    client = make_client(seed=2)  # the tests' default: round_pause=0
    room = new_room(client, "crossroads", ME_VS_BOT, **BOT_ENDS_ROUND)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        paused = round_end(ws, random_chooser(1))
        assert paused["round_ended"] is True and paused["bots_wait"] is None
