"""Challenges over HTTP (docs/web-protocol.md, "Challenges"): `GET /api/challenges` (one's
pending challenges, received and sent) and the POSTs `/api/challenges` (send one),
`/api/challenges/accept`, `/decline` and `/cancel`, answered as bare ASGI by the router.
The rules are `challenge/challenges.py`'s; the players hear of each step on their own
socket (`me_socket.py`)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from starlette.types import Scope

from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.challenge.challenges import Challenges
from chuko.server.rooms.room import Forbidden
from chuko.server.shared.limits import Buckets, Clock, Rate, TooMany
from chuko.server.shared.players import Player
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import Post, ReadBody

SENDS = Rate(0.1, 5)  # challenges sent, per player
ANSWERS = Rate(1, 20)  # accepts, declines and cancels, per player


class ChallengeApi:
    """The requests on `challenges`; `player` finds a request's player."""

    def __init__(self, challenges: Challenges, player: PlayerLookup, clock: Clock) -> None:
        self.challenges, self.player = challenges, player
        self.sends, self.answers = Buckets(SENDS, clock), Buckets(ANSWERS, clock)

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {"/api/challenges": self.send, "/api/challenges/accept": self.accept,
                "/api/challenges/decline": self.decline, "/api/challenges/cancel": self.cancel}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/challenges")(self.pending)

    async def _someone(self, scope: Scope, buckets: Buckets, what: str) -> Player:
        player = await self.player(scope)
        if player is None:
            raise Forbidden(Text("The server does not know you yet: reload the page."))
        if not buckets.take(player.id):
            raise TooMany(Text("Too many {what} just now: wait a moment and try again.", what=what))
        return player

    async def pending(self, request: Request) -> Json:
        player = await self.player(request.scope)
        if player is None:
            return {"received": [], "sent": []}
        return await self.challenges.pending(player.id)

    async def send(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        data = await body()
        player = await self._someone(scope, self.sends, Text("challenges sent"))
        return 201, await self.challenges.send(player, data)

    async def accept(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        data = await body()
        player = await self._someone(scope, self.answers, Text("answers"))
        room = await self.challenges.accept(player, data.get("id"))
        return 200, {"room": room, "url": f"/room/{room}"}

    async def decline(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        data = await body()
        player = await self._someone(scope, self.answers, Text("answers"))
        await self.challenges.decline(player, data.get("id"), data.get("reason"))
        return 200, {"declined": data.get("id")}

    async def cancel(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        data = await body()
        player = await self._someone(scope, self.answers, Text("answers"))
        await self.challenges.cancel(player, data.get("id"))
        return 200, {"cancelled": data.get("id")}
