"""Exact solvers for the perfect-information layout games.

A solver answers questions about engine positions (solvers/crossroads.py,
solvers/caravan.py) and leaves the search itself to a backend, chosen once when the
solver is made: the reference search in pure Python (solvers/reference.py) or the
compiled numba kernels (solvers/kernels.py), which need the optional `fast` extra. Both
search the same compact encoding (solvers/encoding.py); ruling-level logic lives in the
games' modules, and the tests compare every backend with exhaustive search on the engines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol

# A layout's compact encoding (encoding.card_classes): each position's class, and which
# classes match.
Classes = list[int]
Match = list[list[bool]]
# A trail's or caravan's two end codes, in either order.
Ends = tuple[int, int]


class CrossroadsSearch(Protocol):
    """The Crossroads search over one layout's classes; end code len(match) is no trail."""

    def future(self, taken: int, mine: Ends, theirs: Ends, last_round: bool) -> int:
        """Best (my future points − theirs) for the player to move (ruling C4)."""
        ...


class CaravanSearch(Protocol):
    """The Caravan search over one layout's classes under one bridge limit; end code
    len(match) is a bridge and len(match) + 1 no caravan yet."""

    def winnable_from(self, taken: int, left: int, right: int, used: int) -> bool:
        """Whether the position can still be won with `used` bridges already placed."""
        ...


@dataclass(frozen=True)
class Backend:
    """One way to search: a factory of each game's search for one layout."""

    name: str
    crossroads: Callable[[Classes, Match], CrossroadsSearch]
    caravan: Callable[[Classes, Match, int], CaravanSearch]


def load_kernels() -> ModuleType | None:
    """The compiled kernels (solvers/kernels.py), or None when numba, the optional `fast`
    extra, is not installed. Imported on first use: numba takes a while to load."""
    try:
        from . import kernels
    except ImportError:
        return None
    return kernels


def warm_up() -> None:
    """Load the compiled kernels and compile each entry point now (or load it from numba's
    on-disk cache), so the first search does not wait for them; nothing without numba.
    Seconds the first time after an install, under one after (the server does this in a
    thread as it starts)."""
    kernels = load_kernels()
    if kernels is not None:
        kernels.warm_up()


def default_backend() -> Backend:
    """The compiled kernels when numba loads, else the reference search."""
    kernels = load_kernels()
    if kernels is not None:
        compiled: Backend = kernels.BACKEND
        return compiled
    from .reference import BACKEND

    return BACKEND
