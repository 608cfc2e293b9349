"""Chuchula's compiled twin (the `Twin` protocol, twins/__init__.py): every configuration
(2–4 players, rounds or points, any length), its rules in twins/chuchula_kernels.py.

Seats group one after another, as the environments select them: the lowest seat still to
commit builds its grouping a card per action (the encoding's `step_move`), and no seat's
observation shows another's unfinished move. Chance after the deal (each later round's
deal) comes from the batch's generator; `deal_round` gives a row a round's deal instead,
as a test hands the engine the same chance outcomes. The tie draw at the end changes no
return and no observation, so the twin draws none.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

import numpy as np

from chuko.core.deck52 import DECK, Card
from chuko.core.errors import ConfigError, IllegalMove
from chuko.games.chuchula import HAND_SIZE, Game, group_strength
from chuko.games.encodings.chuchula import ACTIONS, SIZE

from . import Floats, Ints, Mask
from . import chuchula_kernels as k


@lru_cache(maxsize=1)
def strength_table() -> Any:
    """The engine's `group_strength` by ranks (highest, middle, lowest) and whether the
    three cards share a suit: the strength depends on nothing else."""
    table = np.full(15**3 * 2, -1, dtype=np.int64)
    for low, mid, high in itertools.combinations_with_replacement(range(2, 15), 3):
        key = ((high * 15 + mid) * 15 + low) * 2
        table[key] = group_strength([Card(low, "s"), Card(mid, "h"), Card(high, "d")])
        if low < mid < high:
            table[key + 1] = group_strength([Card(rank, "s") for rank in (low, mid, high)])
    return table


class Batch:
    """`rows` games: each row's state (`chuchula_kernels` names its columns), each hand's
    groups listed strongest first, and the batch's scratch (the searches' work and memo, and
    the generator)."""

    __slots__ = ("rows", "state", "lists", "scratch")

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.state = np.zeros((rows, k.COLUMNS), dtype=np.int64)
        self.state[:, k.TO_MOVE] = -1
        self.lists = np.zeros((rows, k.GROUPS, 2, k.LISTED + k.TRIPLES), dtype=np.int32)
        self.scratch = np.zeros(k.SCRATCH, dtype=np.int64)


class ChuchulaTwin:
    """Chuchula's rules for one configuration, over a batch of games."""

    num_actions = ACTIONS
    observation_shape = (SIZE,)
    deck_size = len(DECK)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.choice_sizes = tuple(game.deal_choices())
        config = [game.players, game.mode == "points", game.length]
        self.rules = np.concatenate([np.array(config, dtype=np.int64), strength_table()])

    def batch(self, rows: int) -> Batch:
        return Batch(int(rows))

    def deal(self, batch: Batch, rows: Ints, orders: Ints, choices: Ints) -> None:
        for row, order, choice in zip(rows, np.asarray(orders, np.int64),
                                      np.asarray(choices, np.int64), strict=True):
            k.new_game(batch.state, batch.lists, self.rules, int(row), order, int(choice[0]))

    def deal_round(self, batch: Batch, row: int, order: Ints) -> None:
        """Replace the row's current round, before anyone has grouped in it, by the deal of
        `order` (a permutation of the deck's indexes), keeping its dealer: the chance
        outcome the engine is given."""
        k.deal_round(batch.state, batch.lists, self.rules, int(row), np.asarray(order, np.int64),
                     int(batch.state[row, k.DEALER]))

    def deal_random(self, batch: Batch, rows: Ints, seed: int) -> None:
        k.seed_generator(batch.scratch, int(seed))
        k.deal_random(batch.state, batch.lists, self.rules, batch.scratch,
                      np.asarray(rows, np.int64))

    def to_move(self, batch: Batch) -> Ints:
        moving: Ints = batch.state[:, k.TO_MOVE].copy()
        return moving

    def masks(self, batch: Batch, out: Mask) -> None:
        k.masks(batch.state, batch.lists, batch.scratch, out)

    def observe(self, batch: Batch, seats: Ints, out: Floats) -> None:
        k.observe(batch.state, self.rules, seats, out)

    def step(self, batch: Batch, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        refused = k.step_batch(batch.state, batch.lists, self.rules, batch.scratch, actions,
                               rewards, ended)
        if refused >= 0:
            raise IllegalMove(f"Action {actions[refused]} is not legal in row {refused}.")
        truncated[:] = 0  # Chuchula always ends by its rules (H7)

    def random_steps(self, batch: Batch, steps: int, seed: int) -> int:
        """`steps` times, every row plays a uniformly random legal action, a row whose game
        has ended being dealt anew at once; the number of actions played."""
        k.seed_generator(batch.scratch, int(seed))
        played: int = k.random_steps(batch.state, batch.lists, self.rules, batch.scratch,
                                     int(steps))
        return played


def twin(game: Game) -> ChuchulaTwin:
    """The twin of a Chuchula configuration: all of them are covered."""
    if not isinstance(game, Game) or HAND_SIZE != k.HAND:
        raise ConfigError("Chuchula's twin plays only Chuchula games.")
    return ChuchulaTwin(game)
