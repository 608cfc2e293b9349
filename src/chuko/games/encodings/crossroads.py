"""Crossroads for research environments (core/encoding.py).

Actions: 36, position × 3 + kind, where position is A–L (0–11) and kind is 0 the letter
alone (a first card), 1 the left end (`AL`), 2 the right end (`AR`). Nothing is hidden, so
the information state is the deal, the first player, the rounds and the moves.

Observation: 225 float32, from the view of `seat` ("me"; "them" is the other seat):

| index   | what                                                                   |
| ------- | ---------------------------------------------------------------------- |
| 0–11    | the card at each position is still in the layout                       |
| 12–23   | the card at each position is available now                             |
| 24–167  | the deal's match matrix: 24 + 12·i + j is 1 when cards i and j match   |
| 168–179 | each position's card matches my trail's left end (0 for an empty trail)|
| 180–191 | … my right end                                                         |
| 192–203 | … their left end                                                       |
| 204–215 | … their right end                                                      |
| 216     | my trail is empty                                                      |
| 217     | their trail is empty                                                   |
| 218     | my points this round / 5                                               |
| 219     | their points this round / 5                                            |
| 220     | my total / (5 × rounds)                                                |
| 221     | their total / (5 × rounds)                                             |
| 222     | this is a match's second round                                         |
| 223     | the game is a two-round match                                          |
| 224     | it is my turn                                                          |

Every value lies in [0, 1] (`observation_bounds`): flags are 0 or 1, and each count is
divided by the most it can reach (a round's 5 points, a game's 5 × rounds).

Utilities: a seat's score is its points over the game, 0 to 5 per round (ruling C2: six
cards, the first scores nothing).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chuko.core.protocol import Json, State
from chuko.games.crossroads import Crossroads

from .layout import LAYOUT_FEATURES, MOVES_PER_LAYOUT, LayoutActions, layout_features, match_row

KINDS = ((None, False), ("L", False), ("R", False))
ROUND_POINTS = 5  # six cards a round, the first scoring nothing
SIZE = LAYOUT_FEATURES + 4 * 12 + 9


class CrossroadsEncoding(LayoutActions):
    observation_shape = (SIZE,)
    observation_dtype = "float32"
    observation_bounds = (0.0, 1.0)  # flags, matches, and points over their greatest

    def __init__(self, game: Crossroads) -> None:
        super().__init__(KINDS)
        self.game = game
        self.min_utility = 0.0
        self.max_utility = float(ROUND_POINTS * game.rounds)
        # Every round takes the whole layout, one card a move, and nothing after the deal
        # is chance (a match's second round lays out the same cards).
        self.max_game_length = MOVES_PER_LAYOUT * game.rounds

    def legal_mask(self, state: State, seat: int, partial: Any = None) -> Any:
        return super().legal_mask(state, seat)

    def observation(self, view: Json, partial: Any = None) -> Any:
        out = np.zeros(SIZE, dtype=np.float32)
        cards = layout_features(view, out)
        me = view["seat"]
        at = LAYOUT_FEATURES
        for trail in (view["trails"][me], view["trails"][1 - me]):
            for end in (trail[0] if trail else None, trail[-1] if trail else None):
                out[at : at + 12] = match_row(cards, end)
                at += 12
        points, totals = view["points"][-1], view["totals"]
        top = ROUND_POINTS * view["rounds"]
        out[at:] = [
            not view["trails"][me], not view["trails"][1 - me],
            points[me] / ROUND_POINTS, points[1 - me] / ROUND_POINTS,
            totals[me] / top, totals[1 - me] / top,
            view["round"] == 2, view["rounds"] == 2, me in view["to_move"],
        ]
        return out

    def information_state(self, view: Json) -> str:
        return (f"seat {view['seat']} | {view['deal']} | first {view['first']} | "
                f"rounds {view['rounds']} | {' '.join(view['moves'])}")

    def step_move(self, partial: Any, action: int) -> tuple[Any, Any]:
        return None, self.move(action)

    def truncated(self, state: State) -> bool:
        return False  # Crossroads always ends by its rules


def encoding(game: Crossroads) -> CrossroadsEncoding:
    return CrossroadsEncoding(game)
