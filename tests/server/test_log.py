"""The move log: on connecting, before its first state, a client is sent every move so far in
words for its seat, from the game's record; after that each state's `last` adds one line, and
no version is skipped, so the log a reload rebuilds is the log seen live."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_helpers import (
    first_message,
    new_room,
    play_out,
    random_chooser,
    state_at,
    stored_record,
    whole_replay,
)

from chuko.games import game_class
from chuko.server.rooms.moment import Moment
from chuko.server.rooms.outbox import MAX_BEHIND, Client
from chuko.server.rooms.room import Room, Seat


def live_log(received: list[dict]) -> list[str]:
    """The log as a browser keeps it: the log message, then `last` whenever `version` grows."""
    assert received[0]["type"] == "log"
    lines = list(received[0]["lines"])
    version = None
    for message in received[1:]:
        if message["type"] != "state":
            continue
        if version is not None and message["version"] > version:
            assert message["version"] == version + 1, "a version was skipped"
            lines.append(message["last"])
        version = message["version"]
    return lines


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}], {"rounds": 2}),
    ("chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"},
               {"kind": "bot", "level": "random"}], {"players": 3, "turn_limit": 120}),
])
def test_the_log_after_a_reconnect_equals_the_log_seen_live(make_client, game, seats, options):
    client = make_client(seed=8)
    room = new_room(client, game, seats, **options)
    url = f"/ws/{room['room']}?token={room['token']}"
    choose = random_chooser(4)
    with client.websocket_connect(url) as ws:
        received = [first_message(ws)]
        assert received[0]["lines"] == []  # nothing played yet
        state = state_at(ws, 0)
        received.append(state)
        for _ in range(3):  # a few moves, then the page is reloaded
            while not (state["view"]["to_move"] and 0 in state["view"]["to_move"]):
                state = state_at(ws, state["version"] + 1)
                received.append(state)
            ws.send_json({"type": "move", "move": choose(state)})
            state = state_at(ws, state["version"] + 1)
            received.append(state)
    seen = live_log(received)
    assert len(seen) == state["version"] >= 3
    with client.websocket_connect(url) as ws:
        log = first_message(ws)
        received = [log, *play_out(ws, choose)]
    again = received[1]
    # The log covers exactly the versions before the first state sent after it.
    assert again["type"] == "state" and len(log["lines"]) == again["version"]
    assert log["lines"][: len(seen)] == seen
    whole = live_log(received)
    with client.websocket_connect(url) as ws:
        assert first_message(ws)["lines"] == whole
    replay = whole_replay(client, room["room"], room["token"])
    assert whole == [frame["caption"] for frame in replay["frames"][1:]]
    assert not any(line == "The deal." for line in whole)


def test_each_seat_and_a_spectator_get_the_log_in_their_own_words(make_client):
    client = make_client(seed=3)
    room = new_room(client, "chuko", [{"kind": "me", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}], turn_limit=60)
    url = f"/ws/{room['room']}"
    with client.websocket_connect(f"{url}?token={room['token']}") as ws:
        play_out(ws, random_chooser(2))
    with client.websocket_connect(f"{url}?token={room['token']}") as ws, \
            client.websocket_connect(url) as watcher:
        mine, watched = first_message(ws)["lines"], first_message(watcher)["lines"]
    assert len(mine) == len(watched) > 0
    assert any(line.startswith("You") for line in mine)
    assert not any("You" in line for line in watched)
    assert any(line.startswith("Ann") for line in watched)
    record = stored_record(client, room["room"])
    frames = game_class("chuko").frames(record, ["Ann", "Easy bot"], None)
    assert watched == [frame["caption"] for frame in frames[1:]]


def test_a_watcher_of_a_bot_game_is_sent_every_version_in_order(make_client):
    client = make_client(seed=5)
    room = new_room(client, "chuko", [{"kind": "bot", "level": "easy"},
                                      {"kind": "bot", "level": "random"}], turn_limit=200)
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        received = [first_message(watcher)]
        while received[-1].get("status") != "over":
            received.append(watcher.receive_json())
    versions = sorted({m["version"] for m in received[1:]})
    assert versions == list(range(versions[0], versions[-1] + 1))
    assert len(live_log(received)) == versions[-1]


def test_a_client_far_behind_is_cut_off_and_states_of_one_version_are_sent_once():
    """Unit level: the outbox keeps one state per version, the newest, and gives up on a
    client MAX_BEHIND states behind (its socket is closed; a reconnect sends a fresh log)."""
    state = game_class("crossroads").from_options({}).new(1)
    room = Room("r", "crossroads", {}, state, [Seat(0, "human", None, None, None, True),
                                               Seat(1, "human", None, None, None, True)])

    async def scenario():
        client = Client(room, 0)
        client.send_state(Moment(state, 0, "waiting", None))
        client.send_state(Moment(state, 0, "playing", None))
        client.send({"type": "pong"})
        first, second = await client.next_message(), await client.next_message()
        assert json.loads(first)["status"] == "playing" and json.loads(second) == {"type": "pong"}
        for version in range(1, MAX_BEHIND + 2):
            client.send_state(Moment(state, version, "playing", None))
        return client.cut_off, await client.next_message()

    assert asyncio.run(scenario()) == (True, None)
