"""The app's outermost router (`App`): the game's sockets and the API's POST requests are
answered as bare ASGI, ahead of FastAPI's middleware and routing; everything else goes
through FastAPI. Also what those bare routes read of a request (its body, its query, its
client's address)."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.shared.limits import MAX_BODY, MAX_DEPTH, TooLarge, too_deep
from chuko.server.shared.messages import NOT_FINITE, NotFinite, client_json, dumps, sentence
from chuko.server.store.database import Unavailable
from chuko.server.web.answers import said_to
from chuko.server.web.cookies import queued, sending
from chuko.server.web.headers import SECURITY_HEADERS
from chuko.server.web.http_errors import FAILED, RETRY, status_of
from chuko.server.web.origin import forgery

log = logging.getLogger("chuko.server")

_TOO_LONG = Text("The request body is too long.")


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
    return parse_object(bytes(raw))


def parse_object(raw: bytes) -> dict[str, Any]:
    """A request's body, read whole, as a JSON object with finite numbers only
    (`client_json`); ChukoError in one sentence otherwise."""
    try:
        text = raw.decode()
        if too_deep(text):
            raise ChukoError(Text("The request body nests deeper than {depth} levels.",
                                  depth=MAX_DEPTH))
        data = client_json(text)
    except NotFinite:
        raise ChukoError(NOT_FINITE) from None
    except (ValueError, UnicodeDecodeError):
        raise ChukoError(Text("The request body is not JSON.")) from None
    if not isinstance(data, dict):
        raise ChukoError(Text("The request body must be a JSON object."))
    return data


async def answer_post(scope: Scope, receive: Receive, send: Send, post: Post,
                      room_id: str) -> None:
    """Answer one of the API's POST requests: `post`'s status and JSON, or a refusal's
    sentence as {"error": …} with its status, with SECURITY_HEADERS."""
    headers = [(b"content-type", b"application/json"), *SECURITY_HEADERS]
    answer: Any
    try:
        if scope["method"] != "POST":
            headers.append((b"allow", b"POST"))
            status, answer = 405, {"error": Text("This address takes POST requests only.")}
        else:
            status, answer = await post(scope, lambda: read_object(scope, receive), room_id)
    except _Gone:
        return
    except ChukoError as error:
        status, answer = status_of(error), {"error": sentence(error)}
        if isinstance(error, Unavailable):
            headers.append(RETRY)
    except Exception:
        log.exception("%s %s failed", scope["method"], scope["path"])
        status, answer = 500, {"error": FAILED}
    await _answer(scope, send, status, answer, [*headers, *queued(scope)])


async def _answer(scope: Scope, send: Send, status: int, answer: Any,
                  headers: list[tuple[bytes, bytes]]) -> None:
    """Send `answer` as JSON, in the request's language (`said_to`)."""
    body = dumps(said_to(scope, answer)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


_LIVE = re.compile(r"/ws/([^/]+)")
_POSTS = re.compile(r"/api/rooms(?:/([^/]+)/(join|rematch|follow))?")
Live = Callable[[Scope, Receive, Send, str], Awaitable[None]]
LobbyLive = Callable[[Scope, Receive, Send], Awaitable[None]]


class App(FastAPI):
    """FastAPI, except that the game's sockets, `/ws/{room}`, and the API's POST requests,
    `/api/rooms[/{room}/{action}]` and those of `paths`, are answered as bare ASGI before
    its middleware and routing (`live`, given the room's id; `posts`, by action, "create"
    for a new room; `paths`, by their exact path). A request that would change something
    from another site's page is refused first, whatever its route (`origin.forgery`). Those
    layers do nothing these need (a socket's refusals are its own messages; a POST reads its
    one JSON body itself, `read_object`), and they cost: objects per socket that the garbage
    collector walks (the coroutine of each layer, a copy of the scope for each, exit stacks,
    closures), a few calls through them for every message sent, and CPU on every request,
    two of which make and join a room (docs/performance.md, "Memory and pauses", measures
    both)."""

    def __init__(self, *, live: Live | None = None, posts: Mapping[str, Post] | None = None,
                 paths: Mapping[str, Post] | None = None, lobby: LobbyLive | None = None,
                 me: LobbyLive | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.live = live
        self.lobby = lobby  # the lobby's socket, `/lobby/ws`, answered the same way
        self.me = me  # the player's own socket, `/me/ws`, as well
        self.posts = dict(posts or {})
        self.paths = dict(paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.live is not None:
            found = _LIVE.fullmatch(scope["path"])
            if found:
                await self.live(scope, receive, send, found.group(1))
                return
            if self.lobby is not None and scope["path"] == "/lobby/ws":
                await self.lobby(scope, receive, send)
                return
            if self.me is not None and scope["path"] == "/me/ws":
                await self.me(scope, receive, send)
                return
        elif scope["type"] == "http":
            refused = forgery(scope)
            if refused is not None:
                await _answer(scope, send, 403, {"error": refused},
                              [(b"content-type", b"application/json"), *SECURITY_HEADERS])
                return
            path = scope["path"]
            found = _POSTS.fullmatch(path) if self.posts else None
            post = self.posts.get(found.group(2) or "create") if found else None
            if found and post:
                await answer_post(scope, receive, send, post, found.group(1) or "")
                return
            post = self.paths.get(path) if scope["method"] == "POST" else None
            if post is not None:
                await answer_post(scope, receive, send, post, "")
                return
            send = sending(scope, send)  # a route may set the session cookie
        await super().__call__(scope, receive, send)


def client_host(scope: Scope) -> str:
    """The client's address (its host)."""
    client = scope.get("client")
    return client[0] if client else ""


def query_params(scope: Scope) -> dict[str, str]:
    """The query's parameters, the last value of each (as Starlette reads them)."""
    return dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True))
