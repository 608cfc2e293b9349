"""Players see how many watch: every state carries the count of the room's spectators
(sockets without a seat), and a spectator coming or going sends everyone the new count in
a presence message. The count only: nothing says who watches."""

from __future__ import annotations

from server_helpers import new_room

PRESENCE_KEYS = {"type", "seats", "watchers"}


def next_presence(ws) -> dict:
    while (message := ws.receive_json())["type"] != "presence":
        assert message["type"] != "error", message
    return message


def first_state(ws) -> dict:
    assert ws.receive_json()["type"] == "log"
    state = ws.receive_json()
    assert state["type"] == "state"
    return state


def test_players_learn_how_many_watch_as_spectators_come_and_go(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                    first="0")
    path = f"/ws/{room['room']}"
    with client.websocket_connect(f"{path}?token={room['token']}") as player:
        assert first_state(player)["watchers"] == 0
        with client.websocket_connect(path) as ann:
            state = first_state(ann)
            assert state["spectator"] and state["watchers"] == 1
            told = next_presence(player)
            assert told["watchers"] == 1 and set(told) == PRESENCE_KEYS
            with client.websocket_connect(path) as bea:
                assert first_state(bea)["watchers"] == 2
                assert next_presence(player)["watchers"] == 2
                assert next_presence(ann)["watchers"] == 2
            assert next_presence(player)["watchers"] == 1
        assert next_presence(player)["watchers"] == 0
        # A player's own second socket is no watcher.
        with client.websocket_connect(f"{path}?token={room['token']}") as again:
            assert first_state(again)["watchers"] == 0


def test_a_game_of_bots_alone_counts_its_watchers(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "bot", "level": "easy"},
                                           {"kind": "bot", "level": "easy"}])
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path) as ann:
        assert first_state(ann)["watchers"] == 1
        with client.websocket_connect(path) as bea:
            assert first_state(bea)["watchers"] == 2
