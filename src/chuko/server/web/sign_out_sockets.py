"""A socket closed as soon as the session it was opened in ends (docs/web-protocol.md,
"Accounts"): a room's or the lobby's socket is then sent `SIGNED_OUT` and closed with
`CLOSED`, so it can neither move nor post a seek any more.

`closing_on_sign_out` wraps a socket's ASGI callable: a socket whose handshake carries a
session is watched (`club/sign_outs.py`) for as long as it is open, and its `receive`
answers a disconnection as soon as the session ends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.club.sign_outs import SignOuts
from chuko.server.shared.players import Player
from chuko.server.web.socket_io import handshake_language, refuse

SIGNED_OUT = Text("You were signed out (a log-out, a new password or a deleted account): "
                  "reload the page to go on.")
CLOSED = 4401  # a 4xxx code: the pages do not reconnect

Socket = Callable[..., Awaitable[None]]
Session = Callable[[Scope], Awaitable[tuple[Player, str] | None]]


def closing_on_sign_out(socket: Socket, sign_outs: SignOuts, session: Session) -> Socket:
    """`socket` (an ASGI callable with the route's arguments after `send`), watched by
    `sign_outs` when its handshake carries a session (`session`: its player and id hash)."""

    async def serve(scope: Scope, receive: Receive, send: Send, *args: Any) -> None:
        try:
            found = await session(scope)
        except ChukoError:  # the database away or slow: the socket finds it so, and says so
            found = None
        if found is None:
            await socket(scope, receive, send, *args)
            return
        player, id_hash = found
        with sign_outs.watching(player.id, id_hash) as watch:
            connected = False

            async def watched() -> Message:
                nonlocal connected
                if not connected:  # the handshake: nothing is sent before it is answered
                    connected = True
                    return await receive()
                message = await watch.wait(receive)
                if message is None:  # the session ended
                    await refuse(send, SIGNED_OUT, CLOSED, handshake_language(scope))
                    return {"type": "websocket.disconnect", "code": CLOSED}
                return message

            await socket(scope, watched, send, *args)

    return serve
