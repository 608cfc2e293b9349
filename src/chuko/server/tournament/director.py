"""What players ask of tournaments (`Director`): make one, join (with its password, within
its rating range; rated ones for accounts only), withdraw, pause and resume (an arena's),
and read the list and a tournament's page. Every request is checked before anything is
stored, and refused in one sentence. The standings are worked out from the finished rooms of
the tournament's games (`results.py`) by the `Rules` (`rounds.py`) and kept until another
game ends or another player joins."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.rooms.page_cache import Lru
from chuko.server.rooms.room import Forbidden, NotFound
from chuko.server.store import tournament_rows as rows
from chuko.server.store.database import Store
from chuko.server.store.tournament_rows import EntrantRow, GameRow, TournamentRow
from chuko.server.tournament import pages
from chuko.server.tournament.results import Results
from chuko.server.tournament.rounds import CoreRules, Field, Rules, Standing
from chuko.server.tournament.settings import (
    Settings,
    password_hash,
    password_matches,
    read_settings,
)

Json = dict[str, Any]
UPCOMING_CAP = 3  # upcoming tournaments one account may have made
STANDINGS_KEPT = 256  # tournaments whose standings a worker keeps
ENTERED_LISTED = 20  # the tournaments a player's profile lists, the latest
RatingOf = Callable[[str, str, int], Awaitable[float]]  # (player, game, table size) → rating


class Player(Protocol):
    """Who asks (`players.Player`)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def username(self) -> str | None: ...


class Director:
    """Tournaments on `store`, run by `rules` (the pure pairing and scoring by default);
    `rating_of` reads a player's rating, `clock` tells the time (seconds since the epoch)."""

    def __init__(self, store: Store, rating_of: RatingOf, *, rules: Rules | None = None,
                 clock: Callable[[], float] = time.time, cap: int = UPCOMING_CAP) -> None:
        self.store, self.rating_of, self.clock, self.cap = store, rating_of, clock, cap
        self.rules: Rules = rules or CoreRules()
        self.results = Results(store)
        self._standings = Lru(max_entries=STANDINGS_KEPT)  # by tournament: (mark, lines)

    # -- what a player asks ----------------------------------------------------------------

    async def create(self, player: Player, data: Any) -> Json:
        """A new tournament from the player's settings; its page."""
        if player.username is None:
            raise Forbidden(Text("Log in to an account to make a tournament."))
        settings = read_settings(data, self.clock(), account=True)
        row = self.new_row(settings, created_by=player.id)
        await self.store.submit(rows.create(row, self.cap))
        return await self.page(row.id, player)

    def new_row(self, settings: Settings, *, created_by: str | None,
                schedule_key: str | None = None) -> TournamentRow:
        tournament_id = secrets.token_urlsafe(9)
        return TournamentRow(
            tournament_id, settings.name, settings.game, settings.options, settings.clock,
            settings.rated, settings.system, settings.table_size, settings.starts_at,
            settings.minutes, settings.rounds, settings.rating_min, settings.rating_max,
            None if settings.password is None
            else password_hash(tournament_id, settings.password),
            created_by, self.clock(), schedule_key, "upcoming", 0)

    async def join(self, player: Player, tournament_id: Any, password: Any = None) -> Json:
        tournament = await self.tournament(tournament_id)
        if tournament.status == "over":
            raise ConfigError(Text("That tournament is over: it takes no more players."))
        if not password_matches(tournament.id, tournament.password_hash, password):
            raise Forbidden(Text("That is not the tournament's password."))
        if tournament.rated and player.username is None:
            raise Forbidden(Text("Only accounts play rated tournaments: log in to join."))
        rating = await self.rating_of(player.id, tournament.game, tournament.table_size)
        low, high = tournament.rating_min, tournament.rating_max
        if (low is not None and rating < low) or (high is not None and rating > high):
            raise Forbidden(Text("This tournament is for ratings {low} to "
                                 "{high}; yours is {rating:.0f}.", low=low or 0,
                                 high=high if high is not None else Text("any"), rating=rating))
        await self.store.submit(rows.join(tournament.id, player.id, player.name, rating,
                                          self.clock()))
        return await self.page(tournament.id, player)

    async def withdraw(self, player: Player, tournament_id: Any) -> Json:
        return await self._mark(player, tournament_id, withdrawn=True)

    async def pause(self, player: Player, tournament_id: Any) -> Json:
        return await self._mark(player, tournament_id, paused=True)

    async def resume(self, player: Player, tournament_id: Any) -> Json:
        return await self._mark(player, tournament_id, paused=False)

    async def _mark(self, player: Player, tournament_id: Any, **flags: bool) -> Json:
        tournament = await self.tournament(tournament_id)
        if "paused" in flags and tournament.system != "arena":
            raise ConfigError(Text("Only an arena may be paused; in a Swiss, withdraw instead."))
        entry = await self.entry(tournament.id, player.id)
        if entry is None or entry.withdrawn:
            raise ConfigError(Text("You are not playing in that tournament."))
        await self.store.submit(rows.mark(tournament.id, [player.id], **flags))
        return await self.page(tournament.id, player)

    # -- what a page reads ------------------------------------------------------------------

    async def tournament(self, tournament_id: Any) -> TournamentRow:
        found = None
        if isinstance(tournament_id, str) and len(tournament_id) <= 16:
            found = await self.store.fetch(lambda conn: rows.tournament(conn, tournament_id))
        if found is None:
            raise NotFound(Text("There is no tournament {tournament!r}.",
                                tournament=str(tournament_id)[:16]))
        return found

    async def entry(self, tournament_id: str, player: str) -> EntrantRow | None:
        entrants = await self.store.fetch(lambda conn: rows.entrants(conn, tournament_id))
        return next((e for e in entrants if e.player == player), None)

    async def listing(self) -> Json:
        listed = await self.store.fetch(rows.listing)
        counts = await self.store.fetch(lambda conn: rows.counts(conn, [t.id for t in listed]))
        return pages.listing(listed, counts)

    async def entered_by(self, player_id: str) -> Json:
        """The latest tournaments a player entered (a profile's list)."""
        listed = await self.store.fetch(
            lambda conn: rows.entered_by(conn, player_id, ENTERED_LISTED))
        counts = await self.store.fetch(lambda conn: rows.counts(conn, [t.id for t in listed]))
        return {"tournaments": [pages.summary(t, counts.get(t.id, 0)) for t in listed]}

    async def page(self, tournament_id: Any, player: Player | None) -> Json:
        """A tournament's page, and the asking player's part in it."""
        tournament = await self.tournament(tournament_id)
        entrants, games = await self.store.fetch(
            lambda conn: (rows.entrants(conn, tournament.id), rows.games(conn, tournament.id)))
        standings = await self.standings(tournament, entrants, games)
        return pages.page(tournament, entrants, games, standings,
                          None if player is None else player.id)

    async def standings(self, tournament: TournamentRow, entrants: list[EntrantRow],
                        games: list[GameRow]) -> list[Standing]:
        """The standings as the finished games make them, kept while no game ends and no
        player joins."""
        played = await self.results.played(games)
        mark = (len(played), len(entrants), sum(e.withdrawn for e in entrants))
        kept = self._standings.get(tournament.id)
        if kept is not None and kept[0] == mark:
            return kept[1]  # type: ignore[no-any-return]
        entered = Field({e.player: e.rating for e in entrants},
                        frozenset(e.player for e in entrants if e.withdrawn),
                        tournament.table_size)
        standings = await asyncio.to_thread(self.rules.standings, tournament.system, entered,
                                            played)
        self._standings.put(tournament.id, (mark, standings), 64 * (1 + len(standings)))
        return standings
