"""Exact Crossroads values (ruling C4): own points minus the opponent's at the end, under
perfect play by both, seen from the player to move.

Future points depend only on which cards remain and on each player's two trail ends, so
the search (a backend's, see solvers/__init__.py) is asked about (cards taken per row, my
ends, their ends), with ends reduced to factor-set classes. Points already scored are
added on top.
"""

from __future__ import annotations

from chuko.core.layout import LayoutMove
from chuko.games.crossroads import CrossroadsState

from . import Backend, Ends, default_backend
from .encoding import card_classes, taken_index


class CrossroadsSolver:
    """Solves every position of one layout; reuse it for many positions of that deal.
    The search runs on `backend`, by default the compiled kernels when numba is installed
    and the reference search otherwise."""

    def __init__(self, layout: tuple[int, ...], *, backend: Backend | None = None) -> None:
        self.layout = layout
        self.backend = backend or default_backend()
        self.classes, match = card_classes(layout)
        self.empty = len(match)  # the class code that stands for "no trail yet"
        self.search = self.backend.crossroads(self.classes, match)

    def fresh_value(self) -> int:
        """The value of a whole single round for its first player."""
        return self.search.future(0, (self.empty, self.empty), (self.empty, self.empty), True)

    # -- engine positions ------------------------------------------------------------------

    def _ends(self, trail: list[int]) -> Ends:
        if not trail:
            return self.empty, self.empty
        return self._class_of(trail[0]), self._class_of(trail[-1])

    def _class_of(self, card: int) -> int:
        return self.classes[self.layout.index(card)]

    def value(self, state: CrossroadsState) -> int:
        """C4 value of an engine position (which must be of this layout) for the player to
        move, points already scored included; for a finished game, seen from seat 0."""
        totals = state.totals()
        if not state.to_move:
            return totals[0] - totals[1]
        seat = state.to_move[0]
        future = self.search.future(
            taken_index(state.taken),
            self._ends(state.trails[seat]),
            self._ends(state.trails[1 - seat]),
            state.round == state.game.rounds - 1,
        )
        return totals[seat] - totals[1 - seat] + future

    def move_values(self, state: CrossroadsState) -> dict[LayoutMove, int]:
        """Every legal move → the value of the position after it, seen from the mover."""
        seat = state.to_move[0]
        values = {}
        for move in state.legal_moves(seat):
            after = state.copy()
            after.play(seat, move)
            if after.to_move == (seat,):  # only after a round ends does the same seat go on
                values[move] = self.value(after)
            elif not after.to_move:
                totals = after.totals()
                values[move] = totals[seat] - totals[1 - seat]
            else:
                values[move] = -self.value(after)
        return values


def solve_layout(layout: tuple[int, ...]) -> int:
    """Value of a fresh single-round layout for the first player."""
    return CrossroadsSolver(layout).fresh_value()
