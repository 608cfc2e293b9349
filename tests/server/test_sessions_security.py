"""The sessions hold under attack: a request from another site is refused, a session is
replaced at every log-in and worth nothing after a log-out, password guessing is slowed per
address and per account, the answers (and their times) do not say which usernames exist,
passwords are hashed with Argon2id at no less than the library's defaults and never
repeated or logged."""

from __future__ import annotations

import asyncio
import logging

import argon2
import pytest
from argon2 import profiles
from server_helpers import from_address

from chuko.server.club.passwords import Passwords
from chuko.server.shared.limits import Limits, Rate

PASSWORD = "correct horse battery"
OWN = {"origin": "http://testserver"}
ROOM = {"game": "crossroads", "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}


@pytest.fixture
def quick_hashing(monkeypatch):
    """Argon2id at a test's cost (a few milliseconds), where what is tested is not the cost
    itself: the limits on guessing, and that both answers of a log-in take the same work."""
    quick = argon2.PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    monkeypatch.setattr("chuko.server.web.accounts_api.Passwords", lambda: Passwords(quick))


@pytest.fixture
def browser(make_client):
    def make(**options):
        client = make_client(**options)
        client.headers.update(OWN)
        return client

    return make


def cookie(client) -> str:
    return client.cookies["chuko_session"]


def replay(client, secret: str) -> None:
    """Put `secret` back in the client's jar as its only session cookie."""
    client.cookies.clear()
    client.cookies.set("chuko_session", secret, domain="testserver.local")


def account(client, username="alice"):
    made = client.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text


# -- cross-site request forgery ----------------------------------------------------------------

OTHER_SITES = [{"origin": "http://evil.example"}, {"origin": "null"},
               {"origin": "http://testserver:8080"},
               {"origin": "https://testserver.evil.example"},
               {"referer": "http://evil.example/page"}]


@pytest.mark.parametrize("path", ["/api/rooms", "/api/me", "/api/account/login",
                                  "/api/account/logout", "/api/nothing/here"])
def test_a_post_from_another_site_is_refused_with_403_and_a_sentence(make_client, path):
    client = make_client()
    for headers in OTHER_SITES:
        refused = client.post(path, json={**ROOM, "username": "alice", "password": PASSWORD},
                              headers=headers)
        assert refused.status_code == 403, headers
        assert refused.json() == {"error": "This request comes from another site, so it was "
                                           "refused."}
        assert refused.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("headers", [OWN, {"referer": "http://testserver/"},
                                     {"origin": "http://TestServer:80"}])
def test_a_post_from_the_apps_own_pages_goes_on(make_client, headers):
    assert make_client().post("/api/rooms", json=ROOM, headers=headers).status_code == 201


def test_a_program_without_origin_may_post_without_a_session_or_saying_x_chuko(make_client):
    client = make_client()
    assert client.post("/api/rooms", json=ROOM).status_code == 201  # no session: fine
    client.post("/api/me", json={})  # now it carries a session cookie
    refused = client.post("/api/rooms", json=ROOM)
    assert refused.status_code == 403 and "X-Chuko" in refused.json()["error"]
    assert client.post("/api/rooms", json=ROOM, headers={"x-chuko": "1"}).status_code == 201


def test_a_session_cookie_sent_from_another_site_names_nobody(browser):
    client = browser()
    account(client)
    assert client.get("/api/me").json()["player"]["username"] == "alice"
    foreign = client.get("/api/me", headers={"origin": "http://evil.example"})
    assert foreign.json() == {"player": None, "signups": True}


# -- sessions ----------------------------------------------------------------------------------

def test_log_in_replaces_the_session_so_a_planted_cookie_is_worth_nothing(browser):
    account(browser())
    client = browser()
    client.post("/api/me", json={})
    planted = cookie(client)  # as an attacker would set it before the victim logs in
    logged = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert logged.status_code == 200
    assert cookie(client) != planted
    replay(client, planted)
    assert client.get("/api/me").json() == {"player": None, "signups": True}


def test_sign_up_replaces_the_guests_session(browser):
    client = browser()
    client.post("/api/me", json={})
    guest = cookie(client)
    account(client)
    assert cookie(client) != guest
    replay(client, guest)
    assert client.get("/api/me").json() == {"player": None, "signups": True}


def test_a_stolen_cookie_replayed_after_log_out_is_refused(browser):
    client = browser()
    account(client)
    stolen = cookie(client)
    client.post("/api/account/logout", json={})
    thief = browser()
    replay(thief, stolen)
    assert thief.get("/api/me").json() == {"player": None, "signups": True}
    for path, body in [("/api/account/password", {"password": PASSWORD,
                                                  "new_password": "taken over!"}),
                       ("/api/account/delete", {"password": PASSWORD})]:
        assert thief.post(path, json=body).status_code == 403


def test_a_cookie_that_the_server_never_made_is_no_session(browser):
    client = browser()
    for forged in ("x" * 43, "short", "a;b", "%C3%A9" * 8, "x" * 65):
        client.cookies.clear()
        client.headers["cookie"] = f"chuko_session={forged}"
        assert client.get("/api/me").json() == {"player": None, "signups": True}


# -- password guessing -------------------------------------------------------------------------

def test_the_eleventh_wrong_password_in_a_minute_is_refused(browser, quick_hashing):
    client = browser()
    account(client)
    client.post("/api/account/logout", json={})
    wrong = [client.post("/api/account/login",
                         json={"username": "alice", "password": f"guess {n:04}"}).status_code
             for n in range(11)]
    assert wrong == [401] * 10 + [429]
    refused = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert refused.status_code == 429 and refused.json()["error"].endswith("try again.")


def test_an_account_is_guarded_against_guesses_from_many_addresses(browser, quick_hashing):
    client = browser(limits=Limits(logins_per_account=Rate(10 / 60, 10)))
    account(client)
    client.post("/api/account/logout", json={})
    client.cookies.clear()  # a browser the account never logged in from
    answers = []
    for n in range(11):
        from_address(client, f"10.0.1.{n}")
        answers.append(client.post("/api/account/login",
                                   json={"username": "ALICE", "password": f"guess {n:04}"}))
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[-1].json()["error"] == ("Too many log-in attempts for this account: wait a "
                                           "minute and try again.")
    # Another account is not locked by it.
    assert client.post("/api/account/login",
                       json={"username": "bob", "password": "guess"}).status_code == 401


def guessed_from_elsewhere(client, guesser: str, guesses: int) -> list[int]:
    """`guesses` wrong passwords for alice from `guesser`, then one from each of ten
    other addresses, in a browser of their own (no cookie of alice's): their answers."""
    client.cookies.clear()
    from_address(client, guesser)
    answers = [client.post("/api/account/login",
                           json={"username": "alice", "password": f"guess {n:04}"}).status_code
               for n in range(guesses)]
    for n in range(10):
        from_address(client, f"10.0.2.{n}")
        answers.append(client.post("/api/account/login",
                                   json={"username": "alice", "password": "wrong one"}
                                   ).status_code)
    return answers


def test_wrong_passwords_from_other_addresses_never_lock_the_owner_out(browser, quick_hashing):
    client = browser()
    account(client)
    client.post("/api/account/logout", json={})
    answers = guessed_from_elsewhere(client, "10.0.0.9", 11)
    assert answers == [401] * 10 + [429] + [401] * 10
    # The owner, from a fresh address and a fresh browser, logs in.
    client.cookies.clear()
    from_address(client, "10.0.0.50")
    owner = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert owner.status_code == 200, owner.text
    # The guesser's address is still held back, even with the right password.
    client.cookies.clear()
    from_address(client, "10.0.0.9")
    refused = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert refused.status_code == 429
    assert refused.json()["error"] == ("Too many log-in attempts for this account from your "
                                       "address: wait a minute and try again.")


def test_a_browser_the_account_logged_in_from_passes_the_accounts_ceiling(browser,
                                                                         quick_hashing):
    client = browser(limits=Limits(logins_per_account=Rate(1 / 60, 5)))
    account(client)  # this browser now carries the account's proof
    client.post("/api/account/logout", json={})
    known = client.cookies["chuko_device"]
    guessed_from_elsewhere(client, "10.0.0.9", 0)
    # The account's ceiling holds back a browser it does not know, whoever it is …
    client.cookies.clear()
    from_address(client, "10.0.0.60")
    stranger = client.post("/api/account/login",
                           json={"username": "alice", "password": PASSWORD})
    assert stranger.status_code == 429
    # … but not the owner's browser, from wherever it comes.
    client.cookies.set("chuko_device", known, domain="testserver.local")
    owner = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert owner.status_code == 200, owner.text
    # A proof that is not the account's is no proof.
    client.post("/api/account/logout", json={})
    client.cookies.set("chuko_device", "f" * 64, domain="testserver.local")
    from_address(client, "10.0.0.61")
    assert client.post("/api/account/login",
                       json={"username": "alice", "password": PASSWORD}).status_code == 429


def test_sign_ups_are_limited_per_address(browser, quick_hashing):
    client = browser()
    for n in range(5):
        account(client, f"player{n}")
        client.post("/api/account/logout", json={})
    refused = client.post("/api/account/signup",
                          json={"username": "player9", "password": PASSWORD})
    assert refused.status_code == 429


# -- user enumeration --------------------------------------------------------------------------

def test_an_unknown_username_and_a_wrong_password_get_the_same_answer(browser):
    client = browser()
    account(client)
    client.post("/api/account/logout", json={})
    unknown = client.post("/api/account/login", json={"username": "nobody", "password": "x1"})
    wrong = client.post("/api/account/login", json={"username": "alice", "password": "x1"})
    assert (unknown.status_code, unknown.json()) == (wrong.status_code, wrong.json()) == (
        401, {"error": "That username and password do not match an account."})
    assert "set-cookie" not in unknown.headers and "set-cookie" not in wrong.headers


@pytest.mark.slow
def test_an_unknown_username_is_checked_as_a_wrong_password_is(browser, monkeypatch):
    """A log-in under a name nobody holds does the same work as a wrong password, so its
    answer's time does not say which names exist: the route checks the password either way
    (once), and the check verifies it against a hash of the same Argon2 parameters (a dummy
    one for no account). Shown by what is called, not by timing it."""
    checked: list[str | None] = []
    check = Passwords.check

    async def spy(self: Passwords, password: str, stored: str | None) -> bool:
        checked.append(stored)
        return await check(self, password, stored)

    monkeypatch.setattr(Passwords, "check", spy)
    client = browser(limits=Limits(logins_per_address=Rate(100, 1000),
                                   logins_per_account=Rate(100, 1000)))
    account(client)
    client.post("/api/account/logout", json={})
    checked.clear()
    for username in ("nobody", "alice"):
        answer = client.post("/api/account/login", json={"username": username,
                                                         "password": "guess"})
        assert answer.status_code in (401, 403), answer.text
    assert len(checked) == 2 and checked[0] is None and checked[1] is not None

    verified: list[str] = []

    class Spying(argon2.PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> bool:
            verified.append(hash if isinstance(hash, str) else hash.decode())
            return super().verify(hash, password)

    passwords = Passwords(Spying())
    stored = passwords.hasher.hash("the real one")
    try:
        assert asyncio.run(passwords.check("guess", None)) is False
        assert asyncio.run(passwords.check("guess", stored)) is False
    finally:
        passwords.close()
    dummy, real = (argon2.extract_parameters(h) for h in verified)
    assert len(verified) == 2 and dummy == real


# -- hashing -----------------------------------------------------------------------------------

def test_argon2_parameters_are_at_least_the_librarys_defaults():
    hasher = Passwords().hasher
    default, low = argon2.PasswordHasher(), profiles.RFC_9106_LOW_MEMORY
    assert hasher.type is argon2.Type.ID
    for name in ("time_cost", "memory_cost", "parallelism", "hash_len", "salt_len"):
        assert getattr(hasher, name) >= max(getattr(default, name), getattr(low, name)), name


def test_passwords_are_stored_as_argon2id_never_answered_nor_logged(browser, db_url, caplog):
    from sqlalchemy import create_engine, select

    from chuko.server.store.schema import players

    caplog.set_level(logging.DEBUG)
    client = browser()
    answers = [client.post("/api/account/signup",
                           json={"username": "alice", "password": PASSWORD}).text,
               client.post("/api/account/login",
                           json={"username": "alice", "password": PASSWORD}).text,
               client.post("/api/account/password",
                           json={"password": "wrong password", "new_password": PASSWORD}).text]
    engine = create_engine(db_url)
    with engine.connect() as conn:
        [stored] = conn.execute(select(players.c.password_hash)).all()
    engine.dispose()
    assert stored[0].startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert all(PASSWORD not in text for text in answers)
    assert PASSWORD not in caplog.text
