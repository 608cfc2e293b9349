"""No client can stall or exhaust the server: deep or huge JSON gets a sentence,
not a crash; a socket flooding messages is answered with refusals while other rooms are
served; rooms made too fast, too many open rooms and too many sockets are refused with a
sentence. Limits are measured on a clock the tests hold still or move by hand."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_helpers import new_room, state_at
from starlette.websockets import WebSocketDisconnect

from chuko.server import create_app
from chuko.server.shared.limits import MAX_BODY, Bucket, Buckets, Limits, OpenCount, Rate, too_deep
from chuko.server.web.socket_io import SLOW_DOWN

BOTS = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def answers(ws, count: int) -> list[dict]:
    """The next `count` replies that are not states (pongs, errors, hints)."""
    received: list[dict] = []
    while len(received) < count:
        message = ws.receive_json()
        if message["type"] not in ("log", "state"):
            received.append(message)
    return received


def pong(ws) -> None:
    ws.send_json({"type": "ping"})
    assert answers(ws, 1) == [{"type": "pong"}]


# -- JSON too deep or too big -------------------------------------------------------------------

def test_deeply_nested_json_over_http_gets_400_with_a_sentence(make_client):
    client = make_client()
    for text in ["[" * 1000 + "]" * 1000, '{"game": ' + "[" * 40 + "]" * 40 + "}"]:
        response = client.post("/api/rooms", content=text.encode())
        assert response.status_code == 400
        assert response.json() == {"error": "The request body nests deeper than 32 levels."}
    # 32 levels are read (and refused for what they say, not how deep they are).
    shallow = client.post("/api/rooms", content=b'{"game": ' + b"[" * 31 + b"]" * 31 + b"}")
    assert shallow.json() == {"error": "Say which game the room plays."}


def test_deeply_nested_json_on_the_socket_gets_an_error_and_the_socket_stays_open(make_client):
    client = make_client()
    room = new_room(client, "crossroads", BOTS, first="0")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 0)
        for text in ["[" * 2000, '{"type": "move", "move": ' + "[" * 1000 + "]" * 1000 + "}"]:
            ws.send_text(text)
            assert answers(ws, 1) == [{"type": "error",
                                       "message": "That message nests deeper than 32 levels."}]
        pong(ws)
        ws.send_json({"type": "move", "move": state["legal"][0]})
        assert state_at(ws, 1)["version"] == 1


def test_brackets_inside_strings_are_not_nesting():
    assert not too_deep(json.dumps({"move": "[" * 100, "note": '\\"{{{{' * 20}))
    assert too_deep("[" * 33) and not too_deep("[" * 32 + "]" * 32)


def test_a_50_mb_body_is_refused_with_413_before_it_is_read(db_url):
    """At the ASGI level, to count what the server reads: a declared 50 MB body is refused
    without reading any of it; a chunked one is cut off just past the limit."""
    app = create_app(db_url)
    megabyte = b" " * 1_000_000

    async def post(headers: list[tuple[bytes, bytes]]) -> tuple[int, dict, int]:
        read = 0
        sent: list[dict] = []

        async def receive() -> dict:
            nonlocal read
            read += 1
            return {"type": "http.request", "body": megabyte, "more_body": read < 50}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/rooms", "raw_path": b"",
                 "root_path": "", "query_string": b"", "headers": headers,
                 "client": ("10.0.0.1", 1234), "server": ("test", 80), "scheme": "http",
                 "http_version": "1.1", "asgi": {"version": "3.0"}}
        await app(scope, receive, send)
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return sent[0]["status"], json.loads(body), read

    status, body, read = asyncio.run(post([(b"content-length", b"50000000")]))
    assert (status, body, read) == (413, {"error": "The request body is too long."}, 0)
    status, body, read = asyncio.run(post([(b"transfer-encoding", b"chunked")]))
    assert (status, body, read) == (413, {"error": "The request body is too long."}, 1)


def test_a_body_just_under_the_limit_is_read(make_client):
    text = '{"game": "crossroads", "pad": "' + "x" * (MAX_BODY - 100) + '"}'
    response = make_client().post("/api/rooms", content=text.encode())
    assert response.status_code == 400 and "List the seats" in response.json()["error"]


# -- rates ----------------------------------------------------------------------------------------

def test_a_bucket_gives_its_burst_then_refills_at_its_rate():
    clock = Clock()
    bucket = Bucket(Rate(2, 4), clock)
    assert [bucket.take() for _ in range(5)] == [True] * 4 + [False]
    clock.now += 0.5
    assert [bucket.take(), bucket.take()] == [True, False]
    clock.now += 100
    assert sum(bucket.take() for _ in range(10)) == 4  # never more than the burst


def test_each_address_has_its_own_bucket_and_forgotten_ones_start_full():
    buckets = Buckets(Rate(1, 1), Clock(), keep=2)
    assert [buckets.take("a"), buckets.take("a"), buckets.take("b")] == [True, False, True]
    buckets.take("c")  # three addresses: the least recently used, "a", is forgotten
    assert not buckets.take("b") and buckets.take("a")


def test_a_ping_flood_gets_errors_while_another_room_is_served(make_client):
    clock = Clock()  # held still: nothing refills, so the counts are exact
    client = make_client(clock=clock, limits=Limits(messages=Rate(20, 40),
                                                    refusals=Rate(20, 200)))
    flooded = new_room(client, "crossroads", BOTS, first="0")
    other = new_room(client, "crossroads", BOTS, first="0")
    with client.websocket_connect(f"/ws/{flooded['room']}?token={flooded['token']}") as flood, \
            client.websocket_connect(f"/ws/{other['room']}?token={other['token']}") as calm:
        state = state_at(calm, 0)
        for _ in range(100):
            flood.send_text('{"type": "ping"}')
        # The other room's player is answered, and its move goes through.
        pong(calm)
        calm.send_json({"type": "move", "move": state["legal"][0]})
        assert state_at(calm, 1)["version"] == 1
        replies = answers(flood, 100)
        assert replies == [{"type": "pong"}] * 40 + [{"type": "error", "message": SLOW_DOWN}] * 60
        # Flooding on, past 200 refusals: the socket is closed as a policy violation.
        for _ in range(141):
            flood.send_text('{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                assert flood.receive_json() == {"type": "error", "message": SLOW_DOWN}
        assert (closed.value.code, closed.value.reason) == (1008, "Too many messages.")
        pong(calm)


def test_a_socket_over_its_rate_is_answered_again_once_the_bucket_refills(make_client):
    clock = Clock()
    client = make_client(clock=clock, limits=Limits(messages=Rate(10, 2)))
    room = new_room(client, "crossroads", BOTS, first="0")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        for _ in range(3):
            ws.send_json({"type": "ping"})
        assert [m["type"] for m in answers(ws, 3)] == ["pong", "pong", "error"]
        clock.now += 0.1
        pong(ws)


def test_rooms_made_faster_than_the_address_rate_get_429(make_client):
    clock = Clock()
    client = make_client(clock=clock, limits=Limits(rooms=Rate(1, 3)))
    body = {"game": "crossroads", "options": {}, "seats": BOTS}
    assert [client.post("/api/rooms", json=body).status_code for _ in range(4)] == \
        [201, 201, 201, 429]
    assert client.post("/api/rooms", json=body).json() == {
        "error": "Too many requests from your address: wait a moment and try again."}
    clock.now += 1
    assert client.post("/api/rooms", json=body).status_code == 201


def test_joins_follows_and_rematches_share_an_address_rate(make_client):
    client = make_client(clock=Clock(), limits=Limits(seats=Rate(1, 2)))
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}])
    url = f"/api/rooms/{room['room']}"
    assert client.post(f"{url}/join", json={"invite": "forged"}).status_code == 404
    assert client.post(f"{url}/follow", json={"token": room["token"]}).status_code == 404
    assert client.post(f"{url}/rematch", json={"token": room["token"]}).status_code == 429


# -- caps -----------------------------------------------------------------------------------------

def test_the_fifth_socket_on_one_token_is_refused_with_a_reason(make_client):
    client = make_client()
    room = new_room(client, "crossroads", BOTS, first="0")
    url = f"/ws/{room['room']}?token={room['token']}"
    sentence = "This seat is open in 4 places already: close one of them first."
    with client.websocket_connect(url), client.websocket_connect(url), \
            client.websocket_connect(url), client.websocket_connect(url) as fourth:
        with client.websocket_connect(url) as fifth:
            assert fifth.receive_json() == {"type": "error", "message": sentence}
            with pytest.raises(WebSocketDisconnect) as closed:
                fifth.receive_json()
        assert (closed.value.code, closed.value.reason) == (1008, sentence)
        pong(fourth)
        with client.websocket_connect(f"/ws/{room['room']}") as watcher:  # not that seat's
            pong(watcher)
    with client.websocket_connect(url) as again:  # once the others closed, it opens
        pong(again)


def test_a_room_holds_a_bounded_number_of_sockets(make_client):
    client = make_client(limits=Limits(sockets_per_room=2))
    room = new_room(client, "crossroads", BOTS, first="0")
    url = f"/ws/{room['room']}"
    with client.websocket_connect(url), \
            client.websocket_connect(f"{url}?token={room['token']}"), \
            client.websocket_connect(url) as third:
        assert "This room has 2 connections already" in third.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            third.receive_json()
    assert closed.value.code == 1008


def test_an_address_may_hold_a_bounded_number_of_unfinished_rooms(make_client):
    client = make_client(limits=Limits(open_rooms_per_address=2))
    # Caravan on primes without bridges ends after one card: an open room easily finished.
    body = {"game": "caravan", "options": {"bridges": 0, "pack": "primes"},
            "seats": [{"kind": "me"}]}
    first = client.post("/api/rooms", json=body).json()
    client.post("/api/rooms", json=body)
    refused = client.post("/api/rooms", json=body)
    assert refused.status_code == 429
    assert refused.json() == {"error": "Your address already has 2 unfinished rooms: finish "
                                       "one before opening another."}
    with client.websocket_connect(f"/ws/{first['room']}?token={first['token']}") as ws:
        state = state_at(ws, 0)
        ws.send_json({"type": "move", "move": state["legal"][0]})
        assert state_at(ws, 1)["status"] == "over"
    assert client.post("/api/rooms", json=body).status_code == 201


def test_the_open_rooms_in_all_are_counted_afresh_at_the_cap_and_at_most_once_a_second():
    clock = Clock()
    walks: list[float] = []
    really_open = [5]

    def count() -> int:
        walks.append(clock.now)
        return really_open[0]

    open_in_all = OpenCount(count, clock, every=1.0)
    assert not open_in_all.reached(10) and len(walks) == 1
    for _ in range(4):
        open_in_all.made()
    assert not open_in_all.reached(10) and len(walks) == 1  # 9 kept: no walk over the rooms
    open_in_all.made()
    really_open[0] = 8  # two rooms finished meanwhile: the cap is not reached after all
    assert not open_in_all.reached(10) and len(walks) == 2
    clock.now += 1.0
    really_open[0] = 10
    assert open_in_all.reached(10) and len(walks) == 3


def test_the_server_holds_a_bounded_number_of_open_rooms(make_client):
    client = make_client(limits=Limits(open_rooms=1))
    new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}])
    refused = client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS})
    assert refused.status_code == 503
    assert refused.json()["error"].endswith("try again later.")
