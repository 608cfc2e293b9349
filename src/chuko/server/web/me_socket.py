"""The player's own socket, `/me/ws` (docs/web-protocol.md, "People"), open on
every page: it keeps its player online (`notify/channel.py`), is first sent their pending
challenges and the rooms where it is their turn (`hello`), then every notice told to them
(a challenge received or answered, a turn come or gone), on whichever worker it is open.
Served as bare ASGI by the router (`router.App`); its player is the session's. A page sends
nothing but `ping`; sockets are bounded per address (opened) and per player (open).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.challenge.challenges import Challenges
from chuko.server.lobby.feed import LobbyClient
from chuko.server.notify.channel import Channel
from chuko.server.notify.turns import Turns
from chuko.server.shared.limits import Bucket, Buckets, Limits, Rate, TooMany
from chuko.server.shared.messages import sentence
from chuko.server.shared.players import Player
from chuko.server.web.router import client_host
from chuko.server.web.socket_io import (
    accept_admitted,
    answer_messages,
    handshake_language,
    pump,
    read_message,
    refusal,
)

Identify = Callable[[Scope], Awaitable[Player | None]]
PAGES_PER_PLAYER = 16  # a player's pages open at once on one worker
MESSAGES = Rate(1, 10)  # a page's pings


class MeSockets:
    """The players' own sockets on `channel`, greeted with `challenges` and `turns`;
    `identify` finds a socket's player; `connects` bounds the sockets opened per address."""

    def __init__(self, channel: Channel, challenges: Challenges, turns: Turns,
                 identify: Identify, *, connects: Rate = Limits.connects,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.channel, self.challenges, self.turns = channel, challenges, turns
        self.identify, self.clock = identify, clock
        self.opened = Buckets(connects, clock)  # per address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = handshake_language(scope)
        player = await accept_admitted(
            receive, send, lambda: self._admit(scope),
            Text("Your notices could not be opened just now: reload in a moment."),
            "A player's socket", lang)
        if player is not None:
            await self._serve(receive, send, player, lang)

    async def _admit(self, scope: Scope) -> Player:
        if not self.opened.take(client_host(scope)):
            raise TooMany(Text("Too many connections from your address: wait a moment and "
                               "reconnect."))
        player = await self.identify(scope)
        if player is None:
            raise ChukoError(Text("The server does not know you yet: reload the page."))
        if self.channel.pages_of(player.id) >= PAGES_PER_PLAYER:
            raise TooMany(Text("You have {pages} pages open already: close one of "
                               "them first.", pages=PAGES_PER_PLAYER))
        return player

    async def _serve(self, receive: Receive, send: Send, player: Player, lang: str) -> None:
        page = LobbyClient(player.id, lang)
        messages, refusals = Bucket(MESSAGES, self.clock), Bucket(MESSAGES, self.clock)
        sender = asyncio.create_task(pump(send, page.next_text, lang))
        try:
            await self.channel.add(page)
            await self._hello(page, player)
            await answer_messages(receive, send, page.send, messages, refusals, _answer, lang)
        finally:
            self.channel.remove(page)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _hello(self, page: LobbyClient, player: Player) -> None:
        """The player's pending challenges and turns; a refusal when they cannot be read
        just now (the notices still come)."""
        try:
            page.send({"type": "hello", "name": player.name, "username": player.username,
                       "challenges": await self.challenges.pending(player.id),
                       "turns": await self.turns.of(player.id)})
        except ChukoError as error:
            page.send(refusal(sentence(error)))


async def _answer(text: Any) -> dict[str, Any]:
    data, refused = read_message(text)
    if data is None:
        return refused or refusal(Text("That message cannot be read."))
    if data.get("type") == "ping":
        return {"type": "pong"}
    return refusal(Text("This socket only listens: send {ping}, or nothing.",
                        ping='{"type": "ping"}'))
