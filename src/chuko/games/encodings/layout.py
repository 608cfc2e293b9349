"""What the Crossroads and Caravan encodings share: the numbering of layout moves and the
features of the 4×3 layout, read from a view.

An action is a layout position (A–L, 0–11) and one of the game's kinds of placement, in a
fixed order: action = position × len(kinds) + kind. Cards themselves are arbitrary whole
numbers and only whether two of them match (share a prime factor, ruling G1) matters to
the rules, so the observation describes cards by their matches, never by their values.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from chuko.core.errors import ParseError
from chuko.core.layout import SIZE, LayoutMove, parse_layout
from chuko.core.numbers import matches
from chuko.core.protocol import Json, State
from chuko.core.text import Text

# Placement kinds: (end, bridge).
Kind = tuple[str | None, bool]

# present (12), available (12) and the 12×12 match matrix of the deal's cards.
LAYOUT_FEATURES = 2 * SIZE + SIZE * SIZE
# Each move takes one card of the layout, so a layout lasts at most this many moves.
MOVES_PER_LAYOUT = SIZE


class LayoutActions:
    """Layout moves numbered position × len(kinds) + kind."""

    def __init__(self, kinds: Sequence[Kind]) -> None:
        self.kinds = tuple(kinds)
        self.num_actions = SIZE * len(self.kinds)
        self._index = {kind: number for number, kind in enumerate(self.kinds)}

    def action(self, move: Any) -> int:
        if isinstance(move, str):
            move = LayoutMove.parse(move)
        if not isinstance(move, LayoutMove) or (move.end, move.bridge) not in self._index:
            raise ParseError(Text("{move} is not a move of this game.", move=move))
        return move.position * len(self.kinds) + self._index[move.end, move.bridge]

    def move(self, action: int) -> LayoutMove:
        if not isinstance(action, int | np.integer) or not 0 <= action < self.num_actions:
            raise ParseError(Text("{action!r} is not an action from 0 to {last}.", action=action,
                                  last=self.num_actions - 1))
        position, kind = divmod(int(action), len(self.kinds))
        end, bridge = self.kinds[kind]
        return LayoutMove(position, end, bridge)

    def legal_mask(self, state: State, seat: int) -> Any:
        """The engine's legal moves, as a mask."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        for move in state.legal_moves(seat):
            mask[self.action(move)] = 1
        return mask


@lru_cache(maxsize=256)
def _deal(deal: str) -> tuple[tuple[int, ...], Any]:
    """A deal's cards and their match matrix (read once per deal)."""
    cards = parse_layout(deal)
    values = np.array(cards, dtype=np.int64)
    grid = (np.gcd.outer(values, values) > 1).astype(np.float32)  # ruling G1
    grid.flags.writeable = False
    return cards, grid.ravel()


def layout_features(view: Json, into: Any) -> tuple[int, ...]:
    """Write present, available and the deal's match matrix into `into` (LAYOUT_FEATURES
    floats); returns the deal's cards by position."""
    cards, grid = _deal(view["deal"])
    into[:SIZE] = [card is not None for card in view["layout"]]
    for text in view["available"]:
        into[SIZE + LayoutMove.parse(text).position] = 1
    into[2 * SIZE : LAYOUT_FEATURES] = grid
    return cards


@lru_cache(maxsize=4096)  # a dozen ends a deal: the recent deals' rows, worked out once
def match_row(cards: tuple[int, ...], end: int | None) -> Any:
    """Whether each card of the deal matches `end` (all 0 without an end), as a read-only
    float32 array."""
    row = np.array([end is not None and matches(card, end) for card in cards],
                   dtype=np.float32)
    row.flags.writeable = False
    return row
