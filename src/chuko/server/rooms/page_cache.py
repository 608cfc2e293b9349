"""A game's history a page at a time: the move log of a room and the frames of a finished
game's replay (docs/web-protocol.md), so no message grows with the game.

Each page is worked out in one pass through the game's record (`Game.replay` with an
observer), which is linear in the game; the expensive parts (a sentence per move, a full
view per frame) are made only where they are needed, and what was made is kept in one
`Lru` bounded by bytes, so repeated requests cost nothing and memory stays bounded whatever
is asked. Everything kept is keyed by room, seat and version: a state at a version never
changes, so nothing kept goes stale. A replay is worked out and kept in chunks that start at
multiples of their size (FRAMES_PAGE frames, or CAPTIONS_PAGE_MAX captions-only frames),
and any page is cut from those (`cut`), so asking at other offsets or counts costs no more
work and keeps no more copies.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json, State
from chuko.core.text import Text

LOG_PAGE = 50  # log lines sent on connecting, and per older page by default
LOG_PAGE_MAX = 200
FRAMES_PAGE = 50  # replay frames per page by default
FRAMES_PAGE_MAX = 100
CAPTIONS_PAGE_MAX = 1000  # a captions-only replay page: the move list, cheaply
PAGE_BYTES = 256 * 1024  # a frames page stops growing past this, with one frame at least
CACHE_BYTES = 32 * 1024 * 1024


class Lru:
    """A least-recently-used cache bounded by the total size of its values (as told by
    `put`) and by its number of entries; safe to share between threads."""

    def __init__(self, max_bytes: int = CACHE_BYTES, max_entries: int = 4096) -> None:
        self.max_bytes, self.max_entries = max_bytes, max_entries
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Any:
        """The value kept for `key`, None when there is none."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep `value`, which costs `size` bytes, dropping the least recently used values
        until everything fits; a value larger than the whole budget is not kept."""
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes or len(self._items) > self.max_entries:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped

    def remember(self, key: Hashable, make: Callable[[], Any],
                 size: Callable[[Any], int]) -> Any:
        """The value kept for `key`, else `make()` kept."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value, size(value))
        return value


def captions(state: State, names: Sequence[str], seat: int | None) -> list[str]:
    """Every move up to `state` in words as `seat` may know it: the captions of the game's
    frames after the deal, read off one replay of its record. Once the game is over every
    move may be known, as its replay's full views show, so secret moves are named
    (`describe_revealed`)."""
    lines: list[str] = []
    finished = state.outcome is not None

    def observe(position: State, mover: int | None, move: Any) -> None:
        if mover is not None:
            word = position.describe_revealed if finished else position.describe
            lines.append(word(mover, move, names, seat))

    state.game.replay(state.record(), observe)
    return lines


def lines_size(lines: Sequence[str]) -> int:
    return sum(len(line) + 8 for line in lines)


def whole(value: Any, what: str, default: int, *, low: int = 0,
          high: int | None = None) -> int:
    """A whole number from a request (text or a number; None: `default`), at least `low`
    and at most `high` (larger is cut down to it); ConfigError with a sentence otherwise."""
    if value is None:
        return default
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ConfigError(Text("{what} must be a whole number from {low} up.", what=what, low=low))
    return value if high is None else min(value, high)


def log_page(lines: Sequence[str], before: int, count: int) -> Json:
    """The `count` lines before line `before` (0-based: lines[k] is move k + 1)."""
    before = min(before, len(lines))
    first = max(0, before - count)
    return {"type": "log", "lines": list(lines[first:before]), "first": first,
            "total": len(lines)}


def frames(state: State, seat: int | None, start: int, count: int,
           lines: Sequence[str]) -> list[tuple[Json, int]]:
    """Frames `start` … `start + count - 1` of a finished game (frame 0 the deal, frame k
    the position after move k) drawn in full, captioned from `lines`, each with the length
    of its view in JSON. One pass through the record; views only inside the range."""
    found: list[tuple[Json, int]] = []
    index = -1

    def observe(position: State, mover: int | None, move: Any) -> None:
        nonlocal index
        index += 1
        if start <= index < start + count:
            view = position.full_view(seat)
            found.append(({"view": view,
                           "caption": lines[index - 1] if index else Text("The deal.")},
                          len(json.dumps(view))))

    state.game.replay(state.record(), observe)
    return found


Frame = tuple[str, int]  # a replay frame in JSON, and the length of its view (0: none)


def cut(chunks: Sequence[Sequence[Frame]], skip: int, count: int) -> list[str]:
    """The JSON of `count` frames after the first `skip` of `chunks` put end to end; the
    page stops once its views pass PAGE_BYTES, with one frame at least."""
    found: list[str] = []
    size = 0
    for text, view in [frame for chunk in chunks for frame in chunk][skip:skip + count]:
        if size > PAGE_BYTES:
            break
        found.append(text)
        size += view
    return found


def page_text(head: Json, frames: Sequence[str], tail: Json) -> str:
    """`json.dumps({**head, "frames": [...], **tail})`, the frames given in JSON already:
    a page cut from kept chunks is sent without encoding its views again."""
    return f'{json.dumps(head)[:-1]}, "frames": [{", ".join(frames)}], {json.dumps(tail)[1:]}'
