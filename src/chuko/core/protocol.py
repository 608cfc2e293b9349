"""The one protocol every game offers (see DESIGN.md, 'One protocol for four games').

A `Game` is a frozen, validated configuration; `Game.new(seed)` deals a `State`.
A state says who must act (`to_move`), lists and applies moves, shows each seat
what it may see (`view`), and writes its whole history as a JSON `record()` that
`Game.replay` reads back, re-checking every move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from .errors import IllegalMove

Json = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: points per seat, the winning seats (empty for a draw or
    no winner) and a sentence saying why it ended."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> Json:
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason}


class Game(ABC):
    """A game's rules under one configuration. Subclasses are frozen dataclasses."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]  # one line for menus
    # False where the legal moves are too many to list (Chuchula's ~200,000 groupings):
    # front ends then send no list, and bots build their move from the view.
    lists_moves: ClassVar[bool] = True
    min_players: ClassVar[int]
    max_players: ClassVar[int | None]

    @abstractmethod
    def new(self, seed: int | None = None) -> State:
        """Deal a new game; reproducible with a seed, secret (SystemRandom) without."""

    @classmethod
    @abstractmethod
    def replay(cls, record: Json) -> State:
        """Rebuild a state from `State.record()`, re-checking every move."""

    @staticmethod
    @abstractmethod
    def parse_move(text: str) -> Any:
        """A move from what a person types; raises ParseError with a hint."""

    @property
    @abstractmethod
    def players(self) -> int:
        """The number of seats."""


class State(ABC):
    """One position of a game. Seats are numbered from 0."""

    game: Game

    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """The seats that must act now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Any]:
        """Every legal move of `seat`, sorted; empty when it is not that seat's turn."""

    def random_move(self, seat: int, rng: Random) -> Any:
        """A uniformly random legal move; games with huge move lists override this."""
        return rng.choice(self.legal_moves(seat))

    def play(self, seat: int, move: Any) -> None:
        """Apply a move (a move value or its text) or raise IllegalMove, leaving the state as
        it was."""
        if isinstance(move, str):
            move = self.game.parse_move(move)
        if self.outcome is not None:
            raise IllegalMove("The game is over.")
        if seat not in self.to_move:
            raise IllegalMove(f"It is not seat {seat}'s turn.")
        self._apply(seat, move)

    @abstractmethod
    def _apply(self, seat: int, move: Any) -> None:
        """Check `move` for `seat` (whose turn it is) and apply it, or raise IllegalMove before
        changing anything."""

    @abstractmethod
    def view(self, seat: int | None) -> Json:
        """What `seat` may see (None: a spectator), JSON-ready."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def record(self) -> Json:
        """The whole game: configuration, deal, moves and chance events, JSON-ready."""

    @abstractmethod
    def cards(self) -> list[Any]:
        """Every card the game holds now wherever it lies, sorted: the conformance suite
        checks that no card appears or vanishes (engine-side; players get `view`)."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy, cheap enough for search."""
