"""A socket coming or going sends the others one small presence message,
not a state to everyone, so many sockets on one seat cost one snapshot each."""

from __future__ import annotations

import asyncio
import json
from random import Random

from server_helpers import new_room

from chuko.server.rooms.hub import Hub
from chuko.server.rooms.outbox import Client
from chuko.server.rooms.room import Room
from chuko.server.store.database import Store
from chuko.server.web.app import CLUB_TERMS


async def open_room(store: Store) -> Room:
    hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(1))
    created = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
    return hub.rooms[created["room"]]


def test_300_sockets_on_one_seat_build_one_snapshot_each(monkeypatch):
    builds = []
    state_text = Room.state_text

    def counted(self, seat, moment=None, lang="en"):
        builds.append(seat)
        return state_text(self, seat, moment, lang)

    monkeypatch.setattr(Room, "state_text", counted)

    async def scenario() -> None:
        store = Store("sqlite://")
        store.start()
        try:
            room = await open_room(store)
            clients = []
            for _ in range(300):
                client = Client(room, 0)
                room.join(client)
                clients.append(client)
                for each in clients:  # every socket sends what it has, as the pumps would
                    while each._queue:
                        text = await each.next_message()
                        assert text is not None
                        message = json.loads(text)
                        if each is client:
                            assert message["type"] == "state" and message["seats"][0]["connected"]
                        else:
                            raise AssertionError(f"a join sent {message} to another socket")
            assert len(builds) == 300  # was 300 × 301 / 2 = 45,150 (a state to everyone)
            for client in clients[1:]:  # leaving while others of the seat stay: nothing sent
                room.forget(client)
            assert not clients[0]._queue
            room.forget(clients[0])
            assert room.seats[0].connections == 0
        finally:
            store.close()

    asyncio.run(scenario())


def test_presence_messages_wait_in_an_outbox_as_one():
    async def scenario() -> None:
        store = Store("sqlite://")
        store.start()
        try:
            room = await open_room(store)
            watcher = Client(room, None)
            room.join(watcher)
            await watcher.next_message()  # its state
            for _ in range(50):  # a seat's socket coming and going while the watcher is slow
                player = Client(room, 0)
                room.join(player)
                room.forget(player)
            assert list(watcher._queue) == [{"type": "presence", "seats": [
                {"seat": 0, "connected": False}, {"seat": 1, "connected": False}],
                "watchers": 1}]
        finally:
            store.close()

    asyncio.run(scenario())


def test_a_player_connecting_sends_the_others_presence_not_a_state(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "random"}],
                    first="1")
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        assert watcher.receive_json()["type"] == "log"
        first = watcher.receive_json()
        while first["version"] < 1:  # the bot moves first
            first = watcher.receive_json()
        assert first["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as player:
            assert player.receive_json()["type"] == "log"
            mine = player.receive_json()
            assert mine["type"] == "state" and mine["seats"][0]["connected"] is True
            assert watcher.receive_json() == {"type": "presence", "seats": [
                {"seat": 0, "connected": True}, {"seat": 1, "connected": True}], "watchers": 1}
        assert watcher.receive_json() == {"type": "presence", "seats": [
            {"seat": 0, "connected": False}, {"seat": 1, "connected": True}], "watchers": 1}
