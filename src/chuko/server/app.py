"""The web app: pages and static files of `chuko/web/`, the JSON API and live play over
WebSockets, as docs/web-protocol.md describes them.

`create_app(db_url)` builds an app bound to one database; starting it rebuilds the rooms in
play with bots to move and lets them go on (others load when first asked for). What a client
may ask is bounded by `limits.py`; every response carries the security headers of
`SECURITY_HEADERS`, and the server's access log shows no seat token or invite code
(`redact`). The game's sockets are served as bare ASGI, ahead of FastAPI's layers (`App`),
and while the app runs the garbage collector keeps the schedule of `collector.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from functools import partial
from pathlib import Path
from random import Random
from typing import Any
from urllib.parse import parse_qsl, unquote, unquote_plus

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Json
from chuko.games import descriptor, descriptors, registry, rules_text

from . import collector
from .client import Client
from .connections import HttpProtocol, WebSocketProtocol
from .facts import shipped_facts
from .headers import SECURITY_HEADERS
from .hub import Hub
from .hub_base import WAITING_TTL
from .limits import (
    MAX_BODY,
    MAX_DEPTH,
    Buckets,
    Budget,
    Clock,
    Costly,
    Full,
    Limits,
    OpenCount,
    OpenRooms,
    SocketFlow,
    TooLarge,
    TooMany,
    too_deep,
)
from .messages import dumps
from .room import Forbidden, NotFound, Room
from .store import RETRY_AFTER, Conflict, Store, Unavailable
from .work import Pool

log = logging.getLogger("chuko.server")

_GUARDED = {name for name, _ in SECURITY_HEADERS}
SLOW_DOWN = "Slow down: too many messages at once. Wait a moment and send it again."
_TOO_LONG = "The request body is too long."
FAILED = "The server could not do that just now. Try again."
OPEN = ("waiting", "playing")  # a room's statuses until it is over or expired
# uvicorn's settings for this app, which `chuko serve` passes on (and the bench's echo
# peer too, the limit the server is measured against). No permessage-deflate: a state
# message is about 1 KB, which each socket would compress again in a zlib stream of its own
# (about 25 µs a message, 5% of the CPU a move costs, and some 50 KB of memory per socket,
# measured with websockets' extension), to save less than 1 KB a move at a player's pace.
# Its protocols are uvicorn's, made to bound slow and numerous connections and to leave no
# garbage cycle behind (`connections.py`). uvicorn closes a message longer than
# `ws_max_size` bytes with 1009 and no sentence; a message of MAX_BODY characters may take
# up to 4 bytes each in UTF-8, so below that bound the app's own check answers (`_handle`),
# and the bound still caps what a socket's message may hold in memory. The client's address
# is the connection's: `chuko serve --forwarded-allow-ips` trusts a proxy's X-Forwarded-For.
# A stop (SIGTERM, Ctrl-C) waits at most `timeout_graceful_shutdown` seconds for requests in
# flight, whatever they wait on, then closes what is left.
SERVING: dict[str, Any] = {"ws_max_size": 4 * MAX_BODY, "ws_per_message_deflate": False,
                           "http": HttpProtocol, "ws": WebSocketProtocol,
                           "proxy_headers": False, "timeout_graceful_shutdown": 5}
PAGES = {"index": "index.html", "rules": "rules.html", "room": "room.html",
         "replay": "replay.html", "lab": "lab.html"}


def web_dir() -> Path:
    """The front end's files, shipped inside the package next to this one."""
    return Path(__file__).resolve().parent.parent / "web"


# The HTTP status of each refusal; any other error of the project's is a bad request.
_STATUSES: tuple[tuple[type[ChukoError], int], ...] = (
    (NotFound, 404), (Forbidden, 403), (Conflict, 409), (TooLarge, 413), (TooMany, 429),
    (Full, 503), (Unavailable, 503),
)
# Told with a 503 while the database is away: when to ask again.
_RETRY = (b"retry-after", str(RETRY_AFTER).encode())


def _status(error: ChukoError) -> int:
    return next((status for kind, status in _STATUSES if isinstance(error, kind)), 400)


def _error(status: int, message: str,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


# -- secrets in logs -----------------------------------------------------------------------------

_QUERY = re.compile(r"\?([^\s\"#]*)")
_SEGMENTS = re.compile(r"/(?=([^/?\s\"]+)/[^/?\s\"]+/([^/?\s\"#]+))")


def _secret_key(key: str) -> bool:
    """Whether a query parameter's name names a token or an invite, however it is spelled:
    any casing, percent-encoded (even twice), with spaces."""
    for _ in range(3):
        key = unquote_plus(key)
    folded = "".join(key.split()).casefold()
    return "token" in folded or "invite" in folded


def _redact_query(match: re.Match[str]) -> str:
    parts = re.split(r"([&;])", match.group(1))
    for i, part in enumerate(parts):
        key, equals, _ = part.partition("=")
        if equals and _secret_key(key):
            parts[i] = key + "=…"
    return "?" + "".join(parts)


def redact(text: str) -> str:
    """A log line with seat tokens and invite codes replaced by '…': the values of query
    parameters named like `token` or `invite` (parsed, not matched as text, so `?TOKEN=` and
    `?tok%65n=` are hidden too) and the code of an invite path `/join/{room}/{code}`."""
    if "?" not in text and text.count("/") < 3:  # neither a query nor an invite path
        return text
    codes = [m.span(2) for m in _SEGMENTS.finditer(text)
             if unquote(m.group(1)).casefold() == "join"]
    for start, end in reversed(codes):
        text = text[:start] + "…" + text[end:]
    return _QUERY.sub(_redact_query, text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        record.msg = redact(str(record.msg))
        return True


def hide_secrets_in_logs() -> None:
    """Redact the loggers that write request paths: uvicorn's access log and the one that
    reports WebSocket connections. The app does it itself, so any way of serving it is
    covered."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


class Guard:
    """ASGI middleware: every response of FastAPI's routes carries SECURITY_HEADERS (the bare
    routes of `App` add them themselves), and a route that fails unexpectedly answers 500
    with a sentence, JSON under /api/ (Starlette's own answer, outside this middleware, is
    plain text without the headers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = message.get("headers", ())
                message["headers"] = [*(h for h in headers if h[0] not in _GUARDED),
                                      *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, receive, secured)
        except Exception:
            if started:  # too late for an answer: uvicorn closes the connection
                raise
            log.exception("%s %s failed", scope["method"], redact(scope["path"]))
            failed = (_error(500, FAILED) if scope["path"].startswith("/api/") else
                      HTMLResponse(f"<!doctype html><title>Error</title><p>{FAILED}</p>",
                                   status_code=500))
            await failed(scope, receive, secured)


class _Gone(Exception):
    """The client went away before its request's body came."""


ReadBody = Callable[[], Awaitable[dict[str, Any]]]
# One of the API's POST requests, answered as bare ASGI (`App.posts`): given the request's
# scope, a way to read its body as a JSON object and the room's id in its path (or ""), the
# response's status and JSON; ChukoError for a refusal.
Post = Callable[[Scope, ReadBody, str], Awaitable[tuple[int, Any]]]


async def read_object(scope: Scope, receive: Receive) -> dict[str, Any]:
    """A request's body as a JSON object, read no further than MAX_BODY bytes, whether its
    length is declared or it comes in chunks; ChukoError (TooLarge past the limit) when it is
    not a JSON object."""
    declared = dict(scope["headers"]).get(b"content-length", b"")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(_TOO_LONG)
    raw = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Gone
        raw += message.get("body", b"")
        if len(raw) > MAX_BODY:
            raise TooLarge(_TOO_LONG)
        if not message.get("more_body", False):
            break
    try:
        text = raw.decode()
        if too_deep(text):
            raise ChukoError(f"The request body nests deeper than {MAX_DEPTH} levels.")
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ChukoError("The request body is not JSON.") from None
    if not isinstance(data, dict):
        raise ChukoError("The request body must be a JSON object.")
    return data


async def answer_post(scope: Scope, receive: Receive, send: Send, post: Post,
                      room_id: str) -> None:
    """Answer one of the API's POST requests: `post`'s status and JSON, or a refusal's
    sentence as {"error": …} with its status, with SECURITY_HEADERS."""
    headers = [(b"content-type", b"application/json"), *SECURITY_HEADERS]
    try:
        if scope["method"] != "POST":
            headers.append((b"allow", b"POST"))
            status, answer = 405, {"error": "This address takes POST requests only."}
        else:
            status, answer = await post(scope, lambda: read_object(scope, receive), room_id)
    except _Gone:
        return
    except ChukoError as error:
        status, answer = _status(error), {"error": str(error)}
        if isinstance(error, Unavailable):
            headers.append(_RETRY)
    except Exception:
        log.exception("%s %s failed", scope["method"], scope["path"])
        status, answer = 500, {"error": FAILED}
    body = dumps(answer).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


_LIVE = re.compile(r"/ws/([^/]+)")
_POSTS = re.compile(r"/api/rooms(?:/([^/]+)/(join|rematch|follow))?")
Live = Callable[[Scope, Receive, Send, str], Awaitable[None]]


class App(FastAPI):
    """FastAPI, except that the game's sockets, `/ws/{room}`, and the API's POST requests,
    `/api/rooms[/{room}/{action}]`, are answered as bare ASGI before its middleware and
    routing (`live`, given the room's id; `posts`, by action, "create" for a new room). Those
    layers do nothing these need (a socket's refusals are its own messages; a POST reads its
    one JSON body itself, `read_object`), and they cost: about a hundred objects per socket
    that the garbage collector walks (the coroutine of each layer, a copy of the scope for
    each, exit stacks, closures), a few calls through them for every message sent, and about
    0.15 ms of CPU per request (measured in-process): two requests make and join a room, and
    that was some 5% of all a game of 15 moves cost the server."""

    live: Live | None = None
    posts: dict[str, Post] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.live is not None:
            found = _LIVE.fullmatch(scope["path"])
            if found:
                await self.live(scope, receive, send, found.group(1))
                return
        elif scope["type"] == "http" and self.posts is not None:
            found = _POSTS.fullmatch(scope["path"])
            post = self.posts.get(found.group(2) or "create") if found else None
            if found and post:
                await answer_post(scope, receive, send, post, found.group(1) or "")
                return
        await super().__call__(scope, receive, send)


def create_app(
    db_url: str,
    *,
    bot_delay: float = 0.6,
    round_pause: float = 4.0,
    rng: Random | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
    static_dir: Path | None = None,
    limits: Limits | None = None,
    clock: Clock = time.monotonic,
    waiting_ttl: float = WAITING_TTL,
    redis_url: str | None = None,
    cluster_name: str | None = None,
    lease_seconds: float | None = None,
) -> App:
    """The app on database `db_url` (`sqlite:///…` or `postgresql://…`). `bot_delay` is the
    pause before each bot move (so people can follow them); `round_pause` the seconds bots
    wait after a round ends before they start the next (a seat may cut it short); `rng`
    seeds deals and bots for tests only (a real server deals from `secrets`); `bot_options`
    maps a game's id to {level: keyword options for its `make_bot`}, e.g.
    {"hard": {"simulations": 200}}; `limits` what one client may ask (`Limits()` by default),
    measured on `clock` (tests pass their own); `waiting_ttl` the seconds a room may wait
    for its players before it expires. With `redis_url` the app is one worker of a cluster
    named `cluster_name` that shares the database's rooms through Redis (`cluster.py`;
    `lease_seconds`: how long a dead worker's lease on the bots lasts)."""
    limits = limits or Limits()
    store = Store(db_url)
    hub = Hub(store, bot_delay=bot_delay, round_pause=round_pause, rng=rng,
              bot_options=bot_options, waiting_ttl=waiting_ttl,
              work=Pool(limits.workers, limits.waiting_jobs))
    cluster = None
    if redis_url is not None:
        from .cluster import LEASE_SECONDS, NAME, Cluster

        cluster = hub.cluster = Cluster(hub, redis_url, name=cluster_name or NAME,
                                        lease_seconds=lease_seconds or LEASE_SECONDS)
    static = static_dir or web_dir()
    rooms_made = Buckets(limits.rooms, clock)  # per address
    seats_taken = Buckets(limits.seats, clock)  # per address
    sockets_opened = Buckets(limits.connects, clock)  # per address
    budget = Budget(limits, clock)  # replay pages, log pages and hints
    made = OpenRooms(limits.open_rooms_per_address)
    open_in_all = OpenCount(
        lambda: sum(room.status in OPEN for room in hub.rooms.values()), clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hide_secrets_in_logs()
        store.start()
        if cluster is not None:
            await cluster.start()  # the worker holding the lease restores the rooms
        elif restored := hub.restore():
            log.info("Resumed %d room(s) in play with bots.", restored)
        collector.start()
        try:
            yield
        finally:
            collector.stop()
            if cluster is not None:
                await cluster.stop()
            await hub.close()
            hub.work.close()
            await asyncio.to_thread(store.close)

    # No OpenTelemetry: FastAPI would otherwise look for its providers at every request and
    # socket (about a fifth of the framework's cost of a request). Versions without the
    # option keep it as an unused extra.
    app = App(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None,
              telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.hub = hub
    app.add_middleware(Guard)

    @app.exception_handler(ChukoError)
    async def chuko_error(request: Request, error: ChukoError) -> JSONResponse:
        return _error(_status(error), str(error),
                      {"Retry-After": str(RETRY_AFTER)} if isinstance(error, Unavailable)
                      else None)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if request.url.path.startswith("/api/") or error.status_code != 404:
            message = error.detail if isinstance(error.detail, str) else "Bad request."
            if error.status_code == 404:
                message = "There is no such address."
            elif error.status_code == 405:  # Starlette's detail is the bare phrase
                message = f"This address does not take {request.method} requests."
            return _error(error.status_code, message, error.headers)
        return HTMLResponse("<!doctype html><title>Not found</title><p>There is no such page. "
                            '<a href="/">Go to the games</a>.</p>', status_code=404)

    # -- pages -----------------------------------------------------------------------------

    def page(name: str) -> Response:
        path = static / PAGES[name]
        if not path.is_file():
            return HTMLResponse(f"<!doctype html><title>chuko</title><p>The {name} page is not "
                                "built yet.</p>", status_code=404)
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return page("index")

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules(game_id: str) -> Response:
        if game_id not in registry():
            raise HTTPException(404)
        return page("rules")

    @app.get("/room/{room_id}", include_in_schema=False)
    @app.get("/watch/{room_id}", include_in_schema=False)
    @app.get("/join/{room_id}/{invite}", include_in_schema=False)
    async def room_page(room_id: str, invite: str | None = None) -> Response:
        return page("room")

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(room_id: str) -> Response:
        return page("replay")

    # The Lab: the facts `chuko study` shipped, with their plots (server/facts.py).
    @app.get("/lab", include_in_schema=False)
    async def lab_page() -> Response:
        return page("lab")

    @app.get("/api/facts")
    async def api_facts() -> dict[str, Any]:
        return shipped_facts()

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # -- the JSON API ------------------------------------------------------------------------

    def admit(scope: Scope, buckets: Buckets) -> None:
        """Count a request that makes a room or takes a seat against its address's bucket."""
        if not buckets.take(client_host(scope)):
            raise TooMany("Too many requests from your address: wait a moment and try again.")

    def open_room(room_id: str) -> bool:
        room = hub.rooms.get(room_id)
        return room is not None and room.status in OPEN

    def may_open(scope: Scope) -> None:
        """Refuse a new room beyond the caps on open rooms, per address and in all."""
        if made.count(client_host(scope), open_room) >= limits.open_rooms_per_address:
            raise TooMany(f"Your address already has {limits.open_rooms_per_address} "
                          "unfinished rooms: finish one before opening another.")
        if open_in_all.reached(limits.open_rooms):
            raise Full("The server has as many open rooms as it can hold: try again later.")

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        return [described.to_json() for described in descriptors()]

    @app.get("/api/games/{game_id}/rules")
    async def api_rules(game_id: str) -> dict[str, Any]:
        try:
            described = descriptor(game_id)
        except ConfigError as error:
            raise NotFound(str(error)) from None
        try:
            markdown = rules_text(game_id)
        except (OSError, ModuleNotFoundError):
            log.exception("The rules of %s cannot be read.", game_id)
            raise NotFound(f"The rules of {described.title} are missing from this "
                           "installation.") from None
        return {"id": described.id, "title": described.title, "markdown": markdown}

    # The POST requests, answered as bare ASGI (`App.posts`).

    def opened(scope: Scope, answer: Json) -> tuple[int, Json]:
        """A room made (or a rematch asked for) from the request's address, counted against
        the caps on open rooms; 201 with the answer."""
        made.add(client_host(scope), answer["room"])
        open_in_all.made()
        return 201, answer

    async def api_create(scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        admit(scope, rooms_made)
        data = await body()
        may_open(scope)
        return opened(scope, await hub.create(data.get("game"), data.get("options"),
                                              data.get("seats")))

    async def api_join(scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        admit(scope, seats_taken)
        data = await body()
        return 200, await hub.join(room_id, data.get("invite"), data.get("name"))

    async def api_rematch(scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        admit(scope, seats_taken)
        data = await body()
        may_open(scope)
        return opened(scope, await hub.rematch(room_id, data.get("token")))

    async def api_follow(scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        admit(scope, seats_taken)
        data = await body()
        return 200, await hub.follow(room_id, data.get("token"))

    app.posts = {"create": api_create, "join": api_join, "rematch": api_rematch,
                 "follow": api_follow}

    @app.get("/api/rooms/{room_id}")
    async def api_room(room_id: str, token: str | None = None) -> Response:
        room = await hub.room(room_id)
        return Response(room.state_text(room.seat_for(token)), media_type="application/json")

    @app.get("/api/rooms/{room_id}/log")
    async def api_log(request: Request, room_id: str, token: str | None = None,
                      before: str | None = None, count: str | None = None) -> dict[str, Any]:
        room = await hub.room(room_id)
        budget.admit("log", client_host(request.scope), room.id)
        return await hub.log_page(room, room.seat_for(token), before, count)

    @app.get("/api/rooms/{room_id}/replay")
    async def api_replay(request: Request, room_id: str, token: str | None = None,
                         start: str | None = Query(None, alias="from"),
                         count: str | None = None, captions: str | None = None) -> Response:
        room = await hub.room(room_id)
        budget.admit("replay", client_host(request.scope), room.id)
        page = await hub.replay(room, room.seat_for(token), start, count,
                                captions not in (None, "", "0", "false"))
        return Response(page, media_type="application/json")

    # -- live play ---------------------------------------------------------------------------

    async def live(scope: Scope, receive: Receive, send: Send, room_id: str) -> None:
        """A player's or a spectator's socket on a room, served as bare ASGI (`App`)."""
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        try:
            # Before anything is loaded or sent: a socket that reconnects without end would
            # cost a room lookup, a log page and a state each time.
            if not sockets_opened.take(client_host(scope)):
                raise TooMany("Too many connections from your address: wait a moment and "
                              "reconnect.")
            room = await hub.room(room_id)
            seat = room.seat_for(query_params(scope).get("token"))
            if len(room.clients) >= limits.sockets_per_room:
                raise TooMany(f"This room has {limits.sockets_per_room} connections already: "
                              "try again later.")
            if seat is not None and sum(c.seat == seat for c in room.clients) >= \
                    limits.sockets_per_seat:
                raise TooMany(f"This seat is open in {limits.sockets_per_seat} places already: "
                              "close one of them first.")
        except ChukoError as error:  # also a stored room that does not hold together
            await _refuse_socket(send, error)
            return
        except Exception:
            log.exception("Room %s: a socket could not be opened", room_id)
            await _refuse_socket(send, ChukoError(
                "The server could not open this room just now: reconnect in a moment."))
            return
        client = Client(room, seat)
        flow = SocketFlow(limits, clock)
        admit = partial(budget.admit, address=client_host(scope), room_id=room.id)
        moment = room.moment()
        room.join(client)  # the client's first state is this moment's version
        sender = None
        try:
            # The log is a replay of the game, in a thread; before the first move it is empty.
            client.send_first(hub.log(room, seat, moment) if moment.version == 0 else
                              await asyncio.to_thread(hub.log, room, seat, moment))
            sender = asyncio.create_task(_pump(send, client))
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break
                if not flow.messages.take():
                    if not flow.refusals.take():  # it does not read its refusals: flooding
                        with contextlib.suppress(OSError):
                            await send({"type": "websocket.close", "code": 1008,
                                        "reason": "Too many messages."})
                        break
                    client.send(_refusal(SLOW_DOWN))
                    continue
                reply = await _handle(hub, room, seat, message, admit)
                if reply is not None:
                    client.send(reply)
        finally:
            if room.forget(client):
                hub.rooms.pop(room.id, None)  # finished and unwatched: reloaded on demand
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender

    app.live = live
    return app


async def _pump(send: Send, client: Client) -> None:
    """Send the client's outbox in order until the socket closes; close it when the client
    has fallen too far behind (it reconnects and is sent the log afresh)."""
    while True:
        message = await client.next_message()
        try:
            if message is None:
                await send({"type": "websocket.close", "code": 1013,
                            "reason": "Too far behind: reconnect."})
                return
            await send({"type": "websocket.send", "text": message})
        except Exception:  # the client went away; the receive loop sees it too
            return


async def _refuse_socket(send: Send, error: ChukoError) -> None:
    """Refuse a socket that cannot go on: its `error` message, then a close frame whose code
    says why (4404 no such room, 4403 forbidden, 1008 over a limit, 1011 the server's
    trouble, such as the database being away) and whose reason is the sentence."""
    code = (4404 if isinstance(error, NotFound) else 4403 if isinstance(error, Forbidden)
            else 1008 if isinstance(error, TooMany) else 1011)
    with contextlib.suppress(OSError):
        await send({"type": "websocket.send", "text": dumps(_refusal(str(error)))})
        await send({"type": "websocket.close", "code": code,
                    "reason": close_reason(str(error))})


def close_reason(sentence: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8 (the protocol's limit), cut at a
    character."""
    return sentence.encode()[:123].decode(errors="ignore")


def client_host(scope: Scope) -> str:
    """The client's address (its host)."""
    client = scope.get("client")
    return client[0] if client else ""


def query_params(scope: Scope) -> dict[str, str]:
    """The query's parameters, the last value of each (as Starlette reads them)."""
    return dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True))


async def _handle(hub: Hub, room: Room, seat: int | None, message: Mapping[str, Any],
                  admit: Callable[[Costly], None]) -> dict | None:
    """One client message → the reply for that client only (None when the broadcast of an
    accepted move is the answer); `admit` counts a costly one against its buckets."""
    text = message.get("text")
    if text is None:
        return _refusal("Send JSON text messages, not binary ones.")
    if len(text) > MAX_BODY:
        return _refusal("That message is too long.")
    if too_deep(text):
        return _refusal(f"That message nests deeper than {MAX_DEPTH} levels.")
    try:
        data = json.loads(text)
    except ValueError:
        return _refusal("That message is not JSON.")
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        if kind == "move":
            await hub.play(room, seat, data.get("move"))
            return None
        if kind == "hint":
            admit("hint")
            return await hub.hint(room, seat)
        if kind == "next":
            hub.next_round(room, seat)
            return None
        if kind == "ping":
            return {"type": "pong"}
        if kind == "log":
            admit("log")
            page = await hub.log_page(room, seat, data.get("before"), data.get("count"))
            return {**page, "before": page["first"] + len(page["lines"])}
    except ChukoError as error:
        return _refusal(str(error))
    except Exception:
        log.exception("Room %s: a message failed", room.id)
        return _refusal("The server could not do that just now; nothing changed. Try again.")
    return _refusal('Unknown message: send {"type": "move" | "hint" | "next" | "ping" | "log", …}.')


def _refusal(message: str) -> dict[str, str]:
    return {"type": "error", "message": message}
