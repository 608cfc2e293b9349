"""Caravan for research environments (core/encoding.py).

Actions: 60, position × 5 + kind, where position is A–L (0–11) and kind is 0 the letter
alone (the first card), 1 face up at the left end (`AL`), 2 face up at the right end
(`AR`), 3 a bridge at the left end (`AL*`), 4 a bridge at the right end (`AR*`). Nothing is
hidden, so the information state is the deal, the bridge limit and the moves.

Observation: 200 float32, from the player's view:

| index   | what                                                                    |
| ------- | ----------------------------------------------------------------------- |
| 0–11    | the card at each position is still in the layout                        |
| 12–23   | the card at each position is available now                              |
| 24–167  | the deal's match matrix: 24 + 12·i + j is 1 when cards i and j match    |
| 168–179 | each position's card matches the caravan's left end (0 if it is a bridge)|
| 180–191 | … the right end                                                         |
| 192     | the caravan is empty                                                    |
| 193     | the left end is a bridge                                                |
| 194     | the right end is a bridge                                               |
| 195     | cards in the caravan / 12                                               |
| 196     | bridges used / 11 (the greatest limit)                                  |
| 197     | bridges left / 11                                                       |
| 198     | no bridge is left                                                       |
| 199     | the bridge limit / 11                                                   |

Every value lies in [0, 1] (`observation_bounds`): flags are 0 or 1, and each count is
divided by the most it can reach in any configuration (12 cards; 11 bridges, the greatest
limit, so that one scale serves every limit).

Utilities: 1 for a win, 0 otherwise (ruling V4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chuko.core.protocol import Json, State
from chuko.games.caravan import MAX_BRIDGES, Caravan

from .layout import LAYOUT_FEATURES, MOVES_PER_LAYOUT, LayoutActions, layout_features, match_row

KINDS = ((None, False), ("L", False), ("R", False), ("L", True), ("R", True))
SIZE = LAYOUT_FEATURES + 2 * 12 + 8


class CaravanEncoding(LayoutActions):
    observation_shape = (SIZE,)
    observation_dtype = "float32"
    observation_bounds = (0.0, 1.0)
    min_utility = 0.0
    max_utility = 1.0
    observation_bounds = (0.0, 1.0)  # flags, matches, and counts over their greatest
    # At most one move per card of the layout, and no chance after the deal.
    max_game_length = MOVES_PER_LAYOUT

    def __init__(self, game: Caravan) -> None:
        super().__init__(KINDS)
        self.game = game

    def legal_mask(self, state: State, seat: int, partial: Any = None) -> Any:
        return super().legal_mask(state, seat)

    def observation(self, view: Json, partial: Any = None) -> Any:
        out = np.zeros(SIZE, dtype=np.float32)
        cards = layout_features(view, out)
        caravan = view["caravan"]
        at = LAYOUT_FEATURES
        for end in (caravan[0], caravan[-1]) if caravan else ():
            out[at : at + 12] = match_row(cards, end["card"] if end["face_up"] else None)
            at += 12
        at = LAYOUT_FEATURES + 24
        used, limit = view["bridges_used"], view["bridges"]
        out[at:] = [
            not caravan,
            bool(caravan) and not caravan[0]["face_up"],
            bool(caravan) and not caravan[-1]["face_up"],
            len(caravan) / 12, used / MAX_BRIDGES, (limit - used) / MAX_BRIDGES,
            used >= limit, limit / MAX_BRIDGES,
        ]
        return out

    def information_state(self, view: Json) -> str:
        return f"{view['deal']} | bridges {view['bridges']} | {' '.join(view['moves'])}"

    def step_move(self, partial: Any, action: int) -> tuple[Any, Any]:
        return None, self.move(action)

    def truncated(self, state: State) -> bool:
        return False  # Caravan always ends by its rules


def encoding(game: Caravan) -> CaravanEncoding:
    return CaravanEncoding(game)
