"""The people of a cluster: two apps sharing one Redis and one PostgreSQL. A challenge sent
through one worker rings the challenged player's page open on the other at once; accepting
it there tells the challenger's page on the first; a move stored by one worker tells both
players' pages whose turn it is, wherever they are; a player whose page is open on one worker
is online as the other sees them.

The two apps need CHUKO_TEST_POSTGRES; Redis comes from CHUKO_TEST_REDIS, else a private
one."""

from __future__ import annotations

import uuid
import warnings

import pytest
from people_helpers import People, quick_hashing, until
from server_helpers import random_chooser, state_at
from test_cluster import URL

pytest.importorskip("redis")

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")]


@pytest.fixture
def two_workers(redis_url, monkeypatch):
    """Two apps of one cluster of the test's own, each with its own client."""
    from chuko.server import create_app

    quick_hashing(monkeypatch)
    name = f"test-{uuid.uuid4().hex[:8]}"
    opened = []
    for _ in range(2):
        client = TestClient(create_app(URL, redis_url=redis_url, cluster_name=name,
                                       bot_delay=0, round_pause=0))
        client.__enter__()
        opened.append(People(client))
    yield opened
    for people in reversed(opened):
        people.client.__exit__(None, None, None)


def test_a_challenge_sent_on_one_worker_rings_the_page_open_on_the_other(two_workers):
    one, two = two_workers
    ann, bob = (f"{who}{uuid.uuid4().hex[:8]}" for who in ("ann", "bob"))
    one.sign_up(ann, bob)
    two.jars = one.jars  # the sessions are the database's: either worker knows them
    with two.as_(bob).websocket_connect("/me/ws") as bobs_page, \
            one.as_(ann).websocket_connect("/me/ws") as anns_page:
        until(bobs_page, "hello")
        until(anns_page, "hello")
        one.post(ann, "/api/people/follow", username=bob)
        following = one.as_(ann).get("/api/me/people").json()["following"]
        assert [(p["username"], p["online"]) for p in following] == [(bob, True)]
        sent = one.post(ann, "/api/challenges", to=bob, game="chuko")
        assert sent.status_code == 201, sent.text
        rung = until(bobs_page, "challenge", "received")["challenge"]
        assert rung["id"] == sent.json()["id"] and rung["from"]["username"] == ann
        accepted = two.post(bob, "/api/challenges/accept", id=rung["id"])
        assert accepted.status_code == 200, accepted.text
        room_id = accepted.json()["room"]
        assert until(anns_page, "challenge", "accepted")["room"] == room_id
        # A move stored by worker one tells each page, wherever it is, whose turn it is.
        room = two.client.app.state.hub.rooms[room_id]
        mover = {seat.name: seat.seat for seat in room.seats}
        first = next(name for name, seat in mover.items() if seat in room.state.to_move)
        with one.as_(first).websocket_connect(f"/ws/{room_id}") as table:
            table.send_json({"type": "move", "move": random_chooser(1)(state_at(table, 0))})
            state_at(table, 1)
        # Each page was told at the room's opening too: the move's word is the other one.
        other = bob if first == ann else ann
        pages = {ann: anns_page, bob: bobs_page}
        assert turn_now(pages[first], room_id, False) and turn_now(pages[other], room_id, True)


def turn_now(page, room_id: str, yours: bool) -> bool:
    """Whether `page` is told, in its next two turns (the room's opening, then the move),
    that it is (or is not) its player's turn in `room_id`."""
    return any(until(page, "turn") == {"type": "turn", "room": room_id, "yours": yours}
               for _ in range(2))
