"""Exact Crossroads values (ruling C4): own points minus the opponent's at the end, under
perfect play by both, seen from the player to move.

Future points depend only on which cards remain and on each player's two trail ends, so
a position's future is memoised on (cards taken per row, my ends, their ends), with ends
reduced to factor-set classes. Points already scored are added on top.
"""

from __future__ import annotations

from chuko.core.layout import LayoutMove
from chuko.games.crossroads import CrossroadsState

from . import load_kernels
from .encoding import STEPS, card_classes, taken_index


class CrossroadsSolver:
    """Solves every position of one layout; reuse it for many positions of that deal.
    With `compiled` (the default) the search runs in the numba kernel when numba is
    installed; the Python search below is the reference and the fallback."""

    def __init__(self, layout: tuple[int, ...], *, compiled: bool = True) -> None:
        self.layout = layout
        self.classes, match = card_classes(layout)
        count = len(match)
        self.empty = count  # the class index that stands for "no trail yet"
        self.width = count + 1
        pairs = self.width * self.width
        self.pairs = pairs
        self.memo: dict[int, int] = {}
        # gain[c][a] = 1 when a card of class c scores beside an end of class a
        self.gain = [[int(m) for m in row] + [0] for row in match]
        self.fresh: int | None = None
        kernels = load_kernels() if compiled else None
        if kernels is not None:
            self.kernel = kernels.CrossroadsKernel(self.classes, match)
            self.future = self._compiled_future

    def _compiled_future(self, taken: int, mine: int, theirs: int, last_round: bool) -> int:
        width = self.width
        return self.kernel.future(taken, divmod(mine, width), divmod(theirs, width), last_round)

    def ends_code(self, left: int, right: int) -> int:
        return left * self.width + right if left <= right else right * self.width + left

    def future(self, taken: int, mine: int, theirs: int, last_round: bool) -> int:
        """Best (my future points − theirs) for the player to move."""
        key = ((taken * self.pairs + mine) * self.pairs + theirs) * 2 + last_round
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        steps = STEPS[taken]
        if not steps:
            # ruling C3: a two-round match replays the layout with the other player first,
            # who is the one not to move now.
            best = 0 if last_round else -self.fresh_value()
            memo[key] = best
            return best
        classes, gain, width, empty = self.classes, self.gain, self.width, self.empty
        left, right = divmod(mine, width)
        best = -99
        for position, after in steps:
            card = classes[position]
            if left == empty:
                value = -self.future(after, theirs, card * width + card, last_round)
            else:
                row = gain[card]
                code = card * width + right if card <= right else right * width + card
                value = row[left] - self.future(after, theirs, code, last_round)
                if left != right:
                    code = left * width + card if left <= card else card * width + left
                    other = row[right] - self.future(after, theirs, code, last_round)
                    if other > value:
                        value = other
            if value > best:
                best = value
        memo[key] = best
        return best

    def fresh_value(self) -> int:
        """The value of a whole single round from its start."""
        if self.fresh is None:
            empty = self.ends_code(self.empty, self.empty)
            self.fresh = self.future(0, empty, empty, True)
        return self.fresh

    # -- engine positions ------------------------------------------------------------------

    def _trail_code(self, trail: list[int]) -> int:
        if not trail:
            return self.ends_code(self.empty, self.empty)
        return self.ends_code(self._class_of(trail[0]), self._class_of(trail[-1]))

    def _class_of(self, card: int) -> int:
        return self.classes[self.layout.index(card)]

    def value(self, state: CrossroadsState) -> int:
        """C4 value of an engine position (which must be of this layout) for the player to
        move, points already scored included; for a finished game, seen from seat 0."""
        if not state.to_move:
            totals = state.totals()
            return totals[0] - totals[1]
        seat = state.to_move[0]
        totals = state.totals()
        last_round = state.round == state.game.rounds - 1
        future = self.future(
            taken_index(state.taken),
            self._trail_code(state.trails[seat]),
            self._trail_code(state.trails[1 - seat]),
            last_round,
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
