"""What the bots and advisers of the two layout games (Crossroads, Caravan) share.

Both games show every card, so a bot rebuilds the position from its view with the game's
`state_from_view` and asks the engine, or the exact solver, about each legal move:

- random: any legal move.
- easy: greedy, the move that looks best at once.
- hard: a few plies of lookahead on the engine, without the solver; greedy breaks ties.
- perfect: the exact solver.

Each game's module (bots/crossroads.py, bots/caravan.py) says what "best" means there, and
reviews a finished game's moves with the same solver (`reviewing.review_moves`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from random import Random
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from chuko.core.layout import LayoutMove
from chuko.core.protocol import Json


class Position(Protocol):
    """What the shared code reads of a layout game's engine state."""

    @property
    def game(self) -> Hashable: ...

    @property
    def layout(self) -> tuple[int, ...]: ...

    @property
    def to_move(self) -> tuple[int, ...]: ...

    def play(self, seat: int, move: Any) -> None: ...

    def copy(self) -> Self: ...


S = TypeVar("S", bound=Position)
T = TypeVar("T")


def played(state: S, seat: int, move: LayoutMove) -> S:
    """A copy of `state` after `seat` plays `move`."""
    after = state.copy()
    after.play(seat, move)
    return after


class DealSolver(Generic[S, T]):
    """The solver of the deal in play: one solver serves every position of its deal, and is
    made again only when a new deal (or configuration) comes."""

    def __init__(self, make: Callable[[S], T]) -> None:
        self.make = make
        self.key: tuple[Hashable, tuple[int, ...]] | None = None
        self.solver: T | None = None

    def __call__(self, state: S) -> T:
        key = (state.game, state.layout)
        if self.solver is None or key != self.key:
            self.key, self.solver = key, self.make(state)
        return self.solver


class LayoutBot(ABC, Generic[S]):
    """A layout game's bot at one level (see the module's docstring)."""

    # plies the hard bot searches after the move it scores
    depth: ClassVar[int]

    def __init__(self, level: str, rng: Random) -> None:
        self.level = level
        self.rng = rng

    def choose(self, view: Json, legal_moves: list[LayoutMove]) -> LayoutMove:
        if self.level == "random" or len(legal_moves) == 1:
            return self.rng.choice(legal_moves)
        state = self.position(view)
        scores = self.scores(state, legal_moves)
        top = max(scores)
        return self.rng.choice([m for m, s in zip(legal_moves, scores, strict=True) if s == top])

    def scores(self, state: S, moves: list[LayoutMove]) -> list[Any]:
        """How much the bot likes each move (higher is better)."""
        if self.level == "perfect":
            values = self.perfect(state)
            return [values[m] for m in moves]
        seat = state.to_move[0]
        if self.level == "hard":
            return [
                (self.search(played(state, seat, m), seat, self.depth), self.greedy(state, m))
                for m in moves
            ]
        return [self.greedy(state, m) for m in moves]

    @abstractmethod
    def position(self, view: Json) -> S:
        """The engine position `view` shows."""

    @abstractmethod
    def perfect(self, state: S) -> Mapping[LayoutMove, Any]:
        """The exact solver's value of every legal move."""

    @abstractmethod
    def greedy(self, state: S, move: LayoutMove) -> tuple[Any, ...]:
        """How good `move` looks at once, for the player to move."""

    @abstractmethod
    def search(self, state: S, seat: int, depth: int) -> float:
        """How good `state` is for `seat`, `depth` plies deep."""
