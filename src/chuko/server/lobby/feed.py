"""What this worker's lobby sockets are told (`Feed`): the pools' waiting counts and the open
seeks, coalesced. However fast seeks come and go, the feed reads the board at most once
every `every` seconds and sends each socket at most one update then: what changed since
the last one (a seek posted and taken between two updates is never sent). The update's text
is made once for all sockets. A socket's own answers and "paired" go straight to it.

A socket is first sent the newest `first` seeks and how many are open (`seek_page`); it
asks for older pages as it needs them, so the first message stays small whatever is open.

The feed also keeps its players present (`Board.touch`, renewed every third of `grace`): a
player counts as here while a lobby socket of theirs is open on some worker; the moment the
last one closes on this worker it says so (`Board.closed`), which takes them out of their
pool unless another worker holds a socket of theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from chuko.core.errors import ChukoError
from chuko.i18n import DEFAULT
from chuko.server.lobby.board import Board
from chuko.server.lobby.seeks import public_seek, seek_page
from chuko.server.rooms.outbox import Outbox
from chuko.server.shared.messages import dumps_in

log = logging.getLogger("chuko.server")

Json = dict[str, Any]
MAX_QUEUED = 64  # messages a lobby socket may have waiting before it is cut off


class LobbyClient(Outbox):
    """One lobby socket's outbox of JSON texts, for its player, in their language `lang`;
    cut off once MAX_QUEUED messages behind."""

    __slots__ = ("player",)

    def __init__(self, player: str, lang: str = DEFAULT) -> None:
        super().__init__(lang)
        self.player = player

    def send_text(self, text: str) -> None:
        if len(self._queue) >= MAX_QUEUED:
            self._queue.clear()
            self.cut_off = True
        else:
            self._queue.append(text)
        self._wake()

    def send(self, message: Json) -> None:
        self.send_text(dumps_in(message, self.lang))

    def send_shared(self, message: Json, texts: dict[str, str]) -> None:
        """Send one message of a fan-out (`Outbox.shared_text`)."""
        self.send_text(self.shared_text(message, texts))

    async def next_text(self) -> str | None:
        """The next message to send; None once the client is cut off."""
        return str(self._queue.popleft()) if await self._ready() else None


class Feed:
    """The lobby sockets of this worker (`worker`, in a cluster), told the changes on
    `board` at most once every `every` seconds of `clock`; a socket is first sent the newest
    `first` seeks."""

    def __init__(self, board: Board, pool_ids: list[str], *, every: float = 0.5,
                 grace: float = 10.0, first: int = 100, worker: str = "alone",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.board, self.pool_ids, self.every, self.grace = board, pool_ids, every, grace
        self.first, self.worker, self.clock = first, worker, clock
        self.clients: dict[str, set[LobbyClient]] = {}
        self.counts: dict[str, int] = dict.fromkeys(pool_ids, 0)
        self.seeks: dict[str, str] = {}  # id → the seek as stored
        self._public: dict[str, Json] = {}
        self._last = float("-inf")
        self._task: asyncio.Task | None = None

    def sockets_of(self, player: str) -> int:
        return len(self.clients.get(player, ()))

    async def add(self, client: LobbyClient) -> None:
        """A socket opened: it is sent the lists as the feed knows them."""
        first = client.player not in self.clients
        self.clients.setdefault(client.player, set()).add(client)
        if first:  # else the feed's loop marks them present within a third of the grace
            with contextlib.suppress(ChukoError):
                await self._vouch([client.player])
        client.send({"type": "lobby", "pools": self.counts, **self.page(None)})

    def page(self, before: Any) -> Json:
        """A page of the seeks as the feed knows them (`seek_page`)."""
        return seek_page(list(self._public.values()), before, self.first)

    async def remove(self, client: LobbyClient) -> None:
        """A socket closed; the player's last on this worker: they are gone from their
        pool, unless a socket of theirs is open on another worker (or here again)."""
        held = self.clients.get(client.player)
        if held is None:
            return
        held.discard(client)
        if held:
            return
        del self.clients[client.player]
        await self.board.closed(client.player, self.worker)
        if client.player in self.clients:  # a socket of theirs opened here meanwhile
            await self._vouch([client.player])

    async def _vouch(self, players: list[str]) -> None:
        """Say these players are here for `grace` seconds more; then, for any whose last
        socket here closed meanwhile, that it closed (its word may have come first)."""
        await self.board.touch(players, self.board.clock() + self.grace, self.worker)
        for player in players:
            if player not in self.clients:
                await self.board.closed(player, self.worker)

    def deliver(self, player: str, message: Json) -> None:
        """A message for one player's sockets on this worker."""
        held = self.clients.get(player)
        texts: dict[str, str] = {}  # the message in each language its readers read
        for client in held or ():
            client.send_shared(message, texts)

    async def refresh(self) -> bool:
        """Read the board and send every socket what changed, unless an update went out
        less than `every` seconds ago; whether one was sent."""
        now = self.clock()
        if now - self._last < self.every:
            return False
        counts, seeks = await self.board.snapshot(self.pool_ids)
        changed = {pool: n for pool, n in counts.items() if self.counts.get(pool) != n}
        gone = [seek for seek in self.seeks if seek not in seeks]
        fresh = {seek: raw for seek, raw in seeks.items() if self.seeks.get(seek) != raw}
        self.counts, self.seeks = counts, seeks
        for seek in gone:
            self._public.pop(seek, None)
        for seek, raw in fresh.items():
            self._public[seek] = public_seek(json.loads(raw))
        if not (changed or gone or fresh):
            return False
        self._last = now
        update = {"type": "update", "pools": changed, "gone": gone,
                  "seeks": [self._public[seek] for seek in fresh]}
        texts: dict[str, str] = {}  # made once per language, for every socket reading it
        for held in self.clients.values():
            for client in held:
                client.send_shared(update, texts)
        return True

    async def run(self) -> None:
        """Refresh every `every` seconds, and keep this worker's players present."""
        touched = float("-inf")
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.refresh()
                if self.clock() - touched >= self.grace / 3:
                    touched = self.clock()
                    await self._vouch(list(self.clients))
            except ChukoError as error:
                log.warning("The lobby's feed could not read the board: %s", error)
            except Exception:
                log.exception("The lobby's feed failed")
