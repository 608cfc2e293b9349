"""The JSON API (docs/web-protocol.md): the games and their rules, rooms made and joined,
a room's state, its log and its replay a page at a time. What one address may ask is
counted against the limits of `shared/limits.py`.

The POST requests (a room made, a seat taken, a rematch asked for or followed) are answered
as bare ASGI by the router (`Api.posts`, `router.App`); the GET requests are FastAPI's
routes (`Api.add_routes`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import Response
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.games import descriptor, descriptors, rules_text
from chuko.server.practice.facts import shipped_facts
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.room import NotFound
from chuko.server.shared.limits import (
    Buckets,
    Budget,
    Clock,
    Full,
    Limits,
    OpenCount,
    OpenRooms,
    TooMany,
)
from chuko.server.shared.messages import sentence
from chuko.server.web.identify import Identify, held_seat
from chuko.server.web.language import request_language
from chuko.server.web.router import Post, ReadBody, client_host

log = logging.getLogger("chuko.server")

OPEN = ("waiting", "playing")  # a room's statuses until it is over or expired


class Api:
    """The API's requests on `hub`, within `limits` measured on `clock`; `budget` counts the
    costly ones (log and replay pages) with the sockets' hints and pages. `identify` finds
    a request's player (`accounts.py`): the seats it takes are theirs, and a room's state
    asked for without a token shows their seat."""

    def __init__(self, hub: Hub, limits: Limits, clock: Clock, budget: Budget,
                 identify: Identify | None = None) -> None:
        self.hub, self.limits, self.budget = hub, limits, budget
        self.identify = identify
        self.rooms_made = Buckets(limits.rooms, clock)  # per address
        self.seats_taken = Buckets(limits.seats, clock)  # per address
        self.made = OpenRooms(limits.open_rooms_per_address)
        self.open_in_all = OpenCount(
            lambda: sum(room.status in OPEN for room in hub.rooms.values()), clock)

    # -- admission ---------------------------------------------------------------------------

    @staticmethod
    def _admit(scope: Scope, buckets: Buckets) -> None:
        """Count a request that makes a room or takes a seat against its address's bucket."""
        if not buckets.take(client_host(scope)):
            raise TooMany(Text("Too many requests from your address: wait a moment and try again."))

    async def _player_id(self, scope: Scope) -> str | None:
        """The id of the request's player, when it has a session."""
        player = None if self.identify is None else await self.identify(scope, create=False)
        return None if player is None else player.id

    def _open_room(self, room_id: str) -> bool:
        room = self.hub.rooms.get(room_id)
        return room is not None and room.status in OPEN

    def _may_open(self, scope: Scope) -> None:
        """Refuse a new room beyond the caps on open rooms, per address and in all."""
        limits = self.limits
        if self.made.count(client_host(scope), self._open_room) >= limits.open_rooms_per_address:
            raise TooMany(Text("Your address already has {open_rooms_per_address} "
                               "unfinished rooms: finish one before opening another.",
                               open_rooms_per_address=limits.open_rooms_per_address))
        if self.open_in_all.reached(limits.open_rooms):
            raise Full(Text("The server has as many open rooms as it can hold: try again later."))

    def _opened(self, scope: Scope, answer: Json) -> tuple[int, Json]:
        """A room made (or a rematch asked for) from the request's address, counted against
        the caps on open rooms; 201 with the answer."""
        self.made.add(client_host(scope), answer["room"])
        self.open_in_all.made()
        return 201, answer

    # -- the POST requests, answered as bare ASGI --------------------------------------------

    @property
    def posts(self) -> dict[str, Post]:
        """The POST requests by action ("create" for a new room), for `router.App`."""
        return {"create": self.create, "join": self.join, "rematch": self.rematch,
                "follow": self.follow}

    async def create(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        self._admit(scope, self.rooms_made)
        data = await body()
        self._may_open(scope)
        return self._opened(scope, await self.hub.create(data.get("game"), data.get("options"),
                                                         data.get("seats"), data.get("clock"),
                                                         await self._player_id(scope)))

    async def join(self, scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        self._admit(scope, self.seats_taken)
        data = await body()
        return 200, await self.hub.join(room_id, data.get("invite"), data.get("name"),
                                        await self._player_id(scope))

    async def rematch(self, scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        self._admit(scope, self.seats_taken)
        data = await body()
        self._may_open(scope)
        return self._opened(scope, await self.hub.rematch(room_id, data.get("token"),
                                                          await self._player_id(scope)))

    async def follow(self, scope: Scope, body: ReadBody, room_id: str) -> tuple[int, Json]:
        self._admit(scope, self.seats_taken)
        data = await body()
        return 200, await self.hub.follow(room_id, data.get("token"),
                                          await self._player_id(scope))

    # -- the GET requests, FastAPI's routes --------------------------------------------------

    def add_routes(self, app: FastAPI) -> None:
        """The API's GET requests, routed by `app`."""
        app.get("/api/facts")(self.facts)
        app.get("/api/games")(self.games)
        app.get("/api/games/{game_id}/rules")(self.rules)
        app.get("/api/lobby")(self.lobby)
        app.get("/api/rooms/{room_id}")(self.room)
        app.get("/api/rooms/{room_id}/log")(self.log)
        app.get("/api/rooms/{room_id}/replay")(self.replay)

    async def facts(self) -> dict[str, Any]:
        """The facts `chuko study` shipped, for the Lab (server/practice/facts.py)."""
        return shipped_facts()

    async def games(self) -> list[dict[str, Any]]:
        return [described.to_json() for described in descriptors()]

    async def lobby(self, request: Request) -> dict[str, Any]:
        """The lobby's pools with how many wait in each, and a page of its open seeks (the
        newest, or those before `?before=`, a page's `next`)."""
        listing: dict[str, Any] = await request.app.state.lobby.matchmaker.listing(
            request.query_params.get("before"))
        return listing

    async def rules(self, request: Request, response: Response,
                    game_id: str) -> dict[str, Any]:
        """The game's rules in the request's language (English where they have no
        translation into it); the answer varies with what chose that language."""
        lang = request_language(request)
        response.headers["Vary"] = "Accept-Language, Cookie"
        try:
            described = descriptor(game_id)
        except ConfigError as error:
            raise NotFound(sentence(error)) from None
        try:
            markdown = await asyncio.to_thread(rules_text, game_id, lang)  # a file read
        except (OSError, ModuleNotFoundError):
            log.exception("The rules of %s cannot be read.", game_id)
            raise NotFound(Text("The rules of {title} are missing from this "
                                "installation.", title=described.title)) from None
        return {"id": described.id, "title": described.title, "markdown": markdown}

    async def room(self, request: Request, room_id: str, token: str | None = None) -> Response:
        room = await self.hub.room(room_id)
        seat = room.seat_for(token)
        if token is None and self.identify is not None:  # a seat of the cookie's player
            seat = await held_seat(self.identify, request.scope, room.seats)
        return Response(room.state_text(seat, lang=request_language(request)),
                        media_type="application/json")

    async def log(self, request: Request, room_id: str, token: str | None = None,
                  before: str | None = None, count: str | None = None) -> dict[str, Any]:
        room = await self.hub.room(room_id)
        self.budget.admit("log", client_host(request.scope), room.id)
        return await self.hub.log_page(room, room.seat_for(token), before, count)

    async def replay(self, request: Request, room_id: str, token: str | None = None,
                     start: str | None = Query(None, alias="from"),
                     count: str | None = None, captions: str | None = None) -> Response:
        room = await self.hub.room(room_id)
        self.budget.admit("replay", client_host(request.scope), room.id)
        page = await self.hub.replay(room, room.seat_for(token), start, count,
                                     captions not in (None, "", "0", "false"),
                                     request_language(request))
        return Response(page, media_type="application/json")
