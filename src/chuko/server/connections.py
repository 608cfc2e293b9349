"""uvicorn's protocols for the server's connections, made to leave no garbage cycle behind.

Two of uvicorn's objects outlive their connection in a reference cycle:
- websockets' sans-I/O protocol, under each WebSocket, parses with a generator that it keeps
  (`conn.parser`) and that never finishes: the generator's frame holds the object, which
  holds the generator;
- the HTTP protocol that answered a WebSocket's upgrade request keeps its parser, whose
  callbacks are its own methods.
A game's socket lives long enough for its cycle (with the connection's buffers) to reach the
collector's oldest generation, where only a full collection frees it, and the server makes
those rare (`collector.py`). Measured before these classes, at the end of 60 s of saturated
play: each of about 15,000 closed WebSockets was still in memory, waiting for one. Dropping
the parser once it has no more to read breaks each cycle, so reference counting frees the
rest at once.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class HttpProtocol(HttpToolsProtocol):
    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The connection belongs to the WebSocket protocol now (uvicorn drops the parser
        # itself when an HTTP connection is lost, but not when it is handed over).
        self.parser = None  # type: ignore[assignment]


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing reads from a lost connection; the app may still send, which needs no parser.
        self.conn.parser = None  # type: ignore[assignment]
