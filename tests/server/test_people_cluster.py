"""The people of a cluster: two apps sharing one Redis and one PostgreSQL. A challenge sent
through one worker rings the challenged player's page open on the other at once; accepting
it there tells the challenger's page on the first; a player whose page is open on one worker
is online as the other sees them.

The two apps need CHUKO_TEST_POSTGRES; Redis comes from CHUKO_TEST_REDIS, else a private
one."""

from __future__ import annotations

import uuid
import warnings

import pytest
from people_helpers import People, quick_hashing, until
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
        told = until(anns_page, "challenge", "accepted")
        assert told["room"] == accepted.json()["room"]
