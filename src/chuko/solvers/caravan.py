"""Exact Caravan solving: can this position still be won, and how (rulings V1–V4)?

What can still happen depends only on the cards taken per row, the two ends of the
caravan (a factor-set class, a bridge, or nothing yet) and the bridges used; the search
(a backend's, see solvers/__init__.py) is asked about exactly that.
"""

from __future__ import annotations

from chuko.core.layout import SIZE, LayoutMove
from chuko.games.caravan import CaravanState

from . import Backend, default_backend
from .encoding import card_classes, taken_index


class CaravanSolver:
    """Decides every position of one layout under one bridge limit. The search runs on
    `backend`, by default the compiled kernels when numba is installed and the reference
    search otherwise."""

    def __init__(
        self, layout: tuple[int, ...], bridges: int, *, backend: Backend | None = None
    ) -> None:
        self.layout = layout
        self.limit = bridges
        self.backend = backend or default_backend()
        self.classes, match = card_classes(layout)
        self.bridge = len(match)  # end codes: a class, a bridge, or no caravan yet
        self.empty = self.bridge + 1
        self.search = self.backend.caravan(self.classes, match, bridges)

    def fresh(self) -> bool:
        """Whether the deal can be won from the start."""
        return self.search.winnable_from(0, self.empty, self.empty, 0)

    # -- engine positions ------------------------------------------------------------------

    def _end_code(self, piece: tuple[int, bool]) -> int:
        card, face_up = piece
        return self.classes[self.layout.index(card)] if face_up else self.bridge

    def winnable(self, state: CaravanState) -> bool:
        """Whether an engine position (of this layout) can still be won."""
        if state.outcome is not None:
            return bool(state.outcome.winners)
        if not state.caravan:
            left = right = self.empty
        else:
            left, right = self._end_code(state.caravan[0]), self._end_code(state.caravan[-1])
        return self.search.winnable_from(
            taken_index(state.taken), left, right, state.bridges_used
        )

    def options(self, state: CaravanState) -> dict[LayoutMove, bool]:
        """Every legal move → whether a win is still possible after it."""
        values = {}
        for move in state.legal_moves(0):
            after = state.copy()
            after.play(0, move)
            values[move] = self.winnable(after)
        return values

    def solution(self, state: CaravanState) -> list[LayoutMove] | None:
        """Moves that win from `state`, or None when it cannot be won."""
        if not self.winnable(state):
            return None
        state = state.copy()
        moves = []
        while len(state.caravan) < SIZE:
            move = next(m for m, wins in self.options(state).items() if wins)
            state.play(0, move)
            moves.append(move)
        return moves
