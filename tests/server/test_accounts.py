"""Guests and accounts over the JSON API: a guest is made with a cookie and a name, signs up
and keeps their id and games, logs in and out, changes their password and deletes their
account; usernames follow their rules; bad input gets a sentence, never a 500; a player's
session opens their seat."""

from __future__ import annotations

import hashlib
import re

import argon2
import pytest
from sqlalchemy import create_engine, select

from chuko.server.club.passwords import Passwords
from chuko.server.store.schema import players, seats, sessions

BOTS = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def quick_hashing(monkeypatch):
    """Argon2id at a test's cost: what these tests prove does not depend on it (the real
    parameters are test_sessions_security.py's)."""
    quick = argon2.PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    monkeypatch.setattr("chuko.server.web.accounts_api.Passwords", lambda: Passwords(quick))


@pytest.fixture
def browser(make_client):
    """`browser(**options)`: a client whose requests come from the app's own pages, as a
    browser's do (they carry their Origin)."""

    def make(**options):
        client = make_client(**options)
        client.headers["origin"] = "http://testserver"
        return client

    return make


def rows(db_url, table):
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(table)).all()
    finally:
        engine.dispose()


def session_cookie(response) -> str:
    return next(value for value in response.headers.get_list("set-cookie")
                if value.startswith("chuko_session="))


def signed_up(client, username="alice", password=PASSWORD):
    made = client.post("/api/account/signup", json={"username": username, "password": password})
    assert made.status_code == 201, made.text
    return made


def test_nobody_has_no_player_until_a_request_makes_them_a_guest(browser):
    client = browser()
    assert client.get("/api/me").json() == {"player": None, "signups": True}
    made = client.post("/api/me", json={})
    assert made.status_code == 200
    player = made.json()["player"]
    assert re.fullmatch(r"Guest \d{4}", player["name"])
    assert player == {"name": player["name"], "username": None, "guest": True}
    assert client.get("/api/me").json() == {**made.json(), "signups": True}
    assert client.post("/api/me", json={}).json() == made.json()  # the same guest


def test_the_guest_cookie_is_httponly_lax_long_lived_and_secure_over_https(browser):
    plain = session_cookie(browser().post("/api/me", json={}))
    assert re.fullmatch(r"chuko_session=[A-Za-z0-9_-]{43}; Max-Age=34560000; Path=/; "
                        r"HttpOnly; SameSite=Lax", plain)
    client = browser()
    client.base_url = "https://testserver"
    secure = session_cookie(client.post("/api/me", json={}))
    assert secure.endswith("; HttpOnly; SameSite=Lax; Secure")


def test_the_server_keeps_only_the_secrets_hash(browser, db_url):
    client = browser()
    secret = session_cookie(client.post("/api/me", json={})).split(";")[0].split("=")[1]
    [stored] = rows(db_url, sessions)
    assert stored.id_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(rows(db_url, players))


def test_a_guest_chooses_a_display_name_and_bots_names_are_refused(browser):
    client = browser()
    named = client.post("/api/me/name", json={"name": "  Ada "})
    assert named.json()["player"]["name"] == "Ada"
    assert client.get("/api/me").json()["player"]["name"] == "Ada"
    for bad in ("Hard bot", "", "x" * 25, 7, "deleted player"):
        refused = client.post("/api/me/name", json={"name": bad})
        assert refused.status_code == 400 and refused.json()["error"].endswith("."), bad


def test_a_guest_who_signs_up_keeps_their_id_games_and_name(browser, db_url):
    client = browser()
    client.post("/api/me/name", json={"name": "Ada"})
    room = client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS}).json()["room"]
    [guest] = rows(db_url, players)
    made = signed_up(client, "Ada_L")
    assert made.json() == {"player": {"name": "Ada", "username": "Ada_L", "guest": False}}
    [account] = rows(db_url, players)
    assert account.id == guest.id and account.username_key == "ada_l"
    assert account.password_hash.startswith("$argon2id$")
    [mine] = [s for s in rows(db_url, seats) if s.room == room and s.kind == "human"]
    assert mine.player == guest.id
    assert client.get(f"/api/rooms/{room}").json()["seat"] == 0  # their seat, by the cookie


def test_a_guest_who_never_chose_a_name_is_shown_by_their_username(browser):
    assert signed_up(browser(), "Bob").json()["player"]["name"] == "Bob"


@pytest.mark.parametrize("username", [
    "admin", "ROOT", "Chuko", "system", "deleted", "guest", "Guest42", "hardbot", "Easy_bot",
    "perfect-bot", "HardBot1", "Spectator", "Y0u", "ab", "a" * 21, "1abc", "_abc", "al ice",
    "alice!", "álice", 42, None])
@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_reserved_and_malformed_usernames_are_refused_with_a_sentence(browser, username):
    refused = browser().post("/api/account/signup",
                                 json={"username": username, "password": PASSWORD})
    assert refused.status_code == 400
    assert refused.json()["error"].endswith(".")


def test_usernames_are_one_whatever_their_case(browser):
    signed_up(browser(), "Alice")
    taken = browser().post("/api/account/signup",
                               json={"username": "aLICE", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json() == {
        "error": "That username is taken: choose another."}
    logged = browser().post("/api/account/login",
                                json={"username": "ALICE", "password": PASSWORD})
    assert logged.status_code == 200 and logged.json()["player"]["username"] == "Alice"


@pytest.mark.parametrize("password", ["short", "x" * 129, 12345678, None])
def test_passwords_have_8_to_128_characters(browser, password):
    refused = browser().post("/api/account/signup",
                                 json={"username": "alice", "password": password})
    assert refused.status_code == 400 and "password" in refused.json()["error"].lower()


def test_an_account_logs_out_and_in_again(browser):
    client = browser()
    signed_up(client)
    out = client.post("/api/account/logout", json={})
    assert out.json() == {"player": None}
    assert session_cookie(out).startswith("chuko_session=; Max-Age=0")
    assert client.get("/api/me").json() == {"player": None, "signups": True}
    back = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert back.json()["player"]["username"] == "alice"
    assert client.get("/api/me").json()["player"]["username"] == "alice"


def test_a_new_password_replaces_the_old_and_ends_the_other_sessions(browser):
    client = browser()
    signed_up(client)
    first = client.cookies["chuko_session"]
    client.cookies.clear()  # another browser logs in: a second session
    client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    second = client.cookies["chuko_session"]
    client.cookies.clear()
    client.cookies.set("chuko_session", first, domain="testserver.local")
    wrong = client.post("/api/account/password",
                        json={"password": "not it at all", "new_password": "a new secret"})
    assert wrong.status_code == 401
    changed = client.post("/api/account/password",
                          json={"password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200
    assert client.get("/api/me").json()["player"]["username"] == "alice"
    assert client.cookies["chuko_session"] != first
    client.cookies.clear()
    client.cookies.set("chuko_session", second, domain="testserver.local")
    assert client.get("/api/me").json() == {"player": None, "signups": True}
    old = browser().post("/api/account/login",
                             json={"username": "alice", "password": PASSWORD})
    assert old.status_code == 401
    new = browser().post("/api/account/login",
                             json={"username": "alice", "password": "a new secret"})
    assert new.status_code == 200


def test_a_deleted_account_keeps_its_row_games_and_name_but_no_way_in(browser, db_url):
    client = browser()
    signed_up(client)
    client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS})
    wrong = client.post("/api/account/delete", json={"password": "not my password"})
    assert wrong.status_code == 401
    gone = client.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200 and gone.json() == {"player": None}
    assert client.get("/api/me").json() == {"player": None, "signups": True}
    [row] = rows(db_url, players)
    assert row.deleted and row.password_hash is None and row.username == "alice"
    assert rows(db_url, sessions) == []
    assert any(s.player == row.id for s in rows(db_url, seats))
    again = browser().post("/api/account/login",
                               json={"username": "alice", "password": PASSWORD})
    assert again.status_code == 401
    taken = browser().post("/api/account/signup",
                               json={"username": "alice", "password": PASSWORD})
    assert taken.status_code == 409


def test_account_actions_without_an_account_are_refused(browser):
    client = browser()
    for path, body in [("/api/account/password", {"password": PASSWORD,
                                                  "new_password": "whatever123"}),
                       ("/api/account/delete", {"password": PASSWORD})]:
        refused = client.post(path, json=body)
        assert refused.status_code == 403
        assert refused.json() == {"error": "You are not logged in to an account."}


def test_an_account_cannot_sign_up_again(browser):
    client = browser()
    signed_up(client)
    again = client.post("/api/account/signup", json={"username": "other", "password": PASSWORD})
    assert again.status_code == 409


def test_sign_up_is_refused_when_registration_is_closed_but_guests_play(browser):
    client = browser(open_registration=False)
    assert client.get("/api/me").json() == {"player": None, "signups": False}  # the page says so
    refused = client.post("/api/account/signup", json={"username": "alice", "password": PASSWORD})
    assert refused.status_code == 403
    assert refused.json() == {"error": "This server takes no new accounts; you can go on "
                                       "playing as a guest."}
    assert client.post("/api/me", json={}).json()["player"]["guest"] is True
    made = client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS})
    assert made.status_code == 201


BAD_BODIES = [b"not json", b"[1, 2]", b'{"username": {"a": [1]}, "password": ["x"], '
              b'"name": 3, "new_password": null}', b"[" * 100 + b"]" * 100,
              b'"' + b"x" * 70_000 + b'"']


@pytest.mark.parametrize("path", ["/api/me", "/api/me/name", "/api/account/signup",
                                  "/api/account/login", "/api/account/logout",
                                  "/api/account/password", "/api/account/delete"])
@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_bad_input_gets_a_4xx_with_a_sentence_never_a_500(browser, path):
    client = browser()
    client.post("/api/me", json={})  # a guest: every action reaches its checks
    for body in BAD_BODIES:
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert 200 <= answer.status_code < 500, (path, body[:20], answer.text)
        if answer.status_code >= 400:
            assert answer.json()["error"].endswith(".")


def test_a_players_session_opens_their_seat_on_a_socket_and_others_watch(browser):
    client = browser()
    client.post("/api/me", json={})
    room = client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS}).json()["room"]
    with client.websocket_connect(f"/ws/{room}") as socket:
        first = socket.receive_json()
        while first.get("type") != "state":
            first = socket.receive_json()
        assert first["seat"] == 0
    stranger = browser()
    assert stranger.get(f"/api/rooms/{room}").json()["seat"] is None
    # Opened from another site's page, the cookie counts for nothing.
    with client.websocket_connect(f"/ws/{room}",
                                  headers={"origin": "http://evil.example"}) as socket:
        first = socket.receive_json()
        while first.get("type") != "state":
            first = socket.receive_json()
        assert first["seat"] is None


def test_joining_through_an_invite_makes_the_seat_the_joiners(browser, db_url):
    host, friend = browser(), browser()
    made = host.post("/api/rooms", json={"game": "crossroads",
                                         "seats": [{"kind": "me"}, {"kind": "friend"}]}).json()
    friend.post("/api/me", json={})
    invite = made["invites"][0]["url"].rsplit("/", 1)[1]
    assert friend.post(f"/api/rooms/{made['room']}/join", json={"invite": invite}).status_code \
        == 200
    [guest] = rows(db_url, players)
    seated = {s.seat: s.player for s in rows(db_url, seats)}
    assert seated == {0: None, 1: guest.id}
    assert friend.get(f"/api/rooms/{made['room']}").json()["seat"] == 1


def test_a_rematch_keeps_each_seat_for_the_player_who_held_it(browser, db_url):
    from server_helpers import drive, join, new_room, random_chooser

    client = browser(seed=5)
    sessions_of = {}
    for who in ("ann", "bob"):
        client.cookies.clear()
        client.post("/api/me", json={})
        sessions_of[who] = client.cookies["chuko_session"]

    def as_(who):
        client.cookies.clear()
        client.cookies.set("chuko_session", sessions_of[who], domain="testserver.local")

    as_("ann")
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}], first="0")
    as_("bob")
    tokens = {0: room["token"], 1: join(client, room)["token"]}
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1:
        drive({0: ws0, 1: ws1}, random_chooser(1))
    before = {s.seat: s.player for s in rows(db_url, seats) if s.room == room["room"]}
    assert None not in before.values() and before[0] != before[1]
    as_("ann")
    rematch = client.post(f"/api/rooms/{room['room']}/rematch",
                          json={"token": tokens[0]}).json()["room"]
    client.cookies.clear()  # Bob follows from a browser without his session
    followed = client.post(f"/api/rooms/{rematch}/follow", json={"token": tokens[1]})
    assert followed.status_code == 200, followed.text
    after = {s.seat: s.player for s in rows(db_url, seats) if s.room == rematch}
    assert after == before


def test_a_players_seat_is_theirs_after_a_restart(browser):
    client = browser()
    client.post("/api/me", json={})
    room = client.post("/api/rooms", json={"game": "crossroads", "seats": BOTS}).json()["room"]
    secret = client.cookies["chuko_session"]
    restarted = browser()  # a new app on the same database: the room is loaded from it
    restarted.cookies.set("chuko_session", secret, domain="testserver.local")
    assert restarted.get(f"/api/rooms/{room}").json()["seat"] == 0


def test_sessions_unused_for_longer_than_any_cookie_lasts_are_deleted(browser, db_url):
    from sqlalchemy import insert, update

    browser().post("/api/me", json={})
    [guest] = rows(db_url, players)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(sessions).values(seen=1.0))  # unused since 1970
        conn.execute(insert(sessions).values(id_hash="f" * 64, player=guest.id, created=1.0,
                                             seen=1.0))
    engine.dispose()
    client = browser()  # another worker (none of its sessions cached), which sweeps
    client.post("/api/me", json={})
    assert len(rows(db_url, sessions)) == 1 and rows(db_url, sessions)[0].seen > 1.0


def test_a_session_unused_for_longer_than_its_cookie_lasts_is_over(browser, db_url):
    from sqlalchemy import update

    client = browser()
    client.post("/api/me", json={})
    secret = client.cookies["chuko_session"]
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(sessions).values(seen=1.0))
    engine.dispose()
    elsewhere = browser()  # a worker that has not seen it lately
    elsewhere.cookies.set("chuko_session", secret, domain="testserver.local")
    assert elsewhere.get("/api/me").json() == {"player": None, "signups": True}
