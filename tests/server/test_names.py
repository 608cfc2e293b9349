"""Players' names: the creator names their seat when making the room, a friend when joining;
the server checks each name (trimmed, 1–24 printable characters), stores it with the seat
and sends it in every state, where every sentence uses it."""

from __future__ import annotations

import warnings

import pytest
from server_helpers import (
    drive,
    first_message,
    join,
    new_room,
    random_chooser,
    state_at,
    whole_replay,
)

from chuko.server import create_app
from chuko.server.store.database import Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

DUEL = [{"kind": "me", "name": "Ann"}, {"kind": "friend"}]


def test_names_show_on_both_seats_states_and_in_their_sentences(make_client):
    client = make_client(seed=4)
    room = new_room(client, "crossroads", DUEL, first="0")
    waiting = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert [s["name"] for s in waiting["seats"]] == ["Ann", "Friend"]  # not joined yet
    friend = join(client, room, name="  Bob ")
    tokens = {0: room["token"], 1: friend["token"]}
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1:
        finals = drive({0: ws0, 1: ws1}, random_chooser(2))
    for seat in (0, 1):
        assert [s["name"] for s in finals[seat]["seats"]] == ["Ann", "Bob"]
    # The last move was Bob's (Ann moved first, twelve cards): each reads it their way.
    assert finals[1]["last"].startswith("You") and finals[0]["last"].startswith("Bob")
    replay = whole_replay(client, room["room"])
    assert [s["name"] for s in replay["seats"]] == ["Ann", "Bob"]
    assert any(frame["caption"].startswith("Ann") for frame in replay["frames"])


def test_names_are_stored_with_the_seats_and_survive_a_restart(db_url):
    with TestClient(create_app(db_url, bot_delay=0, round_pause=0)) as client:
        room = new_room(client, "chuko", [{"kind": "me", "name": "Zoë"}, {"kind": "friend"},
                                          {"kind": "bot", "level": "easy"}], players=3)
        join(client, room, name="Ann")
    stored = Store(db_url).load(room["room"])
    assert [s.name for s in stored.seats] == ["Zoë", "Ann", None]
    with TestClient(create_app(db_url, bot_delay=0, round_pause=0)) as client:
        state = client.get(f"/api/rooms/{room['room']}").json()
    assert [s["name"] for s in state["seats"]] == ["Zoë", "Ann", "Easy bot"]


def test_the_same_name_twice_is_told_apart(make_client):
    client = make_client()
    room = new_room(client, "crossroads", DUEL)
    join(client, room, name="Ann")
    state = client.get(f"/api/rooms/{room['room']}").json()
    assert [s["name"] for s in state["seats"]] == ["Ann 1", "Ann 2"]


def test_a_name_of_24_characters_is_taken_whole(make_client):
    client = make_client()
    name = "Ö" * 24
    room = new_room(client, "caravan", [{"kind": "me", "name": f" {name}\u3000"}])
    state = client.get(f"/api/rooms/{room['room']}").json()
    assert state["seats"][0]["name"] == name


BAD_NAMES = [
    ("", "at least one character"),
    ("   ", "at least one character"),
    ("x" * 25, "at most 24 characters, not 25"),
    ("Ann\nBob", "control characters"),
    ("tab\there", "control characters"),
    (12, "must be text"),
    (["Ann"], "must be text"),
    ("you", "choose another name"),
]


@pytest.mark.parametrize(("name", "says"), BAD_NAMES, ids=[repr(b[0])[:8] for b in BAD_NAMES])
def test_a_bad_name_is_refused_in_one_sentence_when_creating_or_joining(make_client, name, says):
    client = make_client()
    refused = client.post("/api/rooms", json={
        "game": "caravan", "seats": [{"kind": "me", "name": name}]})
    assert refused.status_code == 400
    sentence = refused.json()["error"]
    assert says in sentence and sentence.endswith(".") and sentence.count(". ") == 0
    room = new_room(client, "crossroads", DUEL)
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    url = f"/api/rooms/{room['room']}/join"
    refused = client.post(url, json={"invite": code, "name": name})
    assert refused.status_code == 400 and says in refused.json()["error"]
    # The refusal used nothing up: the invite still opens the seat.
    assert client.post(url, json={"invite": code, "name": "Bob"}).status_code == 200


def test_only_the_creators_own_seat_takes_a_name(make_client):
    client = make_client()
    for seat in ({"kind": "friend", "name": "Bob"}, {"kind": "bot", "level": "easy",
                                                     "name": "Robo"}):
        refused = client.post("/api/rooms", json={
            "game": "crossroads", "seats": [{"kind": "me"}, seat]})
        assert refused.status_code == 400
        assert refused.json()["error"].startswith("Only your own seat takes a name")


def test_a_spectator_reads_names_and_is_told_they_are_watching(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me", "name": "Ann"},
                                           {"kind": "bot", "level": "easy"}], first="1")
    with client.websocket_connect(f"/ws/{room['room']}") as watcher, \
            client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        first_message(watcher)
        watched = state_at(watcher, 1)
        first_message(ws)
        played = state_at(ws, 1)
    assert watched["spectator"] is True and watched["seat"] is None
    assert played["spectator"] is False and played["seat"] == 0
    assert [s["name"] for s in watched["seats"]] == ["Ann", "Easy bot"]
    assert watched["last"].startswith("Easy bot")
    rest = client.get(f"/api/rooms/{room['room']}").json()
    assert rest["spectator"] is True


# The server's own labels, and names that read as them: Cyrillic а and о, full-width
# letters, a zero for an o, a number after a label.
PASSING_FOR_LABELS = ["Hard bot 1", "H\u0430rd bot", "Y\u043eu", "Guest 1234", "ＹＯＵ", "Y0u",
                      "(not connected)", "Spectator", "easy BOT", "Friend 2", "deleted player"]


@pytest.mark.parametrize("name", PASSING_FOR_LABELS)
def test_a_name_that_passes_for_one_of_the_servers_labels_is_refused_everywhere(
        make_client, name):
    client = make_client()
    made = client.post("/api/rooms", json={"game": "caravan",
                                           "seats": [{"kind": "me", "name": name}]})
    room = new_room(client, "crossroads", DUEL)
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code, "name": name})
    chosen = client.post("/api/me/name", json={"name": name},
                         headers={"origin": "http://testserver"})
    for refused in (made, joined, chosen):
        assert refused.status_code == 400, refused.text
        sentence = refused.json()["error"]
        assert sentence.endswith("choose another name.") and sentence.count(". ") == 0


@pytest.mark.parametrize("name", ["Ann", "Hostess", "Robot", "Ann 1", "太郎", "Ωmega"])
def test_names_that_only_share_letters_with_a_label_are_taken(make_client, name):
    client = make_client()
    assert client.post("/api/me/name", json={"name": name},
                       headers={"origin": "http://testserver"}).status_code == 200
