"""A new subscriber to the rooms' events needs no change elsewhere: subscribed to `GameOver` on
the bus of an app built as the server builds it, it hears each game's end, once, with the
places and the result as stored."""

from __future__ import annotations

import threading

from server_helpers import new_room

from chuko.server.shared.bus import GameOver


def test_a_subscriber_to_game_over_hears_the_end_of_a_game_with_its_places(make_client):
    client = make_client()
    hub = client.app.state.hub
    heard: list[GameOver] = []
    ended = threading.Event()

    def listen(event: GameOver) -> None:
        heard.append(event)
        ended.set()

    hub.bus.subscribe(GameOver, listen)
    made = new_room(client, "crossroads", [{"kind": "bot", "level": "random"},
                                           {"kind": "bot", "level": "easy"}])
    assert ended.wait(60), "the bots' game did not end"
    room = hub.rooms[made["room"]]
    state = client.get(f"/api/rooms/{room.id}").json()
    assert state["status"] == "over"
    assert heard == [GameOver(room.id, "crossroads", False, tuple(room.places()), room.result)]
