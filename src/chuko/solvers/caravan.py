"""Exact Caravan solving: can this position still be won, and how (rulings V1–V4)?

What can still happen depends only on the cards taken per row, the two ends of the
caravan (a factor-set class, a bridge, or nothing yet) and the bridges used, so a
depth-first search remembers the positions it has proved lost.
"""

from __future__ import annotations

from chuko.core.layout import SIZE, LayoutMove
from chuko.games.caravan import CaravanState

from . import load_kernels
from .encoding import CARDS_LEFT, STEPS, card_classes, taken_index


class CaravanSolver:
    """Decides every position of one layout under one bridge limit. With `compiled` (the
    default) the search runs in the numba kernel when numba is installed; the Python
    search below is the reference and the fallback."""

    def __init__(self, layout: tuple[int, ...], bridges: int, *, compiled: bool = True) -> None:
        self.layout = layout
        self.limit = bridges
        self.classes, self.match = card_classes(layout)
        self.bridge = len(self.match)
        self.empty = self.bridge + 1
        self.lost: set[int] = set()
        self.span = self.empty + 1
        kernels = load_kernels() if compiled else None
        if kernels is not None:
            kernel = kernels.CaravanKernel(self.classes, self.match, bridges)
            self.winnable_from = kernel.winnable_from

    def winnable_from(self, taken: int, left: int, right: int, used: int) -> bool:
        """Whether the position (ends in either order) can still be won."""
        if left > right:
            left, right = right, left
        bridge = self.bridge
        steps = STEPS[taken]
        if not steps:
            return right != bridge  # ruling V4: both ends face up (left <= right)
        if right == bridge and (left == bridge) + 1 > CARDS_LEFT[taken]:
            return False  # each open bridge still needs a card beyond it
        span = self.span
        key = ((taken * span + left) * span + right) * 16 + used
        if key in self.lost:
            return False
        classes, match, win = self.classes, self.match, self.winnable_from
        for position, after in steps:
            card = classes[position]
            if left == self.empty:
                if win(after, card, card, used):
                    return True
                continue
            row = match[card]
            # face up beside a bridge (anything goes) or beside a matching card (ruling V2)
            if (left == bridge or row[left]) and win(after, card, right, used):
                return True
            if right != left and (right == bridge or row[right]) and win(after, left, card, used):
                return True
            # face down beside a face-up end (ruling V3)
            if used < self.limit:
                if left != bridge and win(after, bridge, right, used + 1):
                    return True
                if right != left and right != bridge and win(after, left, bridge, used + 1):
                    return True
        self.lost.add(key)
        return False

    def fresh(self) -> bool:
        """Whether the deal can be won from the start."""
        return self.winnable_from(0, self.empty, self.empty, 0)

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
        return self.winnable_from(taken_index(state.taken), left, right, state.bridges_used)

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
