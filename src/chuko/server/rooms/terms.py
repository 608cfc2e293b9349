"""What the rooms take from the club (`ClubTerms`): the write that applies a rated room's
result to its players' ratings, the read of the ratings a rated room shows by its seats,
the words for why a rated end changed no rating, and which names could pass for the
server's own labels. The app gives the club's own (`club.ratings`, `club.labels`), so that
the rooms import nothing of the club, which is built on them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from chuko.core.protocol import Json
from chuko.server.rooms.room import Room
from chuko.server.store import database as db

# Each seat's rating as a rated room shows it ({rating, provisional, text, change}; None for
# a seat with no rated player), read in one connection.
SeatRatings = list[Json | None]


class RatedEnd(NamedTuple):
    """What the write that rates a finished room answers: why it changed no rating (None:
    it did, or had already), and the seats' ratings as the room shows them after it."""

    unrated: str | None
    ratings: SeatRatings


@dataclass(frozen=True)
class ClubTerms:
    # The write that rates a finished room (`ratings.rated_end`: room, game, places by
    # seat, now), carried by the write that stores its end, to commit with it; it answers
    # a `RatedEnd`.
    apply_result: Callable[[str, str, Sequence[int], float], db.Write]
    # "Not rated: …" for a stored result whose rated end changed no rating, else None.
    unrated_sentence: Callable[[Json | None], str | None]
    # Whether a seat's name could be read as one of the server's own labels.
    passes_for_a_label: Callable[[str], bool]
    # The read of a rated room's seats' ratings (`ratings.seat_ratings`: room, game, seats).
    seat_ratings: Callable[[str, str, int], Callable[[db.Connection], SeatRatings]]

    def rated_end(self, room: Room, places: Sequence[int], now: float) -> db.Write | None:
        """What the write that ends `room` carries: its result (`places` by seat) applied to
        its players' ratings; None for a casual room."""
        return self.apply_result(room.id, room.game_id, places, now) if room.rated else None

    def ended(self, room: Room, at: float, rated: RatedEnd | None) -> None:
        """The room's end is stored, at `at`, with what its rating write answered (None: a
        casual room)."""
        room.ended = at
        if rated is not None:
            if rated.unrated is not None:
                room.result = {**(room.result or {}), "unrated": rated.unrated}
            room.show_ratings(rated.ratings)
        self.word(room)

    def word(self, room: Room) -> None:
        """Put the room's stored result in words: why its rated end changed no rating."""
        room.unrated = self.unrated_sentence(room.result)

    async def read_ratings(self, store: db.Store, room: Room) -> None:
        """Read a rated room's seats' ratings into it (a casual room has none)."""
        if room.rated:
            room.show_ratings(await store.fetch(
                self.seat_ratings(room.id, room.game_id, len(room.seats))))
