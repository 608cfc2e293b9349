"""The contract of a game's encoding for research environments (docs/envs.md).

Each game that offers environments names a factory in its descriptor (`encoding`,
"module:factory"); `factory(game)` returns an object with this surface for that one
configuration. Encodings live beside the engines (chuko/games/encodings/), import only
their game and numpy, and build observations from `view(seat)` alone, so a learner sees no
more than a person in that seat would.

Actions are integers in range(num_actions), fixed for the configuration. A game whose moves
are too many to number (Chuchula's groupings) builds a move in several steps: `step_move`
folds one action into a partial move and says when the move is complete.

Optional members, looked up by capability (docs/envs.md): `tracker(state)`, an
observation kept up to date in O(1) per move for fast environments; and `resample(state,
seat, rng)`, a state the seat cannot tell from this one (OpenSpiel's IS-MCTS); and, for
stepwise moves, `move_steps(move, view)`, the actions that build a complete move for the
seat whose view is given (training data from recorded games, envs/dataset.py).
"""

from __future__ import annotations

from typing import Any, Protocol

from .protocol import Game, Json, State


class Encoding(Protocol):
    game: Game
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_dtype: str  # "float32" or "int8"
    # The least and greatest score a seat can end with (OpenSpiel's utility bounds).
    min_utility: float
    max_utility: float
    # The least and greatest value any entry of an observation can take, in every position
    # of this configuration (the environments' observation spaces).
    observation_bounds: tuple[float, float]
    # The most decisions and chance events after the deal in one game of this
    # configuration; None when the rules set no bound (a game that may go on and on).
    max_game_length: int | None

    def action(self, move: Any) -> int:
        """The integer of a (complete) move, or of one step of a stepwise move."""

    def move(self, action: int) -> Any:
        """The move an integer stands for (the inverse of `action`); ParseError if none."""

    def legal_mask(self, state: State, seat: int, partial: Any = None) -> Any:
        """An int8 array of num_actions: 1 where the action is legal for `seat` now (with
        `partial`, the steps already taken of a stepwise move)."""

    def observation(self, view: Json, partial: Any = None) -> Any:
        """The observation array for one seat, built only from that seat's `view`; its
        layout is documented in the encoding's module docstring."""

    def information_state(self, view: Json) -> str:
        """A string that is equal for two positions exactly when the seat cannot tell
        them apart (OpenSpiel's information state)."""

    def step_move(self, partial: Any, action: int) -> tuple[Any, Any | None]:
        """For stepwise moves: (new partial, the complete move or None). Games with one
        action per move return (None, move(action))."""

    def truncated(self, state: State) -> bool:
        """True once the game has stopped at a limit rather than by its rules' ending."""

