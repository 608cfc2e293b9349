"""Rematches: a player of a finished room asks for one and holds their seat in a new room with
the same game, options, seats and names; the finished room's states name the new room, and
each other person follows with their old token, once. The new room starts when all have."""

from __future__ import annotations

import random
import warnings

import pytest
from server_helpers import drive, first_message, join, new_room, random_chooser, state_at
from sqlalchemy import select

from chuko.server import create_app
from chuko.server.store import database as db

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def finished_duel(client) -> tuple[dict, dict[int, str]]:
    """A Crossroads game between Ann and Bob, played to its end: (room, tokens by seat)."""
    room = new_room(client, "crossroads", [{"kind": "me", "name": "Ann"}, {"kind": "friend"}],
                    first="0")
    tokens = {0: room["token"], 1: join(client, room, name="Bob")["token"]}
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1:
        drive({0: ws0, 1: ws1}, random_chooser(1))
    return room, tokens


def test_a_rematch_between_two_friends(make_client):
    client = make_client(seed=5)
    room, tokens = finished_duel(client)
    old = room["room"]
    before = client.get(f"/api/rooms/{old}?token={tokens[1]}").json()
    assert before["status"] == "over" and before["rematch"] is None
    with client.websocket_connect(f"/ws/{old}?token={tokens[1]}") as bob_old:
        first_message(bob_old)
        state_at(bob_old, 12)
        asked = client.post(f"/api/rooms/{old}/rematch", json={"token": tokens[0]})
        assert asked.status_code == 201
        ann = asked.json()
        assert set(ann) == {"room", "seat", "token"} and ann["seat"] == 0
        assert ann["room"] != old and ann["token"] != tokens[0]
        offered = state_at(bob_old, 12)  # Bob's screen hears of it and offers to follow
        while offered["rematch"] is None:
            offered = state_at(bob_old, 12)
        assert offered["rematch"] == ann["room"] and offered["version"] == 12
    new = ann["room"]
    waiting = client.get(f"/api/rooms/{new}?token={ann['token']}").json()
    assert waiting["status"] == "waiting" and waiting["seat"] == 0
    assert [s["name"] for s in waiting["seats"]] == ["Ann", "Bob"]
    assert [s["joined"] for s in waiting["seats"]] == [True, False]
    assert waiting["view"]["layout"] != before["view"]["layout"]  # a new deal
    followed = client.post(f"/api/rooms/{new}/follow", json={"token": tokens[1]})
    assert followed.status_code == 200
    bob = followed.json()
    assert bob["room"] == new and bob["seat"] == 1 and bob["token"] != tokens[1]
    again = client.post(f"/api/rooms/{new}/follow", json={"token": tokens[1]})
    assert again.status_code == 409
    assert again.json() == {"error": "That seat has already moved to the rematch."}
    # The new game plays to its end between the two, the same game as before.
    base = f"/ws/{new}"
    with client.websocket_connect(f"{base}?token={ann['token']}") as ws0, \
            client.websocket_connect(f"{base}?token={bob['token']}") as ws1:
        finals = drive({0: ws0, 1: ws1}, random_chooser(2))
    assert finals[0]["status"] == "over" and finals[0]["version"] == 12
    assert finals[1]["seat"] == 1 and finals[1]["rematch"] is None
    store = client.app.state.hub.store
    assert store.load(new).options == store.load(old).options
    assert store.load(new).game == store.load(old).game == finals[0]["game"]
    # The old tokens still open the finished room (its replay), not the new one.
    assert client.get(f"/api/rooms/{new}?token={tokens[0]}").status_code == 403


def settled(sockets: dict, version: int) -> dict[int, dict]:
    """Each socket's state at one version, at least `version` (a bot may move meanwhile)."""
    states = {seat: state_at(ws, version) for seat, ws in sockets.items()}
    while len({state["version"] for state in states.values()}) > 1:
        top = max(state["version"] for state in states.values())
        states = {seat: state if state["version"] == top else state_at(sockets[seat], top)
                  for seat, state in states.items()}
    return states


def test_four_seats_follow_through_either_room_and_the_rematch_waits_for_all(make_client):
    client = make_client(seed=7)
    room = new_room(client, "chuko", [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"},
                                      {"kind": "bot", "level": "easy"}], players=4,
                    turn_limit=80)
    tokens = {0: room["token"], 1: join(client, room, 0, name="Bob")["token"],
              2: join(client, room, 1)["token"]}
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1, \
            client.websocket_connect(f"{base}?token={tokens[2]}") as ws2:
        sockets = {0: ws0, 1: ws1, 2: ws2}
        choose = random_chooser(3)
        version = 0
        while True:
            states = settled(sockets, version)
            if states[0]["status"] == "over":
                break
            movers = [s for s in states[0]["view"]["to_move"] if s in sockets]
            if movers:
                sockets[movers[0]].send_json({"type": "move", "move": choose(states[movers[0]])})
            version = states[0]["version"] + 1
    old = room["room"]
    # Bob asks: any seat may, not only the room's creator.
    bob = client.post(f"/api/rooms/{old}/rematch", json={"token": tokens[1]}).json()
    new = bob["room"]
    assert bob["seat"] == 1
    # The host asks too, a moment later: that follows the rematch already made.
    host = client.post(f"/api/rooms/{old}/rematch", json={"token": tokens[0]})
    assert host.status_code == 201 and host.json()["room"] == new and host.json()["seat"] == 0
    state = client.get(f"/api/rooms/{new}").json()
    assert state["status"] == "waiting"
    assert [s["name"] for s in state["seats"]] == ["Host", "Bob", "Friend", "Easy bot"]
    assert [(s["kind"], s["level"]) for s in state["seats"]] == [
        ("human", None), ("human", None), ("human", None), ("bot", "easy")]
    # The last friend follows through the finished room's id; then the game starts.
    friend = client.post(f"/api/rooms/{old}/follow", json={"token": tokens[2]}).json()
    assert friend["room"] == new and friend["seat"] == 2
    assert client.get(f"/api/rooms/{new}").json()["status"] == "playing"
    assert client.get(f"/api/rooms/{new}?token={friend['token']}").json()["seat"] == 2


def test_only_players_of_a_finished_game_may_ask_or_follow(make_client):
    client = make_client(seed=5)
    live = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    early = client.post(f"/api/rooms/{live['room']}/rematch", json={"token": live["token"]})
    assert early.status_code == 409
    assert early.json() == {"error": "A rematch can be asked for once the game is over."}
    room, tokens = finished_duel(client)
    url = f"/api/rooms/{room['room']}"
    refusals = {
        "no rematch yet": client.post(f"{url}/follow", json={"token": tokens[1]}),
        "a spectator": client.post(f"{url}/rematch", json={}),
        "another room's token": client.post(f"{url}/rematch", json={"token": live["token"]}),
        "a token that is not text": client.post(f"{url}/rematch", json={"token": 5}),
        "a forged follow": client.post(f"{url}/follow", json={"token": "forged"}),
    }
    assert refusals.pop("no rematch yet").json() == {
        "error": "Nobody has asked for a rematch of this game yet."}
    for what, refusal in refusals.items():
        assert refusal.status_code == 403, what
        assert refusal.json()["error"].startswith(("Only a player", "Follow with")), what
    assert client.post("/api/rooms/nosuchroom/rematch", json={"token": "x"}).status_code == 404
    asked = client.post(f"{url}/rematch", json={"token": tokens[0]}).json()
    # The asker's new token holds the new seat; it follows nothing, asks nothing there.
    again = client.post(f"{url}/rematch", json={"token": tokens[0]})
    assert again.status_code == 409
    follow_new = client.post(f"/api/rooms/{asked['room']}/follow",
                             json={"token": asked["token"]})
    assert follow_new.status_code == 404  # the rematch has no rematch of its own
    too_big = client.post(f"{url}/follow", content=b'{"token": "' + b"x" * 70_000 + b'"}')
    assert too_big.json() == {"error": "The request body is too long."}


def test_a_bot_game_cannot_be_rematched_by_its_watchers(make_client):
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "bot", "level": "easy"}])
    while client.get(f"/api/rooms/{room['room']}").json()["status"] != "over":
        pass
    refusal = client.post(f"/api/rooms/{room['room']}/rematch", json={"token": None})
    assert refusal.status_code == 403


def test_a_rematch_survives_a_restart_and_its_tokens_are_stored_hashed(db_url):
    with TestClient(create_app(db_url, bot_delay=0, round_pause=0,
                               rng=random.Random(5))) as client:
        room, tokens = finished_duel(client)
        ann = client.post(f"/api/rooms/{room['room']}/rematch", json={"token": tokens[0]}).json()
    with TestClient(create_app(db_url, bot_delay=0, round_pause=0)) as client:
        old = client.get(f"/api/rooms/{room['room']}?token={tokens[1]}").json()
        assert old["rematch"] == ann["room"]
        bob = client.post(f"/api/rooms/{room['room']}/follow", json={"token": tokens[1]}).json()
        state = client.get(f"/api/rooms/{ann['room']}?token={bob['token']}").json()
        assert state["status"] == "playing" and state["seat"] == 1
    with db.make_engine(db_url).connect() as conn:
        stored = " ".join(str(v) for row in conn.execute(select(db.seats)).all() for v in row)
        links = conn.execute(select(db.rooms.c.id, db.rooms.c.rematch, db.rooms.c.rematch_of)
                             ).all()
    for token in (ann["token"], bob["token"]):
        assert token not in stored and db.secret_hash(token) in stored
    assert (room["room"], ann["room"], None) in links
    assert (ann["room"], None, room["room"]) in links


@pytest.mark.parametrize("seat", [0, 1])
def test_the_finished_rooms_states_name_the_rematch_for_every_seat(make_client, seat):
    client = make_client(seed=5)
    room, tokens = finished_duel(client)
    new = client.post(f"/api/rooms/{room['room']}/rematch", json={"token": tokens[1 - seat]})
    state = client.get(f"/api/rooms/{room['room']}?token={tokens[seat]}").json()
    assert state["rematch"] == new.json()["room"]
    assert client.get(f"/api/rooms/{room['room']}").json()["rematch"] == new.json()["room"]
