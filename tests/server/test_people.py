"""Follows and blocks over HTTP: an account follows and unfollows another and sees it online
and in its rooms, blocks (which ends both follows) and unblocks; guests, oneself and names
nobody holds are refused in one sentence; whom one takes challenges from is kept."""

from __future__ import annotations

import pytest
from people_helpers import quick_hashing, three_accounts


@pytest.fixture
def people(make_client, monkeypatch):
    quick_hashing(monkeypatch)
    return three_accounts(make_client())


def test_an_account_follows_another_and_lists_it_then_unfollows(people):
    answer = people.post("ann", "/api/people/follow", username="BOB")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"username": "bob", "follows": True, "blocks": False}
    listed = people.as_("ann").get("/api/me/people").json()
    assert listed["following"] == [{"username": "bob", "name": "bob", "online": False,
                                    "playing": []}]
    assert listed["challenges_from"] == "everyone"
    assert people.as_("bob").get("/api/me/people").json()["following"] == []
    standing = people.as_("ann").get("/api/people/bob").json()
    assert standing == {"username": "bob", "you": False, "online": False, "follows": True,
                        "blocks": False}
    assert people.post("ann", "/api/people/unfollow", username="bob").json()["follows"] is False
    assert people.as_("ann").get("/api/me/people").json()["following"] == []


def test_a_followed_account_with_a_page_open_is_online(people):
    people.post("ann", "/api/people/follow", username="bob")
    with people.as_("bob").websocket_connect("/me/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        following = people.as_("ann").get("/api/me/people").json()["following"]
        assert following[0]["online"] is True


def test_following_refusals_say_why(people):
    cases = [(None, "bob", 403, "account"), ("ann", "ann", 400, "yourself"),
             ("ann", "nosuch", 404, "Nobody plays here as 'nosuch'"),
             ("ann", 7, 400, "username")]
    for jar, target, status, words in cases:
        client = people.as_(jar) if jar else people.as_("")
        if jar is None:
            client.post("/api/me", json={})  # a guest
        refused = client.post("/api/people/follow", json={"username": target})
        assert refused.status_code == status and words in refused.json()["error"], refused.text


def test_blocking_ends_both_follows_and_refuses_a_follow_back(people):
    people.post("ann", "/api/people/follow", username="bob")
    people.post("bob", "/api/people/follow", username="ann")
    blocked = people.post("ann", "/api/people/block", username="bob")
    assert blocked.json() == {"username": "bob", "follows": False, "blocks": True}
    assert people.as_("bob").get("/api/me/people").json()["following"] == []
    refused = people.post("bob", "/api/people/follow", username="ann")
    assert refused.status_code == 403 and "does not take follows" in refused.json()["error"]
    own = people.post("ann", "/api/people/follow", username="bob")
    assert own.status_code == 403 and "unblock them first" in own.json()["error"]
    assert people.as_("ann").get("/api/me/people").json()["blocked"] == [
        {"username": "bob", "name": "bob"}]
    assert people.post("ann", "/api/people/unblock", username="bob").json()["blocks"] is False


def test_whom_one_takes_challenges_from_is_kept_and_checked(people):
    chosen = people.post("ann", "/api/me/challenges-from", choice="follows")
    assert chosen.json() == {"challenges_from": "follows"}
    assert people.as_("ann").get("/api/me/people").json()["challenges_from"] == "follows"
    refused = people.post("ann", "/api/me/challenges-from", choice="friends")
    assert refused.status_code == 400 and '"nobody"' in refused.json()["error"]


def test_a_blocked_players_quick_messages_are_hidden_from_the_blocker_alone(people):
    sent = people.post("ann", "/api/challenges", to="bob", game="chuko").json()
    room_id = people.post("bob", "/api/challenges/accept", id=sent["id"]).json()["room"]
    people.post("ann", "/api/people/block", username="bob")
    with people.as_("ann").websocket_connect(f"/ws/{room_id}") as ann, \
            people.as_("bob").websocket_connect(f"/ws/{room_id}") as bob, \
            people.as_("cid").websocket_connect(f"/ws/{room_id}") as cid:
        for ws in (ann, bob, cid):  # each socket's first state: the room holds it now
            ws.receive_json()
        bob.send_json({"type": "say", "phrase": "gg"})
        for ws in (bob, cid):
            assert said_or_pong(ws)["type"] == "said"
        ann.send_json({"type": "ping"})
        assert said_or_pong(ann)["type"] == "pong"  # bob's phrase never came before it


def said_or_pong(ws) -> dict:
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] in ("said", "pong"):
            return message
    raise AssertionError("neither a phrase nor a pong")


def test_a_followed_account_in_a_game_lists_the_room_to_watch(people):
    sent = people.post("ann", "/api/challenges", to="bob", game="chuko").json()
    room_id = people.post("bob", "/api/challenges/accept", id=sent["id"]).json()["room"]
    people.post("cid", "/api/people/follow", username="bob")
    following = people.as_("cid").get("/api/me/people").json()["following"]
    assert following[0]["playing"] == [{"room": room_id, "url": f"/room/{room_id}",
                                        "title": "Chükö"}]
