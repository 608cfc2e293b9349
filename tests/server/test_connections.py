"""Closed connections leave nothing for the garbage collector (`server/web/connections.py`): a real
uvicorn, configured as `chuko serve` configures it, answers rooms' HTTP requests and sockets;
once they are closed, reference counting alone has freed their protocol objects. The
collector is off meanwhile, so anything caught in a cycle would still be there to count."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import threading
import time

import httpx
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from chuko.server.web.app import SERVING, create_app

SOCKETS = 20


def live_count(kind: type) -> int:
    return sum(issubclass(type(o), kind) for o in gc.get_objects())


def test_closed_sockets_and_requests_leave_no_garbage_cycle(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(create_app(f"sqlite:///{tmp_path}/chuko.db", bot_delay=0),
                            log_level="warning", **SERVING)
    server = uvicorn.Server(config)
    serving = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listener])))
    gc.disable()
    serving.start()
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        made = httpx.post(f"{base}/api/rooms", json={
            "game": "crossroads", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]})
        room, token = made.json()["room"], made.json()["token"]
        for _ in range(SOCKETS):
            with connect(f"ws://127.0.0.1:{port}/ws/{room}?token={token}") as ws:
                ws.recv(timeout=10)
            assert httpx.get(f"{base}/api/rooms/{room}?token={token}").status_code == 200
        left = (0, 0)
        for _ in range(100):  # the server sees each connection lost a moment later
            left = (live_count(ServerProtocol), live_count(HttpToolsProtocol))
            if left == (0, 0):
                break
            time.sleep(0.05)
        assert left == (0, 0), f"{left[0]} WebSocket and {left[1]} HTTP protocols left"
    finally:
        gc.enable()
        server.should_exit = True
        serving.join(30)
        with contextlib.suppress(OSError):
            listener.close()
