"""Leaderboards, profiles and a player's own games over HTTP (docs/web-protocol.md):
`GET /api/leaderboard/{game}`, `/api/players/{username}`, `/api/players/{username}/games`
and `/api/me/games`.

A profile shows an account's ratings (`ratings.Shown`), its rating history, and its finished
games a page at a time, newest first, each with its seats' names, the player's place and the
engine's sentence about the result, as the game's replay shows them after the end: nothing
of a game in progress, no hand, no player's id. A finished game's result is worked out by
rebuilding it (in the costly requests' pool, `club/profiles.py`) and kept in the hub's
pages: it never changes.

Guests have no profile (no username to show); a player finds their own rooms, guest or
not, through `GET /api/me/games`, which knows them by their session (`PlayerLookup`, the
accounts' `player(scope, create=False)`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Query, Request

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.text import Text
from chuko.core.words import bot_name, seat_names
from chuko.games import descriptor, registry
from chuko.practice.daily import today
from chuko.server.club.profiles import (
    classes_of,
    finished_room,
    places_of,
    rated_here,
    result_kind,
    result_word,
    shown_rating,
)
from chuko.server.club.ratings import CLASSES, PROVISIONAL_GAMES, PROVISIONAL_SIGMA, Rating
from chuko.server.practice.daily import streak_of
from chuko.server.rooms import page_cache as pages
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.room import NotFound
from chuko.server.shared.limits import Budget, TooMany
from chuko.server.store import standing_rows as standings
from chuko.server.store.database import RoomRow
from chuko.server.store.schema import secret_hash
from chuko.server.web.cookies import session_secret
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.router import client_host

BOARD, BOARD_MAX = 50, 100  # leaderboard rows by default, and at most
GAMES_PAGE, GAMES_PAGE_MAX = 20, 50  # finished games per page
HISTORY_POINTS = 500  # rating-history points a profile sends, the newest
MINE_PLAYING, MINE_FINISHED = 20, 10  # a player's own rooms in progress, and finished


class ProfileApi:
    """The routes of leaderboards, profiles and a player's own games, on `hub`'s store."""

    def __init__(self, hub: Hub, budget: Budget, player: PlayerLookup) -> None:
        self.hub, self.budget, self.player = hub, budget, player

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/leaderboard/{game_id}")(self.leaderboard)
        app.get("/api/players/{username}")(self.profile)
        app.get("/api/players/{username}/games")(self.games)
        app.get("/api/me/games")(self.mine)

    async def _read(self, query: Callable[..., Any], *args: Any) -> Any:
        """`query(connection, *args)`, one of `store/standing_rows.py`'s reads, off the event
        loop."""
        return await self.hub.store.fetch(lambda conn: query(conn, *args))

    async def leaderboard(self, game_id: str, klass: str | None = Query(None, alias="class"),
                          count: str | None = None) -> dict[str, Any]:
        if game_id not in registry():
            raise NotFound(Text("There is no game {game_id!r}.", game_id=game_id))
        title, offered = descriptor(game_id).title, classes_of(game_id)
        klass = klass or (offered[0] if offered else "duel")
        if klass not in CLASSES:
            raise ConfigError(Text("A leaderboard's class is duel (heads-up) or multi (3 or more "
                                   "players)."))
        if klass not in offered:
            raise NotFound(Text(
                "{title} has no heads-up games, so no leaderboard for them.", title=title)
                if klass == "duel" else Text(
                "{title} has no multiplayer games, so no leaderboard for them.", title=title))
        size = pages.whole(count, Text("A leaderboard's `count`"), BOARD, low=1, high=BOARD_MAX)
        rows = await self._read(lambda conn: standings.leaderboard(
            conn, game_id, klass, size, least_games=PROVISIONAL_GAMES,
            most_sigma=PROVISIONAL_SIGMA))
        # While the settled are fewer than the board holds, the best provisional ratings
        # fill it below them, unranked: a new club's board is not empty.
        below = await self._read(lambda conn: standings.leaderboard(
            conn, game_id, klass, size - len(rows), least_games=PROVISIONAL_GAMES,
            most_sigma=PROVISIONAL_SIGMA, settled=False)) if len(rows) < size else []
        return {"game": game_id, "title": title, "class": klass, "classes": offered,
                "players": [{"rank": rank, "username": row["username"],
                             **shown_rating(Rating(*row["rating"]))}
                            for rank, row in enumerate(rows, 1)],
                "provisional": [{"username": row["username"],
                                 **shown_rating(Rating(*row["rating"]))} for row in below]}

    async def _account(self, request: Request, username: str) -> standings.Account:
        """The account of `username`, the look-up counted first (`Budget.look_up`): an
        answer says whether the name exists, so names cannot be tried in bulk."""
        secret = session_secret(request.scope)
        self.budget.look_up(client_host(request.scope),
                            None if secret is None else secret_hash(secret))
        found = await self._read(standings.account, username)
        if found is None:
            raise NotFound(Text("Nobody plays here as {username!r}.",
                                username=username[:standings.MAX_USERNAME]))
        return found

    async def page_status(self, request: Request, username: str) -> int:
        """The status of the profile page of `username`: 404 when nobody plays under it,
        429 over the look-ups' budget (the page's script shows the API's sentence)."""
        try:
            await self._account(request, username)
        except NotFound:
            return 404
        except TooMany:
            return 429
        return 200

    async def profile(self, request: Request, username: str) -> dict[str, Any]:
        account = await self._account(request, username)
        held = await self._read(standings.player_ratings, account.id)
        points = await self._read(standings.rating_points, account.id, HISTORY_POINTS)
        return {"username": account.username, "name": account.name,
                "member_since": account.created,
                "daily": await self.hub.store.fetch(streak_of(account.id, today())),
                "ratings": [{"game": game, "title": _title(game), "class": klass,
                             **shown_rating(Rating(*rating))} for game, klass, rating in held],
                "history": [{"game": p["game"], "class": p["class"], "at": p["at"],
                             **shown_rating(Rating(p["mu"], p["sigma"]), games=False)}
                            for p in points],
                **await self._finished(request, account.id, "@" + account.id, None, None)}

    async def games(self, request: Request, username: str, before: str | None = None,
                    count: str | None = None) -> dict[str, Any]:
        account = await self._account(request, username)
        return await self._finished(request, account.id, "@" + account.id, before, count)

    async def _finished(self, request: Request, player: str, key: str, before: str | None,
                        count: str | None) -> dict[str, Any]:
        """A page of the player's finished games, `next` the `before` of the page after
        (null: none). Counted as a replay page is: it may rebuild games."""
        size = pages.whole(count, Text("A game list's `count`"), GAMES_PAGE, low=1,
                           high=GAMES_PAGE_MAX)
        self.budget.admit("replay", client_host(request.scope), key)
        # One more than the page, to know whether a page follows.
        listed = await self._read(standings.games_page, player, ("over",), size + 1, before)
        entries = [await self._entry(room) for room in listed[:size]]
        return {"games": entries, "next": listed[size - 1].id if len(listed) > size else None}

    async def _entry(self, room: standings.Listed) -> dict[str, Any]:
        """A listed room as the game list shows it: seats by name, and once it is over the
        listed player's place and the result as a spectator reads it."""
        labels = [seat["name"] or (bot_name(str(seat["level"])) if seat["kind"] == "bot"
                                   else "Friend" if seat["friend"] else "Host")
                  for seat in room.seats]
        entry: dict[str, Any] = {
            "room": room.id, "game": room.game, "title": _title(room.game),
            "status": room.status, "rated": room.rated, "at": room.at, "seat": room.seat,
            "seats": [{"seat": seat["seat"], "name": name, "kind": seat["kind"],
                       "profile": seat["profile"], "gone": seat["gone"]}
                      for seat, name in zip(room.seats, seat_names(labels), strict=True)]}
        if room.status == "over":
            places, sentence, aborted = await self._result(room.id)
            entry.update(replay=f"/replay/{room.id}", sentence=sentence,
                         place=None if places is None else places[room.seat])
            # `result` for the page to style by, `result_text` for people to read.
            if aborted or places is None:
                entry.update(result="aborted" if aborted else None,
                             result_text=Text("aborted") if aborted else None)
            else:
                entry.update(result=result_kind(places[room.seat], places),
                             result_text=result_word(places[room.seat], places))
            entry["rating"] = None if room.rating is None else rated_here(room.rating)
        return entry

    async def _result(self, room_id: str) -> tuple[list[int] | None, str, bool]:
        """A finished room's places, the engine's sentence about its end and whether it was
        aborted (every seat placed first, yet nobody's draw), kept."""
        key = ("result", room_id)
        kept = self.hub.pages.get(key)
        if kept is None:
            row = await self.hub.store.fetch_room(room_id)
            kept = await self.hub.work.run(self._work_out, room_id, row)
            self.hub.pages.put(key, kept, 64 + len(kept[1]))
        return kept

    def _work_out(self, room_id: str,
                  row: RoomRow | None) -> tuple[list[int] | None, str, bool]:
        if row is None:
            raise NotFound(Text("There is no room {room_id!r}.", room_id=room_id))
        room = finished_room(row)
        # The result as a spectator's state message words it (a forfeit's too), a Text.
        return (places_of(room), room.result_sentence(None, room.moment(), room.names) or "",
                (row.result or {}).get("kind") == "aborted")

    async def mine(self, request: Request) -> dict[str, Any]:
        """The requesting player's rooms in progress (each with whose turn it is) and their
        latest finished games; empty for a request with no player."""
        player = await self.player(request.scope)
        if player is None:
            return {"playing": [], "finished": []}
        playing = await self._read(standings.games_page, player.id, ("waiting", "playing"),
                                   MINE_PLAYING)
        entries = []
        for listed in playing:
            entry = await self._entry(listed)
            try:
                room = await self.hub.room(listed.id)
            except ChukoError:
                continue  # unreadable just now: left out of this answer
            if room.status not in ("waiting", "playing"):
                continue  # over or expired meanwhile (expiring as it was loaded)
            to_move = room.state.to_move if room.status == "playing" else []
            entry.update(status=room.status, url=f"/room/{room.id}",
                         your_turn=listed.seat in to_move,
                         to_move=[room.names[seat] for seat in to_move])
            entries.append(entry)
        finished = await self._finished(request, player.id, "me:" + player.id, None,
                                        str(MINE_FINISHED))
        return {"playing": entries, "finished": finished["games"]}


def _title(game_id: str) -> str:
    """A game's title, or its id where the game is not installed any more."""
    try:
        return descriptor(game_id).title
    except ConfigError:
        return game_id
