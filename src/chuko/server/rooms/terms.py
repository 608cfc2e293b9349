"""What the rooms take from the club (`ClubTerms`): the write that applies a rated room's
result to its players' ratings, the words for why a rated end changed no rating, and which
names could pass for the server's own labels. The app gives the club's own
(`club.ratings`, `club.labels`), so that the rooms import nothing of the club, which is
built on them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chuko.core.protocol import Json
from chuko.server.rooms.room import Room
from chuko.server.store import database as db


@dataclass(frozen=True)
class ClubTerms:
    # The write that rates a finished room (`ratings.apply_result`: room, game, places by
    # seat, now), carried by the write that stores its end, to commit with it.
    apply_result: Callable[[str, str, Sequence[int], float], db.Write]
    # "Not rated: …" for a stored result whose rated end changed no rating, else None.
    unrated_sentence: Callable[[Json | None], str | None]
    # Whether a seat's name could be read as one of the server's own labels.
    passes_for_a_label: Callable[[str], bool]

    def rated_end(self, room: Room, places: Sequence[int], now: float) -> db.Write | None:
        """What the write that ends `room` carries: its result (`places` by seat) applied to
        its players' ratings; None for a casual room."""
        return self.apply_result(room.id, room.game_id, places, now) if room.rated else None

    def ended(self, room: Room, at: float, unrated: str | None) -> None:
        """The room's end is stored, at `at`, and why it changed no rating if so."""
        room.ended = at
        if unrated is not None:
            room.result = {**(room.result or {}), "unrated": unrated}
        self.word(room)

    def word(self, room: Room) -> None:
        """Put the room's stored result in words: why its rated end changed no rating."""
        room.unrated = self.unrated_sentence(room.result)
