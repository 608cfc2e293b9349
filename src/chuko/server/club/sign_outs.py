"""The sockets of a session that ends are closed at once (docs/web-protocol.md, "Accounts"):
a log-out ends the browser's session, a new password every other session of the account,
a deletion all of them; a room's or the lobby's socket opened in one of them is then sent
`SIGNED_OUT` and closed with `CLOSED`, so it can neither move nor post a seek any more.

`closing_on_sign_out` wraps a socket's ASGI callable: a socket whose handshake carries a
session is watched (`SignOuts.watching`) for as long as it is open, and its `receive`
answers a disconnection as soon as the session ends, whether the socket was waiting for a
message then (the wait is cancelled) or busy with one (the next wait ends at once). Each
worker watches its own sockets; in a cluster, the sessions ended are told to the other
workers over Redis (`Cluster.publish_signed_out`), which close theirs alike.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.server.shared.players import Player
from chuko.server.web.socket_io import refuse

SIGNED_OUT = ("You were signed out (a log-out, a new password or a deleted account): reload "
              "the page to go on.")
CLOSED = 4401  # a 4xxx code: the pages do not reconnect


class Watch:
    """One socket's session, `id_hash` of the player `player_id`, and whether it has ended."""

    __slots__ = ("player_id", "id_hash", "ended", "_waiting")

    def __init__(self, player_id: str, id_hash: str) -> None:
        self.player_id, self.id_hash = player_id, id_hash
        self.ended = False
        self._waiting: asyncio.Task[Any] | None = None  # the socket's, waiting for a message

    def end(self) -> None:
        self.ended = True
        if self._waiting is not None:
            self._waiting.cancel()

    async def receive(self, receive: Receive, send: Send) -> Message:
        """The socket's next message, or its disconnection (after `SIGNED_OUT` and the close
        frame) once its session has ended."""
        if not self.ended:
            self._waiting = asyncio.current_task()
            try:
                return await receive()
            except asyncio.CancelledError:
                if not self.ended or self._waiting is None:
                    raise
                self._waiting.uncancel()  # cancelled by `end`, not by the server
            finally:
                self._waiting = None
        await refuse(send, SIGNED_OUT, CLOSED)
        return {"type": "websocket.disconnect", "code": CLOSED}


class SignOuts:
    """The watched sockets of this worker, by player; `tell`, in a cluster, passes the
    sessions ended here on to the other workers, whose `heard` closes their sockets."""

    def __init__(self) -> None:
        self._watches: dict[str, set[Watch]] = {}
        self.tell: Callable[[dict[str, Any]], None] | None = None

    @contextlib.contextmanager
    def watching(self, player_id: str, id_hash: str) -> Iterator[Watch]:
        watch = Watch(player_id, id_hash)
        self._watches.setdefault(player_id, set()).add(watch)
        try:
            yield watch
        finally:
            held = self._watches.get(player_id)
            if held is not None:
                held.discard(watch)
                if not held:
                    del self._watches[player_id]

    def end(self, player_id: str, *, id_hash: str | None = None,
            but: str | None = None) -> None:
        """Close the sockets of the player's session `id_hash`, or (None) of every session
        of theirs except `but`, on every worker."""
        self._close(player_id, id_hash, but)
        if self.tell is not None:
            self.tell({"player": player_id, "id_hash": id_hash, "but": but})

    def replaced(self, player_id: str, old: str, new: str) -> None:
        """The player's browser went on from its session `old` to `new` (a log-in, a sign-up,
        a new password): its sockets of `old` are `new`'s from now on, on every worker."""
        self._replace(player_id, old, new)
        if self.tell is not None:
            self.tell({"player": player_id, "replaced": old, "by": new})

    def heard(self, event: dict[str, Any]) -> None:
        """Another worker's `end` or `replaced`, done to the sockets on this one."""
        player, old, new = event.get("player"), event.get("replaced"), event.get("by")
        id_hash, but = event.get("id_hash"), event.get("but")
        if not isinstance(player, str):
            return
        if isinstance(old, str) and isinstance(new, str):
            self._replace(player, old, new)
        elif "replaced" not in event:
            self._close(player, id_hash if isinstance(id_hash, str) else None,
                        but if isinstance(but, str) else None)

    def _replace(self, player_id: str, old: str, new: str) -> None:
        for watch in self._watches.get(player_id, ()):
            if watch.id_hash == old:
                watch.id_hash = new

    def _close(self, player_id: str, id_hash: str | None, but: str | None) -> None:
        for watch in list(self._watches.get(player_id, ())):
            if (id_hash is None or watch.id_hash == id_hash) and watch.id_hash != but:
                watch.end()


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
                return await watch.receive(receive, send)

            await socket(scope, watched, send, *args)

    return serve
