"""Quick messages: a player says one phrase of a fixed list and every socket on the room,
the speaker's, the other players' and the spectators', hears it as `said` with the seat;
spectators, free text and a flood are refused with a sentence; nothing is kept, so a
socket opened later hears nothing of it; in a cluster the phrase crosses to the other
workers' sockets. Limits are measured on a clock the tests move by hand."""

from __future__ import annotations

from types import SimpleNamespace

from server_helpers import join, new_room, state_at

from chuko.server.cluster.workers import Cluster
from chuko.server.rooms.outbox import MAX_BEHIND, Client
from chuko.server.rooms.quick_messages import PHRASES
from chuko.server.shared.bus import Bus


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def duel(client) -> tuple[dict, str, str]:
    """A Crossroads room of Ann and Bob, both seated: (room, Ann's token, Bob's token)."""
    room = new_room(client, "crossroads", [{"kind": "me", "name": "Ann"}, {"kind": "friend"}],
                    first="0")
    return room, room["token"], join(client, room, name="Bob")["token"]


def next_other(ws) -> dict:
    """The next message that is neither a state nor a log nor a presence."""
    while True:
        message = ws.receive_json()
        if message["type"] not in ("state", "log", "presence"):
            return message


def pong(ws) -> list[dict]:
    """Every message up to the pong of a ping sent now."""
    ws.send_json({"type": "ping"})
    received = []
    while (message := ws.receive_json())["type"] != "pong":
        received.append(message)
    return received


def test_a_phrase_reaches_the_speaker_the_other_player_and_the_spectators(make_client):
    client = make_client()
    room, ann, bob = duel(client)
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={ann}") as ws_ann, \
            client.websocket_connect(f"{base}?token={bob}") as ws_bob, \
            client.websocket_connect(base) as ws_watch:
        for ws in (ws_ann, ws_bob, ws_watch):
            state_at(ws, 0)
        pong(ws_watch)
        ws_bob.send_json({"type": "say", "phrase": "gl"})
        for ws in (ws_ann, ws_bob, ws_watch):
            assert next_other(ws) == {"type": "said", "seat": 1, "phrase": "gl"}


def test_spectators_free_text_and_unknown_phrases_are_refused_with_a_sentence(make_client):
    client = make_client()
    room, ann, _ = duel(client)
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={ann}") as ws_ann, \
            client.websocket_connect(base) as ws_watch:
        state_at(ws_ann, 0)
        state_at(ws_watch, 0)
        ws_watch.send_json({"type": "say", "phrase": "gg"})
        assert next_other(ws_watch) == {
            "type": "error",
            "message": "Spectators cannot send quick messages; only the players can."}
        for phrase in ("you are bad", "Good game", None, ["gg"], 7):
            ws_ann.send_json({"type": "say", "phrase": phrase})
            refusal = next_other(ws_ann)
            assert refusal["type"] == "error"
            assert refusal["message"].startswith('Quick messages are one of: "gl" (Good luck)')
        assert [m for m in pong(ws_ann) if m["type"] == "said"] == []


def test_a_seat_says_three_in_a_row_then_one_every_five_seconds(make_client):
    clock = Clock()
    client = make_client(clock=clock)
    room, ann, bob = duel(client)
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={ann}") as ws_ann, \
            client.websocket_connect(f"{base}?token={ann}") as ws_ann_again, \
            client.websocket_connect(f"{base}?token={bob}") as ws_bob:
        for ws in (ws_ann, ws_ann_again, ws_bob):
            state_at(ws, 0)
        for phrase in ("gl", "ty", "wp"):
            ws_ann.send_json({"type": "say", "phrase": phrase})
            assert next_other(ws_ann)["phrase"] == phrase
        # The seat's bucket is shared by its sockets, and the other seat has its own.
        ws_ann_again.send_json({"type": "say", "phrase": "gg"})
        too_many = {"type": "error",
                    "message": "Too many quick messages: wait a few seconds before the next."}
        while (message := next_other(ws_ann_again))["type"] == "said":
            pass
        assert message == too_many
        ws_bob.send_json({"type": "say", "phrase": "ty"})
        heard = [m for m in pong(ws_bob) if m["type"] != "state"]
        assert heard[-1] == {"type": "said", "seat": 1, "phrase": "ty"}
        assert pong(ws_ann)[-1] == {"type": "said", "seat": 1, "phrase": "ty"}
        clock.now += 4.9
        ws_ann.send_json({"type": "say", "phrase": "gg"})
        assert next_other(ws_ann) == too_many
        clock.now += 0.2
        ws_ann.send_json({"type": "say", "phrase": "gg"})
        assert next_other(ws_ann) == {"type": "said", "seat": 0, "phrase": "gg"}
        ws_ann.send_json({"type": "say", "phrase": "gg"})
        assert next_other(ws_ann) == too_many


def test_phrases_are_not_kept_a_socket_opened_later_hears_none(make_client):
    client = make_client()
    room, ann, _ = duel(client)
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={ann}") as ws:
        state_at(ws, 0)
        ws.send_json({"type": "say", "phrase": "gl"})
        assert next_other(ws)["type"] == "said"
    with client.websocket_connect(f"{base}?token={ann}") as ws:
        assert [m["type"] for m in pong(ws)] == ["log", "state"]
    assert "said" not in client.get(f"/api/rooms/{room['room']}/log").text


def test_a_phrase_from_another_worker_reaches_this_workers_sockets():
    clients = {Client(SimpleNamespace(), seat) for seat in (0, 1, None)}
    room = SimpleNamespace(id="r1", seats=[SimpleNamespace(player=None)] * 2, clients=clients)
    cluster = Cluster(SimpleNamespace(rooms={"r1": room}, bus=Bus()), "redis://127.0.0.1:1/0")
    cluster._on_event("r1", {"worker": "another", "kind": "said", "seat": 1, "phrase": "gg"})
    # Nonsense on the bus is dropped, not passed on.
    for seat, phrase in ((5, "gg"), (1, "rude words"), ("1", "gg")):
        cluster._on_event("r1", {"worker": "another", "kind": "said", "seat": seat,
                                 "phrase": phrase})
    for each in clients:
        assert list(each._queue) == [{"type": "said", "seat": 1, "phrase": "gg"}]
    cluster.publish_said("r1", 0, "wp")
    channel, text = cluster._outbox.get_nowait()
    assert channel.endswith(":room:r1") and '"kind": "said"' in text and '"wp"' in text


def test_a_client_far_behind_is_not_sent_phrases():
    client = Client(SimpleNamespace(), 0)
    for _ in range(MAX_BEHIND + 10):
        client.send_passing({"type": "said", "seat": 1, "phrase": "gl"})
    assert len(client._queue) == MAX_BEHIND and set(PHRASES) == {"gl", "wp", "ty", "gg"}
