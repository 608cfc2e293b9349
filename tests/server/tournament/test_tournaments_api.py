"""Tournaments over HTTP: an account makes one (a guest may not; a wrong setting is a 400
with its sentence), it is listed as upcoming, a guest joins a casual one and is told so on
its page, a wrong password is a 403, making too many from one account is a 429, and an
account's profile lists the tournaments it entered."""

from __future__ import annotations

import time

import argon2
import pytest
from tournament_kit import FakeRules, settings

from chuko.server.club.passwords import Passwords


@pytest.fixture(autouse=True)
def quick_hashing(monkeypatch):
    quick = argon2.PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    monkeypatch.setattr("chuko.server.web.accounts_api.Passwords", lambda: Passwords(quick))


def browser(make_client):
    """A client from the app's own pages, its tournaments run by the tests' rules."""
    client = make_client()
    client.headers["origin"] = "http://testserver"
    client.app.state.tournaments.director.rules = FakeRules()
    return client


def test_an_account_makes_a_tournament_that_a_guest_joins(make_client):
    host, guest = browser(make_client), browser(make_client)
    made = host.post("/api/account/signup", json={"username": "alice",
                                                   "password": "correct horse battery"})
    assert made.status_code == 201
    soon = time.time() + 3600
    refused = host.post("/api/tournaments", json=settings("swiss", rounds=20, starts_at=soon))
    assert refused.status_code == 400 and "2 to 15 rounds" in refused.json()["error"]
    created = host.post("/api/tournaments", json=settings("swiss", starts_at=soon))
    assert created.status_code == 200, created.text
    page = created.json()
    assert page["status"] == "upcoming" and page["tiebreaks"] == ["buchholz",
                                                                  "sonneborn_berger"]
    assert any("Buchholz" in sentence for sentence in page["rules"])
    listed = guest.get("/api/tournaments").json()
    assert [t["id"] for t in listed["upcoming"]] == [page["id"]]
    assert listed["running"] == listed["finished"] == []

    joined = guest.post(f"/api/tournaments/{page['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["you"] == {"joined": True, "withdrawn": False, "paused": False,
                                    "room": None}
    seen = guest.get(f"/api/tournaments/{page['id']}").json()
    assert seen["players"] == 1 and seen["you"]["joined"]  # the guest made for the join
    assert host.get(f"/api/tournaments/{page['id']}").json()["you"]["joined"] is False
    assert guest.post("/api/tournaments", json=settings("swiss", starts_at=soon)) \
        .status_code == 403
    assert guest.post(f"/api/tournaments/{page['id']}/dance", json={}).status_code == 404
    assert guest.get("/api/tournaments/nothing-here").status_code == 404


def test_a_wrong_password_is_refused_and_too_many_tournaments_are_a_429(make_client):
    host, guest = browser(make_client), browser(make_client)
    host.post("/api/account/signup", json={"username": "bob",
                                           "password": "correct horse battery"})
    soon = time.time() + 3600
    locked = host.post("/api/tournaments",
                       json=settings("arena", password="door", starts_at=soon)).json()
    wrong = guest.post(f"/api/tournaments/{locked['id']}/join", json={"password": "wall"})
    assert wrong.status_code == 403
    assert guest.post(f"/api/tournaments/{locked['id']}/join",
                      json={"password": "door"}).status_code == 200
    answers = [host.post("/api/tournaments", json=settings("arena", starts_at=soon))
               .status_code for _ in range(4)]
    assert answers == [200, 200, 429, 429]  # three upcoming of one's own at most


def test_a_profile_lists_the_tournaments_its_account_entered(make_client):
    host = browser(make_client)
    host.post("/api/account/signup", json={"username": "carol",
                                           "password": "correct horse battery"})
    soon = time.time() + 3600
    made = [host.post("/api/tournaments", json=settings("swiss", starts_at=soon + n)).json()
            for n in range(2)]
    host.post(f"/api/tournaments/{made[0]['id']}/join", json={})
    entered = host.get("/api/players/Carol/tournaments")
    assert entered.status_code == 200
    assert [(t["id"], t["players"]) for t in entered.json()["tournaments"]] == [
        (made[0]["id"], 1)]
    assert host.get("/api/players/nobody/tournaments").status_code == 404
