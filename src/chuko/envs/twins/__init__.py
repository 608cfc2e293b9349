"""Compiled twins of the engines: the rules of one configuration written again over arrays,
so that one call steps a batch of games (docs/envs.md, 'Vector environments').

The engine in chuko/games stays the reference. A twin exists only for speed, and its
differential test steps it beside the engine from the same deals (`Game.from_order`), with
the same chance outcomes, checking the legal masks, observations (the game's encoding),
rewards and endings at every step. A game names its twin in its descriptor (`twin`,
"module:factory"); `factory(game)` returns an object with the `Twin` surface for that
configuration, or raises ConfigError for a configuration it does not cover.

A batch is a fixed number of games (rows), each in its own array rows. Seats are numbered
from 0; `to_move` is -1 for a row whose game has ended (until it is dealt again).

Optional members, looked up by capability (Chükö's twin has them all): `dealt(batch, row)`,
the order and choices a row was dealt from, with which the AEC environment plays a game on
the twin and rebuilds the engine's state when asked (envs/twin_game.py; without it the AEC
environment plays on the engine); `drawn(batch, row)`, the chance outcomes a row's last
step drew (in the engine's terms), which a twin whose game has chance after the deal needs
for that rebuild; `compiled_play(batch)`, `compiled_deal(batch)`, `compiled_observe(batch)`,
`pattern(batch)`, `rewards(batch, row, out)` and `truncated(batch, row)`, which make that
environment's step one compiled call; `random_steps(batch, steps, seed)`, random play with
auto-reset all in compiled code (the vector environment's and the bench's); and for the
differential test, `batch(rows, explicit_chance=True)` with `chance_outcomes(batch, row)`
and `apply_chance(batch, row, outcome)`, chance given as the engine's `explicit_chance`
takes it (chuko/envs/twins/chuko.py documents each).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from chuko.core.protocol import Game

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Twin(Protocol):
    game: Game
    players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    deck_size: int  # len(game.deck()): the length of an order
    choice_sizes: tuple[int, ...]  # game.deal_choices()

    def batch(self, rows: int) -> Any:
        """A new batch of `rows` games, none dealt yet."""

    def deal(self, batch: Any, rows: Ints, orders: Ints, choices: Ints) -> None:
        """Start the games in `rows` as `Game.from_order` would, from `orders` (one
        permutation of range(deck_size) per row: indexes into `game.deck()`) and `choices`
        (one row of `choice_sizes` values each)."""

    def deal_random(self, batch: Any, rows: Ints, seed: int) -> None:
        """Start the games in `rows` from uniformly random orders and choices drawn by the
        twin's own compiled generator, seeded with `seed`."""

    def to_move(self, batch: Any) -> Ints:
        """The seat to move in each row (-1: the game has ended)."""

    def masks(self, batch: Any, out: Mask) -> None:
        """Write each row's legal actions for its seat to move into `out` (rows, actions);
        all zero for an ended row."""

    def observe(self, batch: Any, seats: Ints, out: Floats) -> None:
        """Write row i's observation for seat `seats[i]` into `out[i]`: the same array the
        game's encoding builds from `view(seats[i])`."""

    def step(self, batch: Any, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        """Play `actions[i]` for the seat to move in each live row (a row that has ended is
        left alone; an action outside its mask raises IllegalMove, naming the row, with no
        row changed). Chance events that follow are drawn by the twin's generator. Writes
        each row's rewards for this step, per seat (rows, players), and whether its game
        ended, and ended at a limit (truncated)."""
