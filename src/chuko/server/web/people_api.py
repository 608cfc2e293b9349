"""Follows, blocks and whom one takes challenges from, over HTTP (docs/web-protocol.md,
"People"): `GET /api/me/people` (those one follows, each online or not and in which rooms,
and those one blocks), `GET /api/me/followed-games`, `GET /api/people/{username}` (how one
stands with an account), and the POSTs `/api/people/follow`, `/unfollow`, `/block`,
`/unblock` and `/api/me/challenges-from`, answered as bare ASGI by the router. The rules are
`club/relations.py`'s; who is online is the players' channel's (`notify/channel.py`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from starlette.types import Scope

from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.challenge.challenges import title_of
from chuko.server.club.relations import Relations
from chuko.server.notify.channel import Channel
from chuko.server.rooms.room import Forbidden
from chuko.server.shared.limits import Buckets, Budget, Clock, Rate, TooMany
from chuko.server.shared.players import Player
from chuko.server.store.schema import secret_hash
from chuko.server.web.cookies import session_secret
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import Post, ReadBody, client_host

CHANGES = Rate(1, 20)  # follows, blocks and their undoing, per player
FOLLOWED_GAMES = 10  # finished games of followed players on the home page


class PeopleApi:
    """The requests on `relations`; `channel` says who is online; `player` finds a
    request's player; look-ups counted in `budget`."""

    def __init__(self, relations: Relations, channel: Channel, player: PlayerLookup,
                 budget: Budget, clock: Clock) -> None:
        self.relations, self.channel, self.player = relations, channel, player
        self.budget = budget
        self.changes = Buckets(CHANGES, clock)  # per player

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        relations = self.relations
        return {"/api/people/follow": self._relating(relations.follow),
                "/api/people/unfollow": self._relating(relations.unfollow),
                "/api/people/block": self._relating(relations.block),
                "/api/people/unblock": self._relating(relations.unblock),
                "/api/me/challenges-from": self.challenges_from}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/me/people")(self.people)
        app.get("/api/me/followed-games")(self.followed_games)
        app.get("/api/people/{username}")(self.standing)

    async def _someone(self, scope: Scope) -> Player:
        player = await self.player(scope)
        if player is None:
            raise Forbidden(Text("The server does not know you yet: reload the page."))
        if not self.changes.take(player.id):
            raise TooMany(Text("Too many follows and blocks just now: wait a moment and try "
                               "again."))
        return player

    async def people(self, request: Request) -> Json:
        """Those the player follows, each online or not and the rooms they play in, and
        those they block; empty lists for a guest or a visitor."""
        player = await self.player(request.scope)
        if player is None or player.is_guest:
            return {"following": [], "blocked": [], "challenges_from": None}
        followed = await self.relations.followed(player.id)
        ids = [person.id for person in followed]
        online = await self.channel.online(ids)
        playing = await self.relations.playing(ids)
        return {"following": [{"username": p.username, "name": p.name,
                               "online": p.id in online,
                               "playing": [{"room": room, "url": f"/room/{room}",
                                            "title": title_of(game)}
                                           for room, game in playing.get(p.id, [])]}
                              for p in followed],
                "blocked": [{"username": p.username, "name": p.name}
                            for p in await self.relations.blocked(player.id)],
                "challenges_from": await self.relations.challenges_from(player.id)}

    async def followed_games(self, request: Request) -> Json:
        """The latest finished games of those the player follows, newest first."""
        player = await self.player(request.scope)
        if player is None or player.is_guest:
            return {"games": []}
        games = await self.relations.recent_games(player.id, FOLLOWED_GAMES)
        return {"games": [{"room": g.room, "replay": f"/replay/{g.room}",
                           "title": title_of(g.game), "username": g.username, "name": g.name,
                           "ended": g.ended} for g in games]}

    async def standing(self, request: Request, username: str) -> Json:
        """How the request's player stands with the account `username` (counted as a
        profile look-up), and whether that account is online."""
        secret = session_secret(request.scope)
        self.budget.look_up(client_host(request.scope),
                            None if secret is None else secret_hash(secret))
        other = await self.relations.account(username)
        player = await self.player(request.scope)
        mine = player is not None and player.id == other.id
        between = (None if player is None or mine
                   else await self.relations.between(player.id, other.id))
        return {"username": other.username, "you": mine,
                "online": bool(await self.channel.online([other.id])),
                "follows": bool(between and between.follows),
                "blocks": bool(between and between.blocks)}

    def _relating(self, act: Callable[[Player, Any], Awaitable[object]]) -> Post:
        """The POST that has the request's player `act` on the account its body's
        `username` names; how the two stand then."""

        async def post(scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
            username = (await body()).get("username")
            player = await self._someone(scope)
            await act(player, username)
            other = await self.relations.account(username)
            between = await self.relations.between(player.id, other.id)
            return 200, {"username": other.username, "follows": between.follows,
                         "blocks": between.blocks}

        return post

    async def challenges_from(self, scope: Scope, body: ReadBody,
                              _: str) -> tuple[int, Json]:
        choice: Any = (await body()).get("choice")
        player = await self._someone(scope)
        return 200, {"challenges_from": await self.relations.choose(player, choice)}
