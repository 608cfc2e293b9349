"""The server's edge (`server/web/connections.py`, `chuko serve`): slow clients are timed out and
connections are capped per address and in all, so no client can take every file descriptor;
X-Forwarded-For counts only from the proxies named; every error answer, uvicorn's own
included, carries the security headers and a sentence; a socket message over the limit gets
the documented error, not a close."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import resource
import socket
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path

import httpx
import pytest
import uvicorn
from bench.children import popen
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from chuko.cli.serve import SETTINGS, edge_of, worker_app
from chuko.core.errors import ConfigError
from chuko.server.shared.limits import MAX_BODY, Edge
from chuko.server.web import connections
from chuko.server.web.app import SERVING, create_app
from chuko.server.web.connections import GATE, Gate, configure, raise_file_limit
from chuko.server.web.headers import SECURITY_HEADERS

BOTS = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
OVER = "Your address has 3 connections open already: close some of them first."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def opened(port: int, sent: bytes = b"", source: str = "127.0.0.1") -> socket.socket:
    """A raw connection to the server from `source` (any address of 127/8 is the loopback's),
    having sent `sent`."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(sent)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or resets it)."""
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65_536):
            received += chunk
    sock.close()
    return received


def parsed(response: bytes) -> tuple[int, dict[str, str], bytes]:
    """A raw HTTP response's status, headers and body."""
    head, _, body = response.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines)
    return int(status.split()[1]), headers, body


def secured(headers: dict[str, str]) -> bool:
    return all(headers.get(name.decode()) == value.decode() for name, value in SECURITY_HEADERS)


def get(port: int, path: str, source: str) -> int:
    """The status of a GET from `source`, on a connection of its own."""
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    return parsed(read_all(opened(port, request, source)))[0]


@contextlib.contextmanager
def chuko_serve(tmp_path: Path, *options: str):
    """`chuko serve` in a process of its own on a free port, with SQLite in `tmp_path`: its
    port, once it answers."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("ab") as out:
        process = popen(
            [sys.executable, "-m", "chuko.cli.main", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp_path}/chuko.db", "--bot-delay", "0", *options],
            stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            with contextlib.suppress(OSError):
                if get(port, "/api/games", "127.0.0.9") == 200:
                    break
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def served(db_url):
    """The app on a real uvicorn in this process, with `chuko serve`'s settings: its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(db_url, bot_delay=0),
                                           log_level="warning", **SERVING))
    serving = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listener])))
    serving.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and serving.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield listener.getsockname()[1]
    server.should_exit = True
    serving.join(30)
    listener.close()


# -- slow and numerous connections --------------------------------------------------------------

@pytest.mark.slow
def test_slow_connections_are_capped_per_address_and_timed_out_while_others_are_served(
        tmp_path):
    with chuko_serve(tmp_path, "--max-connections-per-address", "3", "--header-timeout", "1",
                     "--body-timeout", "1") as port:
        start = time.monotonic()
        slow = [opened(port, b"GET /api/ga") for _ in range(3)]
        # One more from the same address is refused at once, with a sentence.
        status, headers, body = parsed(read_all(opened(port)))
        assert (status, json.loads(body)) == (503, {"error": OVER}) and secured(headers)
        assert time.monotonic() - start < 1  # before any timeout
        # Another address is served meanwhile.
        assert get(port, "/api/games", "127.0.0.2") == 200
        # The slow ones are closed once their headers are late, without an answer.
        assert [read_all(sock) for sock in slow] == [b""] * 3
        assert 0.9 < time.monotonic() - start < 5
        # So is a body that stops coming; the address has its places back.
        late = opened(port, b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                            b"\r\n{\"game\"")
        sent = time.monotonic()
        assert read_all(late) == b"" and 0.9 < time.monotonic() - sent < 5
        assert get(port, "/api/games", "127.0.0.1") == 200


def test_a_connection_counts_against_its_address_until_it_closes_even_as_a_websocket(served):
    made = httpx.post(f"http://127.0.0.1:{served}/api/rooms",
                      json={"game": "crossroads", "seats": BOTS}).json()
    with connect(f"ws://127.0.0.1:{served}/ws/{made['room']}?token={made['token']}",
                 source_address=("127.0.0.5", 0)) as ws:
        ws.recv(timeout=10)
        assert GATE.open.get("127.0.0.5") == 1
    deadline = time.monotonic() + 5
    while "127.0.0.5" in GATE.open:  # the server sees the close a moment later
        assert time.monotonic() < deadline, GATE.open
        time.sleep(0.02)


def test_the_caps_refuse_past_each_address_and_in_all_but_spare_trusted_proxies():
    gate = Gate(Edge(connections_per_address=2, connections=3, reserved_files=10,
                     proxies="10.0.0.0/8"), files=100)
    assert gate.cap == 3
    assert [gate.admit("a", 1), gate.admit("a", 2), gate.admit("a", 3)] == [
        None, None, "Your address has 2 connections open already: close some of them first."]
    assert gate.admit("b", 4) == connections.FULL
    assert gate.admit("10.1.2.3", 3) is None and gate.admit("10.1.2.3", 3) is None
    gate.release("a")
    gate.release("a")
    assert "a" not in gate.open and gate.admit("a", 3) is None
    # Without a cap of its own, the cap in all leaves the reserved files free.
    assert Gate(Edge(reserved_files=128), files=1024).cap == 896


def test_the_open_file_limit_is_raised_to_the_hard_limit_and_logged(caplog):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(caplog.handler)  # uvicorn's own config may stop it from propagating
    caplog.set_level(logging.INFO, logger="uvicorn.error")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        assert raise_file_limit() == hard == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        configure(Edge(connections_per_address=7))
        assert GATE.cap == hard - 128 and GATE.edge.connections_per_address == 7
    finally:
        logger.removeHandler(caplog.handler)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        configure(Edge())
    assert (f"Open files: up to {hard}. Connections: up to {hard - 128} at once, 7 per client "
            "address") in caplog.text


def test_each_worker_bounds_its_connections_from_the_settings_it_inherits(monkeypatch, db_url):
    edge = Edge(header_timeout=3, connections_per_address=9, proxies="10.0.0.1")
    monkeypatch.setenv(SETTINGS, json.dumps({"db_url": db_url, "edge": asdict(edge)}))
    try:
        worker_app()
        assert GATE.edge == edge and GATE.proxy("10.0.0.1") and not GATE.proxy("10.0.0.2")
    finally:
        configure(Edge())


# -- X-Forwarded-For ----------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize(("options", "eleventh"), [
    ((), 429), (("--forwarded-allow-ips", "127.0.0.1"), 201)])
def test_forwarded_addresses_count_only_from_the_proxies_named(tmp_path, options, eleventh):
    """Rooms made: a bucket of 10 per address. Ten from one forwarded address, then one from
    another: the same address unless the proxy is trusted."""
    with chuko_serve(tmp_path, *options) as port:
        base = f"http://127.0.0.1:{port}"
        body = {"game": "crossroads", "seats": BOTS}
        with httpx.Client() as client:
            for _ in range(10):
                made = client.post(f"{base}/api/rooms", json=body,
                                   headers={"x-forwarded-for": "203.0.113.1"})
                assert made.status_code == 201, made.text
            other = client.post(f"{base}/api/rooms", json=body,
                                headers={"x-forwarded-for": "203.0.113.2"})
        assert other.status_code == eleventh, other.text


# -- error answers ------------------------------------------------------------------------------

@pytest.mark.parametrize("request_bytes", [
    b"GET /api/ga\x00mes HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n{}",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # TLS to a plain HTTP port
])
def test_uvicorns_own_400_carries_the_security_headers_and_a_sentence(served, request_bytes):
    status, headers, body = parsed(read_all(opened(served, request_bytes)))
    assert status == 400 and secured(headers)
    assert json.loads(body) == {"error": "That is not a valid HTTP request."}


def test_an_unexpected_failure_of_a_route_answers_500_with_the_headers_and_a_sentence(
        make_client, monkeypatch, caplog):
    client = make_client()

    def broken(*_args):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr("chuko.server.web.rooms_api.descriptors", broken)
    monkeypatch.setattr("chuko.server.web.html_pages.registry", broken)
    with caplog.at_level(logging.ERROR, logger="chuko.server"):
        api = client.get("/api/games")
        page = client.get("/rules/chuko")
    assert api.status_code == page.status_code == 500
    assert secured(api.headers) and secured(page.headers)
    assert api.json() == {"error": "The server could not do that just now. Try again."}
    assert page.headers["content-type"].startswith("text/html")
    assert "The server could not do that just now. Try again." in page.text
    assert "GET /api/games failed" in caplog.text and "the disk is on fire" in caplog.text
    monkeypatch.undo()
    assert client.get("/api/games").status_code == 200


# -- socket messages over the limit -------------------------------------------------------------

def reply(ws) -> dict:
    """The next message that is not the log or a state."""
    while (message := json.loads(ws.recv(timeout=10)))["type"] in ("log", "state"):
        pass
    return message


def test_a_socket_message_over_the_limit_gets_the_sentence_and_the_socket_stays_open(served):
    made = httpx.post(f"http://127.0.0.1:{served}/api/rooms",
                      json={"game": "crossroads", "seats": BOTS}).json()
    with connect(f"ws://127.0.0.1:{served}/ws/{made['room']}?token={made['token']}") as ws:
        ws.send(" " * (MAX_BODY + 1))
        assert reply(ws) == {"type": "error", "message": "That message is too long."}
        # At the limit in characters, however many bytes they take, it is read.
        ping = '{"type": "ping", "pad": "' + "€" * (MAX_BODY - 30) + '"}'
        assert len(ping) <= MAX_BODY < len(ping.encode()) // 2
        ws.send(ping)
        assert reply(ws) == {"type": "pong"}
        # Past the bound uvicorn keeps on a message's bytes, it closes the socket itself.
        ws.send(" " * (SERVING["ws_max_size"] + 1))
        with pytest.raises(ConnectionClosed) as closed:
            reply(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_method_an_address_does_not_take_gets_405_with_a_sentence_and_its_allow(make_client):
    response = make_client().put("/api/games")
    assert response.status_code == 405 and secured(response.headers)
    assert response.json() == {"error": "This address does not take PUT requests."}
    assert response.headers["allow"] == "GET"


@pytest.mark.parametrize(("option", "value", "refusal"), [
    ("forwarded_allow_ips", "proxy.example.org", "is not a list of addresses or networks"),
    ("header_timeout", 0, "must be above 0 seconds"),
    ("max_connections_per_address", 0, "must be 1 or more"),
])
def test_serve_refuses_bounds_that_make_no_sense_with_a_sentence(option, value, refusal):
    args = {"forwarded_allow_ips": "10.0.0.0/8, 127.0.0.1", "header_timeout": 10.0,
            "body_timeout": 10.0, "max_connections_per_address": 64, "max_connections": None}
    assert edge_of(argparse.Namespace(**args)).proxies == "10.0.0.0/8, 127.0.0.1"
    with pytest.raises(ConfigError, match=refusal):
        edge_of(argparse.Namespace(**{**args, option: value}))
