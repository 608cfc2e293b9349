"""Challenges over HTTP and the players' own sockets: a challenge rings the challenged
player's page at once; accepted, it makes one room for both and sends both there; declined
with a reason, cancelled or expired, both hear it; every wrong challenge is refused in one
sentence, the stored state unchanged (oneself, nobody, blocks, preferences, one pending per
opponent, the per-account limit, bad terms, rated for guests)."""

from __future__ import annotations

import pytest
from people_helpers import quick_hashing, three_accounts, until

from chuko.server.challenge import challenges as rules
from chuko.server.shared.limits import Buckets, Rate
from chuko.server.web.challenges_api import SENDS


@pytest.fixture
def people(make_client, monkeypatch):
    quick_hashing(monkeypatch)
    return three_accounts(make_client())


CASUAL = {"game": "chuko", "options": {"players": 2}}
RATED = {**CASUAL, "rated": True, "clock": {"kind": "move", "seconds": 30, "reserve": 60}}


def send(people, who: str, to: str, **terms):
    return people.post(who, "/api/challenges", to=to, **(terms or CASUAL))


def test_a_challenge_rings_the_challenged_at_once_and_accepting_seats_both_in_one_room(people):
    with people.as_("bob").websocket_connect("/me/ws") as bob, \
            people.as_("ann").websocket_connect("/me/ws") as ann:
        assert until(bob, "hello")["challenges"] == {"received": [], "sent": []}
        until(ann, "hello")
        sent = send(people, "ann", "bob", **RATED)
        assert sent.status_code == 201, sent.text
        rung = until(bob, "challenge", "received")["challenge"]
        assert rung["from"] == {"name": "ann", "username": "ann"} and rung["rated"]
        assert until(ann, "challenge", "sent")["challenge"]["id"] == rung["id"]
        listed = people.as_("bob").get("/api/challenges").json()
        assert [c["id"] for c in listed["received"]] == [rung["id"]] and listed["sent"] == []
        accepted = people.post("bob", "/api/challenges/accept", id=rung["id"])
        assert accepted.status_code == 200, accepted.text
        room_id = accepted.json()["room"]
        for ws in (ann, bob):
            assert until(ws, "challenge", "accepted")["room"] == room_id
    room = people.client.app.state.hub.rooms[room_id]
    assert room.rated and room.clocks is not None
    assert sorted(seat.name for seat in room.seats) == ["ann", "bob"]
    assert room.status == "playing"
    again = people.post("bob", "/api/challenges/accept", id=rung["id"])
    assert again.json()["room"] == room_id  # accepted twice: the same room, made once
    assert people.as_("bob").get("/api/challenges").json()["received"] == []


def test_declining_tells_both_the_reason_and_the_challenge_can_no_longer_be_accepted(people):
    challenge = send(people, "ann", "bob").json()
    bad = people.post("bob", "/api/challenges/decline", id=challenge["id"], reason="rude")
    assert bad.status_code == 400 and '"later"' in bad.json()["error"]
    with people.as_("ann").websocket_connect("/me/ws") as ann:
        until(ann, "hello")
        declined = people.post("bob", "/api/challenges/decline", id=challenge["id"],
                               reason="later")
        assert declined.status_code == 200, declined.text
        told = until(ann, "challenge", "declined")["challenge"]
        assert (told["reason"], told["reason_text"]) == ("later", "Later, please.")
    late = people.post("bob", "/api/challenges/accept", id=challenge["id"])
    assert late.status_code == 409 and late.json()["error"] == "This challenge was declined."


def test_only_the_challenger_cancels_and_only_the_challenged_answers(people):
    challenge = send(people, "ann", "bob").json()
    for who, path in (("ann", "accept"), ("cid", "accept"), ("bob", "cancel")):
        refused = people.post(who, f"/api/challenges/{path}", id=challenge["id"])
        assert refused.status_code == 404, refused.text
        assert refused.json()["error"] == "You have no such challenge."
    assert people.post("ann", "/api/challenges/cancel", id=challenge["id"]).status_code == 200
    assert people.as_("bob").get("/api/challenges").json()["received"] == []


def test_a_challenge_expires_unanswered_and_the_sweep_tells_both(people):
    challenge = send(people, "ann", "bob").json()
    hub = people.client.app.state.hub
    start = hub.clock()
    hub.clock = lambda: start + rules.TTL + 1
    late = people.post("bob", "/api/challenges/accept", id=challenge["id"])
    assert late.status_code == 409 and "expired" in late.json()["error"]
    with people.as_("bob").websocket_connect("/me/ws") as bob:
        assert until(bob, "hello")["challenges"]["received"] == []
        people.client.portal.call(people.client.app.state.people.sweep)
        assert until(bob, "challenge", "expired")["challenge"]["id"] == challenge["id"]


def test_wrong_challenges_are_refused_in_one_sentence(people):
    api = people.client.app.state.people.challenge_api
    api.sends = Buckets(Rate(1, 100), lambda: 0.0)  # each case counts; none is too many
    cases = [
        ({"to": "ann"}, 400, "You cannot challenge yourself"),
        ({"to": "nosuch"}, 404, "Nobody plays here as 'nosuch'"),
        ({"to": "bob", "game": "nosuch"}, 400, "There is no game 'nosuch'"),
        ({"to": "bob", "options": {"players": 3}}, 400, "A challenge is a game of two"),
        ({"to": "bob", "clock": {"kind": "move", "seconds": -1}}, 400, "seconds a move"),
        ({"to": "bob", "rated": True}, 400, "A rated challenge needs a clock"),
        ({"to": "bob", "rated": "yes"}, 400, "true or false"),
    ]
    for terms, status, words in cases:
        refused = people.post("ann", "/api/challenges", **{**CASUAL, **terms})
        assert refused.status_code == status, (terms, refused.text)
        assert words in refused.json()["error"], refused.text
    assert people.as_("bob").get("/api/challenges").json()["received"] == []


def test_blocks_and_preferences_refuse_challenges(people):
    people.post("bob", "/api/people/block", username="ann")
    refused = send(people, "ann", "bob")
    assert refused.status_code == 403 and refused.json()["error"] == \
        "bob does not take challenges from you."
    own = send(people, "bob", "ann")
    assert own.status_code == 403 and "unblock them first" in own.json()["error"]
    people.post("cid", "/api/me/challenges-from", choice="follows")
    only = send(people, "ann", "cid")
    assert only.status_code == 403 and "only from the players they follow" in \
        only.json()["error"]
    people.post("cid", "/api/people/follow", username="ann")
    assert send(people, "ann", "cid").status_code == 201
    people.post("cid", "/api/me/challenges-from", choice="nobody")
    assert send(people, "bob", "cid").status_code == 403


def test_one_pending_challenge_per_opponent_and_a_limit_per_account(people, monkeypatch):
    assert send(people, "ann", "bob").status_code == 201
    twice = send(people, "ann", "bob")
    assert twice.status_code == 409 and "challenged bob already" in twice.json()["error"]
    monkeypatch.setattr(rules, "MOST_PENDING", 1)
    over = send(people, "ann", "cid")
    assert over.status_code == 403 and "1 challenges waiting" in over.json()["error"]


def test_a_guest_may_challenge_casually_but_not_rated(people):
    guest = people.as_("")
    guest.post("/api/me", json={})
    rated = guest.post("/api/challenges", json={"to": "bob", **RATED})
    assert rated.status_code == 403 and "between accounts" in rated.json()["error"]
    assert guest.post("/api/challenges", json={"to": "bob", **CASUAL}).status_code == 201


def test_challenges_sent_in_a_burst_are_refused_past_the_rate(people):
    api = people.client.app.state.people.challenge_api
    api.sends = Buckets(SENDS, lambda: 0.0)  # a clock that stands still
    answers = [send(people, "ann", "nosuch").status_code for _ in range(SENDS.burst + 1)]
    assert answers == [404] * SENDS.burst + [429]


def test_a_finished_games_opponent_is_challenged_to_another_like_it(people):
    first = send(people, "ann", "bob", **RATED).json()
    room_id = people.post("bob", "/api/challenges/accept", id=first["id"]).json()["room"]
    early = people.post("ann", "/api/challenges", room=room_id)
    assert early.status_code == 400 and "finished game" in early.json()["error"]
    hub = people.client.app.state.hub
    room = hub.rooms[room_id]
    people.client.portal.call(hub.resign, room, room.seats[0].seat)
    again = people.post("ann", "/api/challenges", room=room_id)
    assert again.status_code == 201, again.text
    made = again.json()
    assert (made["to"]["username"], made["game"], made["rated"], made["clock"]) == (
        "bob", "chuko", True, RATED["clock"])
    stranger = people.post("cid", "/api/challenges", room=room_id)
    assert stranger.status_code == 404 and stranger.json()["error"] == "You played no such game."


def test_a_deleted_accounts_challenges_are_no_longer_listed(people):
    send(people, "ann", "bob")
    assert len(people.as_("bob").get("/api/challenges").json()["received"]) == 1
    deleted = people.post("ann", "/api/account/delete", password="correct horse battery")
    assert deleted.status_code == 200, deleted.text
    assert people.as_("bob").get("/api/challenges").json()["received"] == []
