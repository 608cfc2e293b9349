"""The matchmaker's two links to the rest of the server, as the app builds them:
`room_opener` makes a pairing's room on the rooms' hub, `rating_reader` reads a player's
rating (`seeks.Standing`) from the store."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from chuko.games import game_class
from chuko.server.lobby.matchmaking import Json, OpenRoom, RatingOf
from chuko.server.lobby.seeks import DEFAULT_RATING, SCALE, Standing
from chuko.server.rooms.room import Seat
from chuko.server.store import rating_rows
from chuko.server.store.rating_rows import RatingRow
from chuko.server.store.writer import Unavailable
from chuko.server.store.writes import Refused

if TYPE_CHECKING:
    from chuko.server.rooms.hub import Hub
    from chuko.server.store.database import Store


def room_opener(hub: Hub) -> OpenRoom:
    """Make a pairing's room on `hub`: its players in seats (in a random order), bots of
    the game's second level (or its only one) in the seats left. The room's id is the
    pairing's, so a pairing made again (its maker died after making the room, before
    telling anyone) finds the room made and seats nobody twice. Its answer: the room's id and
    the player at each seat."""
    shuffle = random.SystemRandom().shuffle if hub.rng is None else hub.rng.shuffle
    duplicate = hub.store.key_taken  # a second room under one id

    async def open_room(record: Json) -> tuple[str, list[str | None]]:
        rules = game_class(record["game"])
        described = rules.descriptor
        values = described.read_online(record["options"], bots_only=False)
        game = rules.configure(values, bots_only=False)
        people = list(record["players"])
        shuffle(people)
        level = described.levels[min(1, len(described.levels) - 1)]
        seats = [Seat(n, "human", None, None, None, True, p["name"], player=p["player"])
                 for n, p in enumerate(people)]
        seats += [Seat(n, "bot", level, None, None, True)
                  for n in range(len(people), game.players)]
        # Casual and clockless are the defaults of a room.
        extra = {key: value for key, value in (("rated", record["rated"]),
                                               ("clock", record["clock"])) if value}
        room_id = f"{int(float(record['at'])):08x}{record['id']}"
        try:
            room = await hub.open_room(record["game"], game, values, seats,
                                       room_id=room_id, **extra)
        except duplicate:  # made already
            room = await hub.room(room_id)
        return room.id, [seat.player for seat in room.seats]

    return open_room


def rating_reader(store: Store, text: Callable[[RatingRow | None], str]) -> RatingOf:
    """A player's rating on the pool's scale from the `ratings` table, in words by `text`
    (the club's: "1500?" while provisional), the default when they have none (or the
    database cannot say just now)."""

    async def rating_of(player: str, game: str, klass: str) -> Standing:
        try:
            row = await store.fetch(rating_rows.rating_of(player, game, klass))
        except (Unavailable, Refused):
            return Standing()
        return Standing(DEFAULT_RATING if row is None else row.mu * SCALE, text(row))

    return rating_of
