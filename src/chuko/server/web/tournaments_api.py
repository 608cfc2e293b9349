"""Tournaments over HTTP (docs/web-protocol.md, "Tournaments"): `GET /api/tournaments` (the
list), `GET /api/tournaments/{id}` (a tournament's page, with the asking player's part),
`POST /api/tournaments` (make one, for accounts) and `POST /api/tournaments/{id}/join`,
`/withdraw`, `/pause` and `/resume`, and `GET /api/players/{username}/tournaments` (those
an account entered, counted as a profile's look-up). What they answer is the director's
(`tournament/director.py`); this module finds the request's player and counts the
requests: tournaments made per account and per address (in the cluster's buckets when
there is one), and the other posts per address as seats taken are."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.rooms.room import Forbidden, NotFound
from chuko.server.shared.limits import (
    Buckets,
    Budget,
    Clock,
    Limits,
    Shared,
    TooMany,
    take_shared,
)
from chuko.server.store import standing_rows
from chuko.server.store.schema import secret_hash
from chuko.server.tournament.director import Director
from chuko.server.web.cookies import session_secret
from chuko.server.web.identify import Identify
from chuko.server.web.router import client_host, read_object

Json = dict[str, Any]
ACTIONS = ("join", "withdraw", "pause", "resume")
TOO_MANY = Text("Too many tournaments made: wait a few minutes.")


class TournamentApi:
    """The tournaments' requests on `director`; `identify` finds a request's player, and
    `limits` (on `clock`, or in the buckets a cluster's workers `shared`) count them."""

    def __init__(self, director: Director, identify: Identify, limits: Limits, clock: Clock,
                 budget: Budget, *, shared: Shared | None = None) -> None:
        self.director, self.identify, self.shared = director, identify, shared
        self.budget = budget  # profiles looked up
        self.creates = Buckets(limits.tournaments, clock)  # per account and per address
        self.actions = Buckets(limits.seats, clock)  # per address

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/tournaments")(self.listing)
        app.get("/api/tournaments/{tournament_id}")(self.page)
        app.post("/api/tournaments")(self.create)
        app.post("/api/tournaments/{tournament_id}/{action}")(self.act)
        app.get("/api/players/{username}/tournaments")(self.entered)

    async def listing(self) -> Json:
        return await self.director.listing()

    async def page(self, request: Request, tournament_id: str) -> Json:
        player = await self.identify(request.scope, create=False)
        return await self.director.page(tournament_id, player)

    async def entered(self, request: Request, username: str) -> Json:
        """The latest tournaments an account entered; counted as a profile's look-up (the
        answer says whether the name exists)."""
        secret = session_secret(request.scope)
        self.budget.look_up(client_host(request.scope),
                            None if secret is None else secret_hash(secret))
        found = await self.director.store.fetch(
            lambda conn: standing_rows.account(conn, username))
        if found is None:
            raise NotFound(Text("Nobody plays here as {username!r}.",
                                username=username[:standing_rows.MAX_USERNAME]))
        return await self.director.entered_by(found.id)

    async def create(self, request: Request) -> Json:
        """A new tournament of the session's account; its page."""
        data = await read_object(request.scope, request.receive)
        player = await self.identify(request.scope, create=False)
        if player is None or player.username is None:
            raise Forbidden(Text("Log in to an account to make a tournament."))
        for key in (f"account:{player.id}", f"address:{client_host(request.scope)}"):
            if not await take_shared(self.shared, "tournaments", key, self.creates):
                raise TooMany(TOO_MANY)
        return await self.director.create(player, data)

    async def act(self, request: Request, tournament_id: str, action: str) -> Json:
        """Join (a visitor is made a guest for it), withdraw, pause or resume; the
        tournament's page."""
        if action not in ACTIONS:
            raise NotFound(Text("There is no such address."))
        data = await read_object(request.scope, request.receive)
        if not self.actions.take(client_host(request.scope)):
            raise TooMany(Text("Too many requests from your address: wait a moment."))
        player = await self.identify(request.scope, create=action == "join")
        if player is None:
            raise ChukoError(Text("You are not playing in that tournament."))
        if action == "join":
            return await self.director.join(player, tournament_id, data.get("password"))
        act = {"withdraw": self.director.withdraw, "pause": self.director.pause,
               "resume": self.director.resume}[action]
        return await act(player, tournament_id)
