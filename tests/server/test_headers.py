"""Every response carries the security headers, and the server's logs never show a seat token
or an invite, however the query spells its name (`?tok%65n=` authenticates, so it must not be
logged as it is)."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
import urllib.request

import pytest
import uvicorn

from chuko.server import create_app
from chuko.server.web.redaction import redact

HEADERS = {
    "content-security-policy":
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


@pytest.mark.parametrize("path", ["/", "/room/x", "/replay/x", "/rules/chuko", "/api/games",
                                  "/api/rooms/nosuchroom", "/static/style.css", "/nothing"])
def test_every_page_and_api_response_carries_the_security_headers(make_client, path):
    response = make_client().get(path)
    for name, value in HEADERS.items():
        assert response.headers.get_list(name) == [value], (path, name)


def test_refusals_carry_the_security_headers_too(make_client):
    response = make_client().post("/api/rooms", content=b"{}",
                                  headers={"content-length": "50000000"})
    assert response.status_code == 413
    assert all(response.headers[name] == value for name, value in HEADERS.items())


@pytest.mark.parametrize(("line", "hidden"), [
    ("GET /api/rooms/r?token=s3cr3t HTTP/1.1", "GET /api/rooms/r?token=… HTTP/1.1"),
    ("GET /api/rooms/r?tok%65n=s3cr3t HTTP/1.1", "GET /api/rooms/r?tok%65n=… HTTP/1.1"),
    ("GET /api/rooms/r?TOKEN=s3cr3t HTTP/1.1", "GET /api/rooms/r?TOKEN=… HTTP/1.1"),
    ("GET /api/rooms/r?%2574oken=s3cr3t HTTP/1.1", "GET /api/rooms/r?%2574oken=… HTTP/1.1"),
    ("GET /x?a=1&Invite=s3cr3t;to+ken=s3cr3t", "GET /x?a=1&Invite=…;to+ken=…"),
    ('"WebSocket /ws/r?x=1&token=s3cr3t" [accepted]', '"WebSocket /ws/r?x=1&token=…" [accepted]'),
    ("GET /join/r/s3cr3t HTTP/1.1", "GET /join/r/… HTTP/1.1"),
    ("GET /j%6Fin/r/s3cr3t?x=1 HTTP/1.1", "GET /j%6Fin/r/…?x=1 HTTP/1.1"),
    ("GET /api/rooms/r?game=chuko&seat=0 HTTP/1.1", "GET /api/rooms/r?game=chuko&seat=0 HTTP/1.1"),
])
def test_redaction_parses_the_query_and_the_invite_path(line, hidden):
    assert redact(line) == hidden


@pytest.fixture
def served(db_url):
    """The app served by uvicorn on a free loopback port, as `chuko serve` runs it: its base
    URL, while it runs."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db_url, bot_delay=0), host="127.0.0.1",
                                           port=port, log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def test_tokens_and_invites_never_reach_the_access_log(served, caplog):
    access = logging.getLogger("uvicorn.access")
    access.addHandler(caplog.handler)  # uvicorn's own config may stop it from propagating
    caplog.set_level(logging.INFO, logger="uvicorn.access")
    try:
        request = urllib.request.Request(
            f"{served}/api/rooms", method="POST", headers={"content-type": "application/json"},
            data=b'{"game": "crossroads", "seats": [{"kind": "me"}, {"kind": "friend"}]}')
        with urllib.request.urlopen(request) as response:
            room = json.loads(response.read())
        invite = room["invites"][0]["url"].rsplit("/", 1)[1]
        for query in (f"tok%65n={room['token']}", f"TOKEN={room['token']}",
                      f"invite={invite}", f"token={room['token']}"):
            with urllib.request.urlopen(f"{served}/api/rooms/{room['room']}?{query}") as got:
                seat = json.loads(got.read())["seat"]
            # An encoded name is the name: it authenticates, so it must be hidden too
            # (query names are case-sensitive: TOKEN holds no seat, but is hidden all the same).
            assert seat == (None if query.startswith(("TOKEN", "invite")) else 0)
        urllib.request.urlopen(f"{served}/join/{room['room']}/{invite}").close()
    finally:
        access.removeHandler(caplog.handler)
    lines = {record.getMessage() for record in caplog.records}  # propagated ones come twice
    assert sum(f"/api/rooms/{room['room']}?" in line for line in lines) == 4
    logged = "\n".join(lines)
    assert room["token"] not in logged and invite not in logged
    for shown in ("?tok%65n=…", "?TOKEN=…", "?invite=…", "?token=…", f"/join/{room['room']}/…"):
        assert shown in logged
