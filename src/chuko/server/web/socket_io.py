"""What every socket of the server does the same way, the rooms' (`room_socket.py`), the
lobby's (`lobby_socket.py`) and the player's own (`me_socket.py`): a player admitted or
refused as the socket opens, a message read and checked before it is acted on, the rate of
a socket's messages, its outbox pumped in order, and a refusal that closes it. Each socket
speaks the language its handshake asked for (`handshake_language`): its outbox words every
message in it (`rooms.outbox.Outbox`), and so does a refusal that closes it."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.shared.limits import MAX_BODY, MAX_DEPTH, Bucket, TooMany, too_deep
from chuko.server.shared.messages import (
    NOT_FINITE,
    NotFinite,
    client_json,
    dumps,
    sentence,
    worded,
)
from chuko.server.web.language import request_language

log = logging.getLogger("chuko.server")

SLOW_DOWN = Text("Slow down: too many messages at once. Wait a moment and send it again.")
Admitted = TypeVar("Admitted")


def handshake_language(scope: Scope) -> str:
    """The language a socket speaks: its handshake's, as a request's (`request_language`)."""
    return request_language(HTTPConnection(scope))


async def accept_admitted(receive: Receive, send: Send,
                          admit: Callable[[], Awaitable[Admitted]], failure: str,
                          what: str, lang: str) -> Admitted | None:
    """Accept a socket's connection and admit its player (`admit`): whom `admit` answers,
    or None once the socket is refused in one sentence in `lang` (1008 past a limit, 4403
    for a player the server does not know, 1011 saying `failure` when admitting failed;
    `what` names the socket in the log)."""
    if (await receive())["type"] != "websocket.connect":
        return None
    await send({"type": "websocket.accept"})
    try:
        return await admit()
    except ChukoError as error:
        await refuse(send, sentence(error), 1008 if isinstance(error, TooMany) else 4403,
                     lang)
    except Exception:
        log.exception("%s could not be opened", what)
        await refuse(send, failure, 1011, lang)
    return None


def refusal(message: str) -> dict[str, str]:
    """The `error` message that says, in one sentence, what was refused."""
    return {"type": "error", "message": message}


def close_reason(sentence: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8 (the protocol's limit), cut at a
    character."""
    return sentence.encode()[:123].decode(errors="ignore")


def read_message(text: Any) -> tuple[dict[str, Any] | None, dict[str, str] | None]:
    """A client's message as a JSON object, and None; or None and the refusal saying why it
    cannot be read (binary, too long, too deep, not JSON, a number that is not finite). A
    JSON value other than an object reads as an empty object: its missing `type` is refused
    by the caller."""
    if not isinstance(text, str):
        return None, refusal(Text("Send JSON text messages, not binary ones."))
    if len(text) > MAX_BODY:
        return None, refusal(Text("That message is too long."))
    if too_deep(text):
        return None, refusal(Text("That message nests deeper than {depth} levels.",
                                  depth=MAX_DEPTH))
    try:
        data = client_json(text)
    except NotFinite:
        return None, refusal(NOT_FINITE)
    except ValueError:
        return None, refusal(Text("That message is not JSON."))
    return (data if isinstance(data, dict) else {}), None


async def within_rate(send: Send, messages: Bucket, refusals: Bucket,
                      tell: Callable[[Any], None], lang: str) -> bool | None:
    """Count a message against its socket's buckets (`messages`, and `refusals` for the
    messages refused): True to act on it; False when it is refused (`tell` is given
    SLOW_DOWN); None when the socket has been closed for flooding, saying why in `lang`
    (it does not read its refusals either)."""
    if messages.take():
        return True
    if refusals.take():
        tell(refusal(SLOW_DOWN))
        return False
    with contextlib.suppress(OSError):
        await send({"type": "websocket.close", "code": 1008,
                    "reason": worded(Text("Too many messages."), lang)})
    return None


async def answer_messages(receive: Receive, send: Send, tell: Callable[[Any], None],
                          messages: Bucket, refusals: Bucket,
                          answer: Callable[[Any], Awaitable[dict[str, Any] | None]],
                          lang: str) -> None:
    """A socket's messages until it closes: each counted `within_rate`, then its text
    answered by `answer` and the reply given to `tell` (None: no reply here)."""
    while True:
        message = await receive()
        if message["type"] != "websocket.receive":
            return
        allowed = await within_rate(send, messages, refusals, tell, lang)
        if allowed is None:
            return
        if allowed:
            reply = await answer(message.get("text"))
            if reply is not None:
                tell(reply)


async def pump(send: Send, next_text: Callable[[], Awaitable[str | None]], lang: str) -> None:
    """Send a client's outbox (`next_text`) in order until the socket closes; close it when
    the client has fallen too far behind, saying so in `lang` (it reconnects and is sent
    its state afresh)."""
    while True:
        text = await next_text()
        try:
            if text is None:
                await send({"type": "websocket.close", "code": 1013,
                            "reason": worded(Text("Too far behind: reconnect."), lang)})
                return
            await send({"type": "websocket.send", "text": text})
        except Exception:  # the client went away; the receive loop sees it too
            return


async def refuse(send: Send, sentence: str, code: int, lang: str) -> None:
    """Refuse a socket that cannot go on: its `error` message, then a close frame with
    `code` whose reason is the sentence, said in `lang`."""
    said = worded(sentence, lang)
    with contextlib.suppress(OSError):
        await send({"type": "websocket.send", "text": dumps(refusal(said))})
        await send({"type": "websocket.close", "code": code, "reason": close_reason(said)})
