"""The sockets of a session that ends are closed at once (docs/web-protocol.md, "Accounts"):
a log-out ends the browser's session, a new password every other session of the account,
a deletion all of them. Here are the sockets watched, by player and session (`SignOuts`),
and the end of each one's session (`Watch`): a socket's wait for its next message ends as
soon as its session does, whether it was waiting then (the wait is cancelled) or busy (the
next wait ends at once). What the socket is then told is the web's
(`web/sign_out_sockets.py`).

Each worker watches its own sockets; in a cluster, the sessions ended are told to the other
workers over Redis (`Cluster.publish_signed_out`), which end theirs alike.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


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

    async def wait(self, receive: Callable[[], Awaitable[T]]) -> T | None:
        """`receive()`'s answer (the socket's next message), or None once the session has
        ended, before the wait or during it."""
        if self.ended:
            return None
        self._waiting = asyncio.current_task()
        try:
            return await receive()
        except asyncio.CancelledError:
            if not self.ended or self._waiting is None:
                raise
            self._waiting.uncancel()  # cancelled by `end`, not by the server
            return None
        finally:
            self._waiting = None


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
