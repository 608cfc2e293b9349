"""The reference searches in pure Python: the backend that always works, and the one the
compiled kernels (solvers/kernels.py) are checked against.

Both memoise on what decides the future: the cards taken per row (encoding.taken_index)
and the ends as classes. Crossroads: each player's two trail ends, as an unordered pair.
Caravan: the caravan's two ends (a class, a bridge, or nothing yet) and the bridges used.
"""

from __future__ import annotations

from . import Backend, Classes, Ends, Match
from .encoding import CARDS_LEFT, STEPS


class CrossroadsReference:
    """Negamax over one layout's classes, memoised on (taken, my ends, their ends, round)."""

    def __init__(self, classes: Classes, match: Match) -> None:
        self.classes = classes
        count = len(match)
        self.empty = count  # the class code that stands for "no trail yet"
        self.width = count + 1
        self.pairs = self.width * self.width
        # gain[c][a] = 1 when a card of class c scores beside an end of class a
        self.gain = [[int(m) for m in row] + [0] for row in match]
        self.memo: dict[int, int] = {}
        self.fresh: int | None = None

    def future(self, taken: int, mine: Ends, theirs: Ends, last_round: bool) -> int:
        return self._future(taken, self._code(*mine), self._code(*theirs), last_round)

    def _code(self, left: int, right: int) -> int:
        """Two ends as one number, the same in either order."""
        return left * self.width + right if left <= right else right * self.width + left

    def _fresh(self) -> int:
        """The value of a whole single round for its first player."""
        if self.fresh is None:
            empty = self._code(self.empty, self.empty)
            self.fresh = self._future(0, empty, empty, True)
        return self.fresh

    def _future(self, taken: int, mine: int, theirs: int, last_round: bool) -> int:
        key = ((taken * self.pairs + mine) * self.pairs + theirs) * 2 + last_round
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        steps = STEPS[taken]
        if not steps:
            # ruling C3: a two-round match replays the layout with the other player first,
            # who is the one not to move now.
            best = 0 if last_round else -self._fresh()
            memo[key] = best
            return best
        classes, gain, width, empty = self.classes, self.gain, self.width, self.empty
        left, right = divmod(mine, width)
        best = -99
        for position, after in steps:
            card = classes[position]
            if left == empty:
                value = -self._future(after, theirs, card * width + card, last_round)
            else:
                # ruling C2: 1 point when the card matches the end it goes beside
                row = gain[card]
                code = card * width + right if card <= right else right * width + card
                value = row[left] - self._future(after, theirs, code, last_round)
                if left != right:
                    code = left * width + card if left <= card else card * width + left
                    other = row[right] - self._future(after, theirs, code, last_round)
                    if other > value:
                        value = other
            if value > best:
                best = value
        memo[key] = best
        return best


class CaravanReference:
    """Depth-first search over one layout's classes, remembering the positions proved lost."""

    def __init__(self, classes: Classes, match: Match, bridges: int) -> None:
        self.classes = classes
        self.match = match
        self.limit = bridges
        self.bridge = len(match)
        self.empty = self.bridge + 1
        self.span = self.empty + 1
        self.lost: set[int] = set()

    def winnable_from(self, taken: int, left: int, right: int, used: int) -> bool:
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
                if win(after, card, card, used):  # ruling V1: the first card goes face up
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


BACKEND = Backend("reference", CrossroadsReference, CaravanReference)
