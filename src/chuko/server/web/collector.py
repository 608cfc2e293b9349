"""The garbage collector's schedule while the server runs.

CPython 3.11 stops everything for a full collection, which walks every object it tracks: at
a thousand games at a time that is every socket, room and state, and a long pause
(docs/performance.md, "Memory and pauses", gives the figures and the bench that measures
them). By default it runs one whenever a quarter as many objects as the heap holds have
lived through two young collections, which rooms and sockets coming and going do every few
seconds, although almost none of them are garbage in cycles by then (a full collection at
load finds very few of them): objects of a finished room or a closed socket are freed by
reference counting as they go. That holds for uvicorn's connections only as `connections.py`
serves them: as shipped, each closed WebSocket left a cycle that waited in the oldest
generation for the next full collection, so memory grew with traffic between two of them.

So while a server runs:
- everything built before it serves (modules, the app, the registry's games) is frozen
  (`gc.freeze`): permanent, never walked again;
- a full collection waits for `FULL_AFTER` collections of the middle generation (with the
  same quarter rule as before). Those come with allocations, so the garbage in cycles that
  waits for it stays in proportion to the work done: at a thousand games at a time that is
  a rare full collection (docs/performance.md says how often, and its pause), at an idle
  server hardly ever;
- the middle generation is collected more often, so each of its pauses is shorter
  (`MIDDLE_AFTER`). The youngest keeps its threshold: raising it only makes its pauses
  longer.
Settings are process-wide, so they are made when the first app starts and undone when the
last one stops (tests run many apps in one process).
"""

from __future__ import annotations

import gc

# Young collections before a collection of the middle generation (CPython's default: 10).
# Its collections walk what survived the young ones since the last (new sockets' handshakes,
# the futures of sockets waiting for their next message): after 2, a fifth of what they walk
# after 10, as often again (docs/performance.md has both pauses).
MIDDLE_AFTER = 2
# Collections of the middle generation before a full one may run (CPython's default: 10).
FULL_AFTER = 5000

_running = 0
_before: tuple[int, int, int] | None = None


def start() -> None:
    """The server starts serving: freeze what exists, and make full collections rare."""
    global _running, _before
    _running += 1
    if _running > 1:
        return
    gc.collect()
    gc.freeze()
    _before = gc.get_threshold()
    gc.set_threshold(_before[0], MIDDLE_AFTER, FULL_AFTER)


def stop() -> None:
    """The server stops: the collector as it was."""
    global _running, _before
    _running -= 1
    if _running > 0 or _before is None:
        return
    gc.set_threshold(*_before)
    _before = None
    gc.unfreeze()
