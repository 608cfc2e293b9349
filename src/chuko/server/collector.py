"""The garbage collector's schedule while the server runs.

CPython 3.11 stops everything for a full collection, which walks every object it tracks:
with a thousand games at a time that is a few hundred thousand (sockets, rooms, states), and
a walk of 60 to 400 ms. By default it runs one whenever a quarter as many objects as the
heap holds have lived through two young collections, which rooms and sockets coming and
going do every few seconds, although almost none of them are garbage in cycles by then
(a full collection at load finds tens to hundreds, of those hundreds of thousands):
objects of a finished room or a closed socket are freed by reference counting as they go.

So while a server runs:
- everything built before it serves (modules, the app, the registry's games) is frozen
  (`gc.freeze`): permanent, never walked again;
- a full collection waits for `FULL_AFTER` collections of the middle generation instead of
  10 (with the same quarter rule as before). Those come with allocations, so the garbage
  in cycles that waits for it stays in proportion to the work done: at a thousand games at
  a time that is one full collection every few minutes, at an idle server hardly ever.

The young generations keep their thresholds: raising them only makes their pauses longer.
Settings are process-wide, so they are made when the first app starts and undone when the
last one stops (tests run many apps in one process).
"""

from __future__ import annotations

import gc

FULL_AFTER = 1000  # collections of the middle generation before a full one may run

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
    gc.set_threshold(_before[0], _before[1], FULL_AFTER)


def stop() -> None:
    """The server stops: the collector as it was."""
    global _running, _before
    _running -= 1
    if _running > 0 or _before is None:
        return
    gc.set_threshold(*_before)
    _before = None
    gc.unfreeze()
