"""The API's POST requests (make, join, rematch, follow) are answered as bare ASGI ahead of
FastAPI's layers (`App.posts`): they keep the security headers, the sentences and the
statuses that FastAPI's routes gave them, and answer what those routes did not plan for."""

from __future__ import annotations

import asyncio
import json
import logging

from chuko.server.web.headers import SECURITY_HEADERS

SEATS = [{"kind": "me"}, {"kind": "friend"}]


def _secured(response) -> bool:
    return all(response.headers.get(name.decode()) == value.decode()
               for name, value in SECURITY_HEADERS)


def test_every_post_answer_and_refusal_carries_the_security_headers(make_client):
    client = make_client()
    made = client.post("/api/rooms", json={"game": "crossroads", "seats": SEATS})
    invite = made.json()["invites"][0]["url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/rooms/{made.json()['room']}/join", json={"invite": invite})
    refused = client.post(f"/api/rooms/{made.json()['room']}/join", json={"invite": invite})
    unknown = client.post("/api/rooms/nosuchroom/follow", json={"token": "x"})
    assert [r.status_code for r in (made, joined, refused, unknown)] == [201, 200, 409, 404]
    assert all(_secured(r) for r in (made, joined, refused, unknown))
    assert refused.json() == {"error": "That invite has already been used."}
    assert made.headers["content-type"] == "application/json"


def test_another_method_at_a_post_address_gets_405_and_a_sentence(make_client):
    response = make_client().get("/api/rooms")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST" and _secured(response)
    assert response.json() == {"error": "This address takes POST requests only."}


def test_a_client_gone_before_its_body_came_is_not_answered_and_makes_no_room(make_client):
    client = make_client()
    app = client.app
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/rooms", "raw_path": b"/api/rooms",
             "root_path": "", "query_string": b"", "headers": [(b"content-length", b"40")],
             "client": ("10.0.0.9", 1234), "server": ("test", 80), "scheme": "http",
             "http_version": "1.1", "asgi": {"version": "3.0"}}
    asyncio.run(app(scope, receive, send))
    assert sent == [] and app.state.hub.rooms == {}


def test_an_unexpected_failure_answers_500_with_a_sentence_and_is_logged(make_client, caplog,
                                                                       monkeypatch):
    client = make_client()

    async def broken(*_args):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(client.app.state.hub, "create", broken)
    with caplog.at_level(logging.ERROR, logger="chuko.server"):
        response = client.post("/api/rooms", json={"game": "crossroads", "seats": SEATS})
    assert response.status_code == 500 and _secured(response)
    assert response.json() == {"error": "The server could not do that just now. Try again."}
    assert "POST /api/rooms failed" in caplog.text and "the disk is on fire" in caplog.text
    # The server goes on.
    monkeypatch.undo()
    again = client.post("/api/rooms", json={"game": "crossroads", "seats": SEATS})
    assert again.status_code == 201 and json.loads(again.text)["room"]
