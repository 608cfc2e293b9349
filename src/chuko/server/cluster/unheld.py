"""Changes another worker announced in rooms this worker does not hold. A room being read
from the database as one is announced misses it: the row may have been read before the
change was stored, and the announcement came before the room was held, so nothing caught
it up. The worker remembers them for as long as a read may take, and catches a room up on
them once it holds it (`Cluster.attend`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from chuko.server.rooms.room import Room


class Unheld:
    """room → (when heard, version, reload), oldest first."""

    def __init__(self, kept_for: Callable[[], float]) -> None:
        self.kept_for = kept_for  # seconds: the longest a read may take, and a margin
        self._heard: dict[str, tuple[float, int, bool]] = {}

    def heard(self, room_id: str, event: dict[str, Any]) -> None:
        """Remember a change announced in `room_id` (an event of the cluster's bus; those of
        other kinds change nothing stored); forget what no read under way can have missed."""
        if event.get("kind", "change") != "change":
            return
        version, reload = int(event.get("version", 0)), bool(event.get("reload"))
        now = time.monotonic()
        kept_for = self.kept_for()
        while self._heard:
            oldest = next(iter(self._heard))
            if now - self._heard[oldest][0] <= kept_for:
                break
            del self._heard[oldest]
        _, wanted, again = self._heard.pop(room_id, (now, 0, False))
        self._heard[room_id] = (now, max(wanted, version), again or reload)

    def catch_up(self, room: Room, refresh: Callable[[Room, int, bool], None]) -> None:
        """`refresh(room, version, reload)` with the changes heard for `room` lately, if
        any, forgotten then."""
        heard = self._heard.pop(room.id, None)
        if heard is not None:
            refresh(room, heard[1], heard[2])
