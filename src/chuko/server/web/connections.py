"""uvicorn's protocols for the server's connections, made to bound what a connection may hold
of the server and to leave no garbage cycle behind.

Bounds (`Edge` in limits.py, set for the process by `configure`, which `chuko serve` calls in
each process that serves; counted by each process on its own):
- each connection takes a file descriptor, and a process has a fixed number of them: a
  connection over the cap per client address or over the cap in all is closed as soon as it
  is made, with a 503 and a sentence written first (one write, never a wait);
- a request's line and headers must arrive within `header_timeout` seconds, and its body
  within `body_timeout` seconds after them, or the connection is closed: otherwise clients
  sending a byte now and then would hold descriptors without end. A WebSocket's handshake is
  a request like any other. Between requests, uvicorn's own `timeout_keep_alive` applies;
  once open, a WebSocket is bounded by uvicorn's pings.
- uvicorn's answer to a request that is not valid HTTP carries the security headers and a
  sentence, as every answer of the app does.

Cycles: two of uvicorn's objects outlive their connection in a reference cycle:
- websockets' sans-I/O protocol, under each WebSocket, parses with a generator that it keeps
  (`conn.parser`) and that never finishes: the generator's frame holds the object, which
  holds the generator;
- the HTTP protocol that answered a WebSocket's upgrade request keeps its parser, whose
  callbacks are its own methods.
A game's socket lives long enough for its cycle (with the connection's buffers) to reach the
collector's oldest generation, where only a full collection frees it, and the server makes
those rare (`collector.py`). Measured before these classes, at the end of 60 s of saturated
play: every closed WebSocket was still in memory, waiting for one (docs/performance.md has
the count). Dropping the parser once it has no more to read breaks each cycle, so reference
counting frees the rest at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import sys
import time
from collections.abc import Iterable
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.shared.limits import Edge
from chuko.server.web.headers import SECURITY_HEADERS

log = logging.getLogger("uvicorn.error")  # uvicorn's, which `chuko serve` shows

NOT_HTTP = Text("That is not a valid HTTP request.")
FULL = Text("The server has as many connections as it can hold: try again later.")


def proxy_networks(text: str) -> tuple[IPv4Network | IPv6Network, ...] | None:
    """The networks of `Edge.proxies` ("*": None, any address); ConfigError if one is not
    an address or a network."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "*" in names:
        return None
    try:
        return tuple(ip_network(name, strict=False) for name in names)
    except ValueError:
        raise ConfigError(Text("{text!r} is not a list of addresses or networks separated by "
                               "commas (or *).", text=text)) from None


class Gate:
    """The caps on one process's open connections: per client address, and in all (`cap`,
    from the open-file limit)."""

    def __init__(self, edge: Edge, files: int) -> None:
        self.open: dict[str, int] = {}  # address → connections open; none kept at 0
        self.warned = float("-inf")  # when the cap in all was last logged
        self.set(edge, files)

    def set(self, edge: Edge, files: int) -> None:
        """Bound connections by `edge` in a process that may open `files` files."""
        self.edge = edge
        self.cap = max(1, min(files - edge.reserved_files, edge.connections or sys.maxsize))
        self.proxies = proxy_networks(edge.proxies)

    def admit(self, host: str, open_now: int) -> str | None:
        """Count a new connection from `host`, with `open_now` open in all (itself among
        them); or the sentence refusing it, uncounted, if it is over a cap."""
        if open_now > self.cap:
            if time.monotonic() - self.warned > 60:  # an operator's cue, not a flood of them
                self.warned = time.monotonic()
                log.warning("%d connections are open: new ones are refused.", self.cap)
            return FULL
        count = self.open.get(host, 0)
        if count >= self.edge.connections_per_address and not self.proxy(host):
            return Text("Your address has {count} connections open already: close some of "
                        "them first.", count=count)
        self.open[host] = count + 1
        return None

    def release(self, host: str) -> None:
        count = self.open.pop(host, 0) - 1
        if count > 0:
            self.open[host] = count

    def proxy(self, host: str) -> bool:
        """Whether `host` is a trusted reverse proxy, whose connections carry many clients."""
        if self.proxies is None:
            return True
        try:
            address = ip_address(host)
        except ValueError:  # not an IP address: a Unix socket's peer
            return False
        return any(address in network for network in self.proxies)


def file_limit() -> int:
    """The process's soft limit on open files (unlimited: as many as can be counted)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return sys.maxsize if soft == resource.RLIM_INFINITY else soft


def raise_file_limit() -> int:
    """Raise the process's soft limit on open files to its hard limit, where the system
    allows it (each connection takes one, and the soft limit is often a mere 1,024); the
    limit then in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # e.g. an unlimited hard limit the kernel caps
            log.info("The limit on open files stays at %d.", soft)
    return file_limit()


GATE = Gate(Edge(), file_limit())  # replaced in place by `configure`


def configure(edge: Edge) -> None:
    """Bound this process's connections by `edge`, with as many open files as it may have."""
    files = raise_file_limit()
    GATE.set(edge, files)
    log.info("Open files: up to %d. Connections: up to %d at once, %d per client address; "
             "a request's headers within %g s, its body within %g s more.", files, GATE.cap,
             edge.connections_per_address, edge.header_timeout, edge.body_timeout)


def answer(status: int, sentence: str, headers: Iterable[tuple[bytes, bytes]]) -> bytes:
    """A whole HTTP response closing the connection: `{"error": sentence}` with `headers`
    (uvicorn's date and server) and the security headers."""
    body = json.dumps({"error": sentence}).encode()
    lines = [STATUS_LINE[status]]
    for name, value in (*headers, *SECURITY_HEADERS, (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close")):
        lines += [name, b": ", value, b"\r\n"]
    return b"".join([*lines, b"\r\n", body])


class HttpProtocol(HttpToolsProtocol):
    # The client's address while the connection counts against its cap, and the timer that
    # closes it if the request under way does not arrive in time.
    host: str | None = None
    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else ""
        refusal = GATE.admit(host, len(self.connections))
        if refusal is not None:
            # Closed before it reads anything, so its descriptor is free at once.
            transport.write(answer(503, refusal, self.server_state.default_headers))
            transport.close()
            return
        self.host = host
        self.arm(GATE.edge.header_timeout)  # the first request's headers, from now

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        if self.host is not None:
            GATE.release(self.host)
            self.host = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.deadline is None:  # a kept-alive connection's next request, from its first byte
            self.arm(GATE.edge.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self.arm(GATE.edge.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.disarm()

    def handle_websocket_upgrade(self) -> None:
        self.disarm()
        super().handle_websocket_upgrade()
        # The connection belongs to the WebSocket protocol now (uvicorn drops the parser
        # itself when an HTTP connection is lost, but not when it is handed over), and so
        # does its place under the caps, which it gives back when it closes.
        self.parser = None  # type: ignore[assignment]
        socket = self.transport.get_protocol()
        if isinstance(socket, WebSocketProtocol):
            socket.host, self.host = self.host, None

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to bytes that are not HTTP (`msg` is for its log, which has it).
        self.transport.write(answer(400, NOT_HTTP, self.server_state.default_headers))
        self.transport.close()

    def arm(self, seconds: float) -> None:
        self.disarm()
        self.deadline = self.loop.call_later(seconds, self.too_slow)

    def disarm(self) -> None:
        # A cancelled timer lets go of its callback, so it keeps no closed connection alive.
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def too_slow(self) -> None:
        # Aborted, not closed: a close would wait for a client that does not read.
        self.deadline = None
        self.transport.abort()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    host: str | None = None  # the client's address, from the HTTP protocol that upgraded

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing reads from a lost connection; the app may still send, which needs no parser.
        self.conn.parser = None  # type: ignore[assignment]
        if self.host is not None:
            GATE.release(self.host)
