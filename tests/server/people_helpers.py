"""Accounts for the tests of people and challenges: one app's client acting as each of
several accounts in turn (`People`), with Argon2id at a test's cost."""

from __future__ import annotations

import argon2

from chuko.server.club.passwords import Passwords

PASSWORD = "correct horse battery"


def quick_hashing(monkeypatch) -> None:
    """Argon2id at a test's cost (the real parameters are test_sessions_security.py's)."""
    quick = argon2.PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    monkeypatch.setattr("chuko.server.web.accounts_api.Passwords", lambda: Passwords(quick))


class People:
    """One app's client, whose cookies are those of the player it acts as (`as_`)."""

    def __init__(self, client) -> None:
        self.client, self.jars = client, {}
        client.headers["origin"] = "http://testserver"

    def sign_up(self, *usernames: str) -> None:
        for username in usernames:
            self.client.cookies.clear()
            made = self.client.post("/api/account/signup",
                                    json={"username": username, "password": PASSWORD})
            assert made.status_code == 201, made.text
            self.jars[username] = dict(self.client.cookies)

    def as_(self, username: str):
        self.client.cookies.clear()
        for name, value in self.jars.get(username, {}).items():
            self.client.cookies.set(name, value)
        return self.client

    def post(self, who: str, path: str, **body):
        return self.as_(who).post(path, json=body)


def three_accounts(client) -> People:
    """Three accounts, ann, bob and cid, on one app's client."""
    made = People(client)
    made.sign_up("ann", "bob", "cid")
    return made


def until(ws, kind: str, event: str | None = None) -> dict:
    """The next message of `kind` (and `event`) on a player's socket, past the others."""
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == kind and (event is None or message.get("event") == event):
            return message
    raise AssertionError(f"no {kind} {event or ''} message")
