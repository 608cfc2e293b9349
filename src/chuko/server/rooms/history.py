"""A room's history a page at a time: its move log and a finished game's replay, worked out
in the pool (`work`) and kept in `pages` (`page_cache.py`); a finished game's review, worked
out once in the pool, is kept for as long as its room is in memory."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

from chuko.bots import review
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.i18n import DEFAULT
from chuko.server.rooms import page_cache as pages
from chuko.server.rooms.moment import Moment
from chuko.server.rooms.page_cache import Lru
from chuko.server.rooms.room import Room
from chuko.server.shared.messages import worded
from chuko.server.shared.work import Pool
from chuko.server.store import database as db

T = TypeVar("T")
Review = tuple[list[Json | None] | None, int | None]  # the verdicts, and the first mistake's


class History:
    """Log pages and replay pages, cut from what `pages` keeps."""

    def __init__(self, pages: Lru, work: Pool) -> None:
        self.pages, self.work = pages, work
        # Each finished game's review: small, and kept apart from the pages' cache, where
        # big chunks push it out.
        self.reviews: WeakKeyDictionary[Room, Review] = WeakKeyDictionary()

    async def _kept(self, key: Hashable, make: Callable[[], T], size: Callable[[T], int]) -> T:
        """What `pages` keeps for `key`, else `make()` worked out in the pool and kept."""
        value = self.pages.get(key)
        if value is None:
            value = await self.work.run(make)
            self.pages.put(key, value, size(value))
        return value

    def _captions(self, room: Room, seat: int | None,
                  moment: Moment) -> tuple[Hashable, Callable[[], list[str]],
                                           Callable[[list[str]], int]]:
        """How the captions up to `moment` for `seat` are kept: key, making and size."""
        return (("captions", room.id, seat, moment.version),
                lambda: pages.captions(moment.state, room.names, seat), pages.lines_size)

    def captions(self, room: Room, seat: int | None, moment: Moment) -> list[str]:
        """Every move up to `moment` in words for `seat` (kept in `pages`)."""
        if moment.version == 0:
            return []  # no move yet: nothing to replay (every socket of a new game asks)
        return cast(list[str], self.pages.remember(*self._captions(room, seat, moment)))

    async def _kept_captions(self, room: Room, seat: int | None, moment: Moment) -> list[str]:
        """`captions`, worked out in the pool when not kept."""
        return await self._kept(*self._captions(room, seat, moment)) if moment.version else []

    def log(self, room: Room, seat: int | None, moment: Moment) -> Json:
        """The `log` message a socket opens with: the last LOG_PAGE lines up to `moment`."""
        return pages.log_page(self.captions(room, seat, moment), moment.version,
                              pages.LOG_PAGE)

    async def log_page(self, room: Room, seat: int | None, before: Any = None,
                       count: Any = None) -> Json:
        """A `log` message asked for: the lines before move `before` (default: all moves up
        to now), at most `count` of them (LOG_PAGE by default). A page is a slice of the
        captions kept for this version; only captions not kept yet take work (in the
        pool)."""
        moment = room.moment()
        upto = pages.whole(before, Text("A log page's `before`"), moment.version)
        size = pages.whole(count, Text("A log page's `count`"), pages.LOG_PAGE, low=1,
                           high=pages.LOG_PAGE_MAX)
        return pages.log_page(await self._kept_captions(room, seat, moment), upto, size)

    @staticmethod
    def _review(room: Room) -> Review:
        """The finished game's review, and its first mistake's move (None: none)."""
        verdicts = review(room.state.game, room.state.record())
        mistake = next((k + 1 for k, v in enumerate(verdicts or []) if v and v.get("mistake")),
                       None)
        return verdicts, mistake

    async def replay(self, room: Room, seat: int | None, start: Any = None, count: Any = None,
                     captions_only: bool = False, lang: str = DEFAULT) -> str:
        """A page of a finished game's replay as JSON text: from frame `start` (0, the deal)
        `count` frames, each the position in full (all its cards, now that they may be known)
        with the sentence about the move that led to it as `seat` read it, and the game's
        verdict on that move where it has a review. `captions_only` leaves out the views,
        for the move list; its sentences in `lang`. The page is cut from chunks kept in
        `pages` (`_chunk`, one per language), so asking again, at any offset, costs only what
        no chunk holds yet (worked out in the pool)."""
        if room.status != "over":
            raise db.Conflict(Text("The replay opens once the game is over."))
        high = pages.CAPTIONS_PAGE_MAX if captions_only else pages.FRAMES_PAGE_MAX
        first = pages.whole(start, Text("A replay page's `from`"), 0)
        size = pages.whole(count, Text("A replay page's `count`"), high if captions_only
                           else pages.FRAMES_PAGE, low=1, high=high)
        moment = room.moment()
        lines = await self._kept_captions(room, seat, moment)
        found = self.reviews.get(room)
        if found is None:  # bounded work (each game's review keeps to a budget)
            found = self.reviews.setdefault(room, await self.work.run(self._review, room))
        verdicts, mistake = found
        total = len(lines) + 1
        step = pages.CAPTIONS_PAGE_MAX if captions_only else pages.FRAMES_PAGE
        origin = first - first % step
        chunks = [await self._kept(("replay", room.id, seat, captions_only, at, lang),
                                   partial(self._chunk, moment, seat, lines, verdicts, at,
                                           step, captions_only, lang),
                                   lambda kept: sum(len(text) for text, _ in kept))
                  for at in range(origin, min(total, first + size), step)]
        return pages.page_text(worded(
            {"game": room.game_id, "title": room.descriptor.title, "seats": room.seats_json(),
             "total": total, "from": first}, lang), pages.cut(chunks, first - origin, size),
            {"reviewed": verdicts is not None, "first_mistake": mistake})

    @staticmethod
    def _chunk(moment: Moment, seat: int | None, lines: list[str],
               verdicts: list[Json | None] | None, first: int, size: int,
               captions_only: bool, lang: str) -> list[pages.Frame]:
        """Frames `first` … `first + size - 1` of the replay in JSON, each with its
        verdict, their sentences in `lang`; with their views unless `captions_only`."""
        found: list[tuple[Json, int]]
        if captions_only:
            found = [({"caption": lines[k - 1] if k else Text("The deal.")}, 0)
                     for k in range(first, min(len(lines) + 1, first + size))]
        else:
            found = pages.frames(moment.state, seat, first, size, lines)
        for index, (frame, _) in enumerate(found, first):
            frame["verdict"] = verdicts[index - 1] if verdicts and index else None
        return [(json.dumps(worded(frame, lang)), view) for frame, view in found]
