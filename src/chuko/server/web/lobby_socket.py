"""The lobby's socket, `/lobby/ws` (docs/web-protocol.md, "The lobby"): a player's live view
of the pools and seeks, served as bare ASGI by the router (`router.App`). Its player is the
request's (`identify`, the session cookie); it is told the lists (`lobby.feed.Feed`), its
player's own state (`you`) and, once paired, the room (`paired`, never a token: the room
knows its seats' players). Its messages (join or leave a pool, post, join or cancel a seek)
are answered one at a time, within the lobby's limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.lobby.feed import Feed, LobbyClient
from chuko.server.lobby.matchmaking import Matchmaker, Player
from chuko.server.shared.limits import Bucket, Buckets, Limits, Rate, TooMany
from chuko.server.shared.messages import sentence
from chuko.server.web.router import client_host
from chuko.server.web.socket_io import (
    accept_admitted,
    answer_messages,
    handshake_language,
    pump,
    read_message,
    refusal,
)

log = logging.getLogger("chuko.server")

Identify = Callable[[Scope], Awaitable[Player | None]]
Json = dict[str, Any]
UNKNOWN = Text("Unknown message: send {kinds}.",
               kinds='{"type": "pool" | "seek" | "accept" | "cancel" | "seeks" | "ping", …}')


class LobbySockets:
    """The lobby's sockets: `matchmaker` answers them, `feed` tells them the lists,
    `identify` finds a socket's player; `connects` bounds the sockets opened per address."""

    def __init__(self, matchmaker: Matchmaker, feed: Feed, identify: Identify, *,
                 connects: Rate = Limits.connects, clock: Callable[[], float] = time.monotonic):
        self.matchmaker, self.feed, self.identify = matchmaker, feed, identify
        self.limits = matchmaker.limits
        self.clock = clock
        self.opened = Buckets(connects, clock)  # per address
        self.seeks = Buckets(self.limits.seeks, clock)  # per player
        self.toggles = Buckets(self.limits.toggles, clock)  # per player

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = handshake_language(scope)
        player = await accept_admitted(
            receive, send, lambda: self._admit(scope),
            Text("The lobby could not be opened just now: reconnect in a moment."),
            "A lobby socket", lang)
        if player is not None:
            await self._serve(receive, send, player, client_host(scope), lang)

    async def _admit(self, scope: Scope) -> Player:
        if not self.opened.take(client_host(scope)):
            raise TooMany(Text("Too many connections from your address: wait a moment and "
                               "reconnect."))
        player = await self.identify(scope)
        if player is None:
            raise ChukoError(Text("The lobby does not know you yet: reload the page."))
        if self.feed.sockets_of(player.id) >= self.limits.sockets_per_player:
            raise TooMany(Text("The lobby is open in {sockets_per_player} places of "
                               "yours already: close one of them first.",
                               sockets_per_player=self.limits.sockets_per_player))
        return player

    async def _serve(self, receive: Receive, send: Send, player: Player, address: str,
                     lang: str) -> None:
        client = LobbyClient(player.id, lang)
        messages = Bucket(self.limits.messages, self.clock)
        refusals = Bucket(self.limits.messages, self.clock)
        sender = asyncio.create_task(pump(send, client.next_text, lang))
        try:
            await self.feed.add(client)
            await self._greet(client, player)
            await answer_messages(receive, send, client.send, messages, refusals,
                                  lambda text: self._handle(player, address, text), lang)
        finally:
            with contextlib.suppress(ChukoError):  # the lobby's store away: presence lapses
                await self.feed.remove(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _greet(self, client: LobbyClient, player: Player) -> None:
        """The player's own state, and the room of a pairing made just before (a socket
        reconnecting across a wave)."""
        try:
            client.send({**await self.matchmaker.you(player.id), "name": player.name,
                         "guest": player.username is None})
            room = await self.matchmaker.board.paired_room(player.id)
        except ChukoError as error:
            client.send(refusal(sentence(error)))
            return
        if room is not None:
            client.send({"type": "paired", "room": room})

    async def _handle(self, player: Player, address: str, text: Any) -> Json | None:
        """One message → the answer for this socket (None: the answer goes to all the
        player's sockets, or the pairing's `paired` is it)."""
        data, refused = read_message(text)
        if data is None:
            return refused
        kind = data.get("type")
        try:
            return await self._act(player, address, kind, data)
        except ChukoError as error:
            return refusal(sentence(error))
        except Exception:
            log.exception("A lobby message failed")
            return refusal(Text("The lobby could not do that just now; nothing changed. "
                                "Try again."))

    async def _act(self, player: Player, address: str, kind: Any, data: Json) -> Json | None:
        made = self.matchmaker
        if kind == "ping":
            return {"type": "pong"}
        if kind == "seeks":
            return {"type": "seeks", **self.feed.page(data.get("before"))}
        if kind == "pool":
            self._count(self.toggles, player, Text("pool joins and leaves"))
            you = await made.toggle(player, data.get("pool"), data.get("bots_after"),
                                    data.get("clock"))
        elif kind == "seek":
            self._count(self.seeks, player, Text("seeks"))
            you = await made.post(player, data, address)
        elif kind == "cancel":
            you = await made.cancel(player, data.get("seek"))
        elif kind == "accept":
            return await made.accept(player, data.get("seek"))
        else:
            return refusal(UNKNOWN)
        made.board.kv.tell(player.id, you)  # every socket of theirs, on every worker
        return None

    @staticmethod
    def _count(buckets: Buckets, player: Player, what: str) -> None:
        if not buckets.take(player.id):
            raise TooMany(Text("Too many {what} just now: wait a moment and try again.", what=what))
