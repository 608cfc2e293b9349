"""Bad input never hurts the server: malformed messages, unknown rooms, wrong or missing
tokens, moves out of turn and illegal moves get one clear sentence for that client, nothing
changes, and everyone else is still served."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import new_room, state_at
from starlette.websockets import WebSocketDisconnect

from chuko.server.shared.limits import Limits, Rate


@pytest.fixture
def duel(make_client):
    """A Crossroads room of two friends, seat 0 to move: (client, room, tokens). The fuzz
    tests open a socket per example, faster than the address's connection rate allows."""
    client = make_client(limits=Limits(connects=Rate(1000, 1000)))
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}], first="0")
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code}).json()
    return client, room["room"], {0: room["token"], 1: joined["token"]}


def error_of(ws) -> str:
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message["message"]


BAD_MESSAGES = [
    ("not json {", "not JSON"),
    ('["move", "A"]', "Unknown message"),
    ('{"type": "dance"}', "Unknown message"),
    ('{"type": "move"}', "needs the move as text"),
    ('{"type": "move", "move": 12}', "needs the move as text"),
    ('{"type": "move", "move": "Z9"}', "is not a move"),
    ('{"type": "move", "move": "B"}', "is not available"),
    ('{"type": "move", "move": "' + "A" * 400 + '"}', "far too long"),
    ('{"type": "hint"}', "without a second human"),
    ('{"type": "next"}', "No round is waiting"),
    ('{"type": "next", "round": 2}', "No round is waiting"),
]


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize(("text", "says"), BAD_MESSAGES, ids=[b[1] for b in BAD_MESSAGES])
def test_a_bad_message_gets_a_sentence_and_changes_nothing(duel, text, says):
    client, room, tokens = duel
    with client.websocket_connect(f"/ws/{room}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/{room}?token={tokens[1]}") as ws1:
        ws0.send_text(text)
        message = error_of(ws0)
        assert says in message and message.endswith((".", "!"))
        # Nothing changed, and both seats are still served: seat 0 moves, seat 1 sees it.
        state = client.get(f"/api/rooms/{room}?token={tokens[0]}").json()
        assert state["version"] == 0
        ws0.send_json({"type": "move", "move": state["legal"][0]})
        assert state_at(ws1, 1)["view"]["to_move"] == [1]


def test_out_of_turn_and_binary_and_spectator_moves_are_refused(duel):
    client, room, tokens = duel
    with client.websocket_connect(f"/ws/{room}?token={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/{room}") as watcher:
        ws1.send_json({"type": "move", "move": "A"})
        refusal = error_of(ws1)
        assert "turn" in refusal and refusal.endswith(".")
        ws1.send_bytes(b"\x00\x01")
        assert "not binary" in error_of(ws1)
        watcher.send_json({"type": "move", "move": "A"})
        assert error_of(watcher) == "Spectators cannot move."
        watcher.send_json({"type": "ping"})
        reply = watcher.receive_json()
        while reply["type"] == "state":
            reply = watcher.receive_json()
        assert reply == {"type": "pong"}
    assert client.get(f"/api/rooms/{room}").json()["version"] == 0


def test_unknown_room_and_wrong_token_close_the_socket_with_a_sentence(duel):
    client, room, _ = duel
    with client.websocket_connect("/ws/nosuchroom") as ws:
        assert ws.receive_json() == {"type": "error", "message": "There is no room 'nosuchroom'."}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404
    with client.websocket_connect(f"/ws/{room}?token=forged") as ws:
        assert "does not hold a seat" in ws.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403


def test_a_stored_room_that_does_not_hold_together_closes_the_socket_with_a_sentence(
        make_client, db_url):
    room = new_room(make_client(), "crossroads", [{"kind": "me"}, {"kind": "friend"}])["room"]
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:  # a log cut short
        conn.execute("UPDATE rooms SET version = 3 WHERE id = ?", (room,))
    client = make_client()  # a server started afterwards reads the room from the database
    with client.websocket_connect(f"/ws/{room}") as ws:
        assert ws.receive_json() == {"type": "error", "message":
                                     "The room is at move 3, but its log holds 0."}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1011
    other = new_room(client, "caravan", [{"kind": "me"}])  # and the server goes on
    with client.websocket_connect(f"/ws/{other['room']}?token={other['token']}") as ws:
        assert state_at(ws, 0)["status"] == "playing"


def test_moves_wait_until_every_seat_is_taken(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}], first="0")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 0)
        assert state["status"] == "waiting" and state["legal"] == []
        ws.send_json({"type": "move", "move": "A"})
        assert error_of(ws) == "The game starts when every seat is taken."


def test_moves_after_the_end_are_refused(make_client):
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "me"}], bridges=0, pack="primes")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 0)
        ws.send_json({"type": "move", "move": state["legal"][0]})
        state = state_at(ws, 1)
        # Primes share no factor and no bridge is allowed: after one card nothing goes (V2).
        assert state["status"] == "over"
        ws.send_json({"type": "move", "move": "E"})
        assert error_of(ws) == "The game is over."


BAD_ROOMS = [
    ({"game": "poker", "seats": [{"kind": "me"}]}, "There is no game 'poker'"),
    ({"game": "caravan", "seats": [{"kind": "me"}], "options": {"bridges": 12}},
     "Bridges must be a whole number from 0 to 11"),
    ({"game": "caravan", "seats": [{"kind": "me"}], "options": {"bridges": "two"}},
     "must be a whole number"),
    ({"game": "caravan", "seats": [{"kind": "me"}], "options": {"pack": "2-12"}},
     "exactly 12 cards"),
    ({"game": "caravan", "seats": [{"kind": "me"}], "options": {"colour": "red"}},
     "no option 'colour'"),
    ({"game": "crossroads", "seats": [{"kind": "me"}]}, "has 2 seats, but 1 were given"),
    ({"game": "crossroads", "seats": [{"kind": "me"}, {"kind": "bot", "level": "genius"}]},
     "bot's level must be one of random, easy, hard, perfect"),
    ({"game": "crossroads", "seats": [{"kind": "me"}, {"kind": "me"}]}, "Only one seat"),
    ({"game": "crossroads", "seats": [{"kind": "me"}, {"kind": "ghost"}]}, "me, bot or friend"),
    ({"game": "chuko", "seats": [{"kind": "me"}] * 1 + [{"kind": "friend"}] * 7,
      "options": {"players": 8, "pack": "2 3 4 5 6"}}, "cannot be dealt to 8 players"),
    ({"game": "chuko", "seats": [{"kind": "me"}, {"kind": "friend"}],
      "options": {"pack": "2,x"}}, "not a card"),
    ({"game": "chuchula", "seats": "me"}, "List the seats"),
    ({"seats": [{"kind": "me"}]}, "Say which game"),
]


@pytest.mark.parametrize(("body", "says"), BAD_ROOMS, ids=[b[1] for b in BAD_ROOMS])
def test_a_bad_room_is_refused_with_a_sentence(make_client, body, says):
    response = make_client().post("/api/rooms", json=body)
    assert response.status_code == 400
    assert says in response.json()["error"]


def test_bad_http_requests_get_a_status_and_a_sentence(duel):
    client, room, tokens = duel
    assert client.post("/api/rooms", content=b"{nope").json() == {
        "error": "The request body is not JSON."}
    assert client.post("/api/rooms", content=b"[1]").status_code == 400
    assert client.post("/api/rooms", content=b"{" + b" " * 70_000 + b"}").json() == {
        "error": "The request body is too long."}
    assert client.get("/api/rooms/nosuchroom").status_code == 404
    assert client.get(f"/api/rooms/{room}?token=forged").status_code == 403
    assert client.get(f"/api/rooms/{room}/replay").json() == {
        "error": "The replay opens once the game is over."}
    assert client.post(f"/api/rooms/{room}/join", json={"invite": "forged"}).status_code == 404
    assert client.post(f"/api/rooms/{room}/join", json={}).status_code == 404
    assert client.post("/api/rooms/nosuchroom/join", json={"invite": "x"}).status_code == 404
    assert client.get("/api/nothing").json() == {"error": "There is no such address."}
    assert client.get("/rules/poker").status_code == 404


def test_an_invite_takes_its_seat_once(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}])
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    first = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code})
    second = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code})
    assert first.status_code == 200 and second.status_code == 409
    assert second.json() == {"error": "That invite has already been used."}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8,
)
MESSAGES = st.one_of(
    JSON,
    st.fixed_dictionaries({"type": st.sampled_from(["move", "hint", "next", "ping"])}, optional={
        "move": JSON | st.sampled_from(["A", "AL", "BR*", "reset", "15", "Ks Qs Js"])}),
)
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(messages=st.lists(MESSAGES, min_size=1, max_size=5))
def test_random_socket_messages_get_an_answer_and_the_room_keeps_its_rules(duel, messages):
    client, room, tokens = duel
    before = client.get(f"/api/rooms/{room}?token={tokens[0]}").json()
    with client.websocket_connect(f"/ws/{room}?token={tokens[0]}") as ws:
        state_at(ws, before["version"])
        for message in messages:
            ws.send_text(json.dumps(message))
            ws.send_json({"type": "ping"})
            while (answer := ws.receive_json())["type"] != "pong":
                assert answer["type"] in ("log", "error", "state", "hint", "pong")
    after = client.get(f"/api/rooms/{room}?token={tokens[0]}").json()
    # only a legal move may have changed the room, and then by exactly that many moves
    assert after["version"] >= before["version"]
    assert after["view"]["moves"][: len(before["view"]["moves"])] == before["view"]["moves"]


@pytest.mark.slow  # seconds: in make test, not make test-fast
@FUZZ
@given(body=JSON)
def test_random_room_requests_get_a_sentence_not_a_crash(make_client, body):
    response = make_client().post("/api/rooms", json=body)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json()["error"].endswith(".")
