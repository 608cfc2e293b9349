"""What each move costs to send. A state message is made of a part every
reader shares and the reader's own (its `view(seat)`), each made once per version: a seat's
sockets share one view, spectators share theirs, and nothing kept goes stale when a name, a
presence or the status changes at the same version. A socket reconnecting without end is
refused before it costs a log and a state."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from random import Random

import pytest
from server_helpers import new_room
from starlette.websockets import WebSocketDisconnect

from chuko.server.rooms.hub import Hub
from chuko.server.rooms.outbox import Client
from chuko.server.shared.limits import Limits, Rate
from chuko.server.store.database import Store
from chuko.server.web.app import CLUB_TERMS


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def drain(clients: list[Client]) -> list[list[dict]]:
    """Everything each client's pump would send now, parsed."""
    sent = []
    for client in clients:
        messages = []
        while client._queue:
            text = await client.next_message()
            assert text is not None
            messages.append(json.loads(text))
        sent.append(messages)
    return sent


def test_sockets_reading_alike_share_one_view_per_version_and_nothing_kept_goes_stale(
        monkeypatch):
    views: Counter = Counter()

    async def scenario() -> None:
        store = Store("sqlite://")
        store.start()
        try:
            hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(1))
            made = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
            room = hub.rooms[made["room"]]
            view = type(room.state).view

            def counted(state, seat):
                views[seat] += 1
                return view(state, seat)

            monkeypatch.setattr(type(room.state), "view", counted)
            readers = [Client(room, seat) for seat in (0, 0, None, None, None)]
            for client in readers:
                room.join(client)
            first = await drain(readers)
            assert views == {0: 1, None: 1}  # five sockets, two views
            # (Each watcher coming tells the others the count in a presence message.)
            states = [[m for m in sent if m["type"] == "state"] for sent in first]
            for client, [message] in zip(readers, states, strict=True):
                assert message == room.snapshot(client.seat)
                assert message["view"] == view(room.state, client.seat)
                assert message["seats"][0]["connected"] and message["status"] == "waiting"

            # A friend joins under a name at the same version: names and status change.
            invite = made["invites"][0]["url"].rsplit("/", 1)[1]
            await hub.join(room.id, invite, "Ann")
            [[joined], *_] = await drain(readers)
            assert joined["status"] == "playing" and joined["seats"][1]["name"] == "Ann"
            assert joined["seats"][1]["joined"] and not joined["seats"][1]["connected"]

            # Ann's socket: the others get a presence message; a later state says it too.
            ann = Client(room, 1)
            room.join(ann)
            readers.append(ann)
            sent = await drain(readers)
            assert [m["type"] for m in sent[0]] == ["presence"]
            room.broadcast()
            assert all(m[-1]["seats"][1]["connected"] for m in await drain(readers))

            # A move: one view per seat and one for the spectators, each the reader's own.
            views.clear()
            mover = room.state.to_move[0]
            await hub.play(room, mover, str(room.state.legal_moves(mover)[0]))
            after = await drain(readers)
            assert views == {0: 1, 1: 1, None: 1}
            for client, messages in zip(readers, after, strict=True):
                assert messages[-1]["version"] == 1
                assert messages[-1]["view"] == view(room.state, client.seat)
                assert messages[-1]["last"] == room.snapshot(client.seat)["last"]
            assert after[0][-1]["view"] != after[-1][-1]["view"]  # seat 0's hand is not Ann's
        finally:
            store.close()

    asyncio.run(scenario())


def test_sockets_opened_faster_than_the_address_rate_are_refused_before_anything_is_sent(
        make_client):
    clock = Clock()
    client = make_client(clock=clock, limits=Limits(connects=Rate(1, 2)))
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                    first="0")
    url = f"/ws/{room['room']}?token={room['token']}"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        assert one.receive_json()["type"] == two.receive_json()["type"] == "log"
        with client.websocket_connect(url) as three:
            assert three.receive_json() == {
                "type": "error",
                "message": "Too many connections from your address: wait a moment and "
                           "reconnect."}
            with pytest.raises(WebSocketDisconnect) as closed:
                three.receive_json()
            assert closed.value.code == 1008
    clock.now += 1
    with client.websocket_connect(url) as again:
        assert again.receive_json()["type"] == "log"
