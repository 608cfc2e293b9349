"""A tournament game's result, read from its room's stored end (never copied elsewhere, so
each counts once however often it is read): the places of its players, and whether each
made a move (a player who lost without one was absent). An end never changes, so each is
worked out once per worker (a finished game the engine ended is rebuilt for its scores, in
a thread) and kept."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from chuko.server.rooms.endings import ranks
from chuko.server.rooms.lifecycle import rebuild
from chuko.server.rooms.page_cache import Lru
from chuko.server.store.database import RoomRow, Store
from chuko.server.store.tournament_rows import GameRow
from chuko.server.tournament.rounds import Played

KEPT = 65_536  # endings kept per worker


@dataclass(frozen=True)
class Ending:
    """A finished game's places by seat (0 first, ties share) and which seats moved."""

    places: tuple[int, ...]
    moved: tuple[bool, ...]


def places_of(row: RoomRow) -> tuple[int, ...]:
    """A finished room's places as a tournament counts them: the room's own (a forfeit's
    loser last, else by the engine's scores), except that an aborted game is lost by the
    seat that aborted it (it did not play) rather than drawn."""
    result = row.result or {}
    seats = len(row.seats)
    if result.get("kind") == "aborted":
        return tuple(1 if seat == int(result["seat"]) else 0 for seat in range(seats))
    scores = None
    if "kind" not in result:
        outcome = rebuild(row)[0].outcome
        scores = None if outcome is None else list(outcome.scores)
    return tuple(ranks(seats, scores, result))


def ending_of(row: RoomRow) -> Ending:
    moved = {seat for seat, _ in row.moves}
    return Ending(places_of(row), tuple(seat.seat in moved for seat in row.seats))


class Results:
    """The endings of tournament games on `store`, kept once worked out."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept = Lru(max_entries=KEPT)
        self._working: dict[str, asyncio.Future[Ending | None]] = {}  # by room, once each

    async def ending(self, game: GameRow) -> Ending | None:
        """The game's ending; None while its room is not over (or not made). Many asking
        at once for one not kept yet wait for the one working it out."""
        room_id = game.room_id
        if room_id is None or game.status != "over":
            return None
        found = self.kept.get(room_id)
        if found is not None:
            return found  # type: ignore[no-any-return]
        working = self._working.get(room_id)
        if working is None:
            working = self._working[room_id] = asyncio.ensure_future(self._work_out(room_id))
            working.add_done_callback(lambda _: self._working.pop(room_id, None))
        return await asyncio.shield(working)

    async def _work_out(self, room_id: str) -> Ending | None:
        row = await self.store.fetch_room(room_id)
        if row is None:
            return None
        found = await asyncio.to_thread(ending_of, row)
        self.kept.put(room_id, found, 64)
        return found

    async def played(self, games: Sequence[GameRow]) -> list[Played]:
        """The tournament's finished games and byes, as the scoring reads them."""
        played = []
        for game in games:
            if game.room_id is None:
                played.append(Played(game.round, game.players, (0,)))
                continue
            ending = await self.ending(game)
            if ending is not None:
                people = len(game.players)  # the seats after them are bots'
                played.append(Played(game.round, game.players, ending.places[:people]))
        return played
