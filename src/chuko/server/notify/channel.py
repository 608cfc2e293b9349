"""The players' channel (`Channel`): this worker's open pages of each player, the notices
told to a player wherever their pages are, and who is online.

Its shared state lives in a `Shared` store, the lobby's kind (`lobby/kv.py`, given by the
web): this worker's memory, or the cluster's Redis. A player is online while some worker's
word for them holds: every worker holding a page of theirs writes, every third of `grace`,
`{prefix}:people:online` player → until when (now + `grace`); a page closed, or a worker
dead, lets the word lapse within `grace`. The worker holding the cluster's lease forgets the
lapsed words now and then (`forget_lapsed`), so the hash holds only those online lately.

A notice (`tell`) is delivered here at once when alone, or published on the store's channel
and delivered by each worker to its own pages of the player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from chuko.core.errors import ChukoError

log = logging.getLogger("chuko.server")

Json = dict[str, Any]
Deliver = Callable[[str, Json], None]
GRACE = 30.0  # seconds a worker's word that a player is online holds


class Shared(Protocol):
    """What the channel asks of the shared store (`lobby.kv.MemoryKv`/`RedisKv`)."""

    async def hmget(self, key: str, fields: list[str]) -> list[str | None]: ...
    async def hgetall(self, key: str) -> dict[str, str]: ...
    async def commit(self, checks: list[Any], ops: list[Any]) -> bool: ...
    def tell(self, player: str, message: Json) -> None: ...
    async def start(self, deliver: Deliver) -> None: ...
    async def stop(self) -> None: ...


class Page(Protocol):
    """One open page's outbox (`lobby.feed.LobbyClient` does)."""

    player: str

    def send_shared(self, message: Json, texts: dict[str, str]) -> None: ...


class Channel:
    """The pages of this worker, the notices to players and who is online, in `shared`
    under the cluster's `prefix`; `clock` is seconds since the epoch."""

    def __init__(self, shared: Shared, prefix: str = "local", *, grace: float = GRACE,
                 clock: Callable[[], float] = time.time) -> None:
        self.shared, self.grace, self.clock = shared, grace, clock
        self.online_key = f"{prefix}:people:online"
        self.pages: dict[str, set[Page]] = {}
        self._task: asyncio.Task | None = None

    def pages_of(self, player: str) -> int:
        return len(self.pages.get(player, ()))

    async def add(self, page: Page) -> None:
        """A page opened: its player is online from now on."""
        first = page.player not in self.pages
        self.pages.setdefault(page.player, set()).add(page)
        if first:
            await self._vouch([page.player])

    def remove(self, page: Page) -> None:
        """A page closed (its player's word here lapses within `grace` once none is left)."""
        held = self.pages.get(page.player)
        if held is not None:
            held.discard(page)
            if not held:
                del self.pages[page.player]

    def tell(self, player: str, message: Json) -> None:
        """Send `message` to every open page of `player`, on whichever worker."""
        self.shared.tell(player, message)

    def deliver(self, player: str, message: Json) -> None:
        """A notice for one player's pages on this worker."""
        texts: dict[str, str] = {}  # the notice in each language its pages read
        for page in self.pages.get(player, ()):
            page.send_shared(message, texts)

    async def online(self, players: list[str]) -> set[str]:
        """Those of `players` with a page open on some worker."""
        if not players:
            return set()
        now = self.clock()
        until = await self.shared.hmget(self.online_key, players)
        return {p for p, held in zip(players, until, strict=True)
                if held is not None and float(held) > now}

    async def _vouch(self, players: list[str]) -> None:
        if not players:
            return
        until = json.dumps(self.clock() + self.grace)
        await self.shared.commit([], [("hset", self.online_key, p, until) for p in players])

    async def forget_lapsed(self) -> int:
        """Forget the words that lapsed (each checked unchanged as it goes); how many."""
        now, forgotten = self.clock(), 0
        for player, held in (await self.shared.hgetall(self.online_key)).items():
            if float(held) <= now and await self.shared.commit(
                    [(self.online_key, player, held)], [("hdel", self.online_key, player, "")]):
                forgotten += 1
        return forgotten

    async def start(self) -> None:
        await self.shared.start(self.deliver)
        self._task = asyncio.create_task(self._renew())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.shared.stop()

    async def _renew(self) -> None:
        """Renew this worker's word for its players every third of `grace`."""
        while True:
            await asyncio.sleep(self.grace / 3)
            try:
                await self._vouch(list(self.pages))
            except ChukoError as error:
                log.warning("Could not say who is online: %s", error)
