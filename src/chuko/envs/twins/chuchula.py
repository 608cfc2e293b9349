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
from dataclasses import dataclass, field
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


@dataclass
class Batch:
    """`rows` games: each row's state (`chuchula_kernels` names the columns), its hands'
    groups strongest first, and the batch's generator and search scratch."""

    rows: int
    state: Any = field(init=False)
    order: Any = field(init=False)
    power: Any = field(init=False)
    rng: Any = field(init=False)
    work: Any = field(init=False)
    memo: Any = field(init=False)

    def __post_init__(self) -> None:
        self.state = np.zeros((self.rows, k.COLUMNS), dtype=np.int64)
        self.state[:, k.TO_MOVE] = -1
        self.order = np.zeros((self.rows, k.GROUPS, k.LISTED), dtype=np.int32)
        self.power = np.zeros((self.rows, k.GROUPS, k.LISTED + k.TRIPLES), dtype=np.int32)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.work = np.zeros(k.WORK, dtype=np.int64)
        self.memo = np.zeros(k.MEMO, dtype=np.int64)


class ChuchulaTwin:
    """Chuchula's rules for one configuration, over a batch of games."""

    num_actions = ACTIONS
    observation_shape = (SIZE,)
    deck_size = len(DECK)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.choice_sizes = tuple(game.deal_choices())
        self.config = np.array([game.players, game.mode == "points", game.length],
                               dtype=np.int64)
        self.table = strength_table()

    def batch(self, rows: int) -> Batch:
        return Batch(int(rows))

    def deal(self, batch: Batch, rows: Ints, orders: Ints, choices: Ints) -> None:
        for row, order, choice in zip(rows, np.asarray(orders, np.int64),
                                      np.asarray(choices, np.int64), strict=True):
            k.new_game(batch.state, batch.order, batch.power, self.table, int(row), order,
                       int(choice[0]), self.players)

    def deal_round(self, batch: Batch, row: int, order: Ints) -> None:
        """Replace the row's current round, before anyone has grouped in it, by the deal of
        `order` (a permutation of the deck's indexes), keeping its dealer: the chance
        outcome the engine is given."""
        k.deal_round(batch.state, batch.order, batch.power, self.table, int(row),
                     np.asarray(order, np.int64), int(batch.state[row, k.DEALER]), self.players)

    def deal_random(self, batch: Batch, rows: Ints, seed: int) -> None:
        k.seed_generator(batch.rng, int(seed))
        k.deal_random(batch.state, batch.order, batch.power, self.table, batch.rng,
                      np.asarray(rows, np.int64), self.players)

    def to_move(self, batch: Batch) -> Ints:
        moving: Ints = batch.state[:, k.TO_MOVE].copy()
        return moving

    def masks(self, batch: Batch, out: Mask) -> None:
        k.masks(batch.state, batch.order, batch.power, self.table, batch.work, batch.memo,
                out)

    def observe(self, batch: Batch, seats: Ints, out: Floats) -> None:
        k.observe(batch.state, np.asarray(seats, np.int64), self.config, out)

    def step(self, batch: Batch, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        refused = k.step_batch(batch.state, batch.order, batch.power, self.table, batch.rng,
                               batch.work, batch.memo, np.asarray(actions, np.int64),
                               self.config, rewards, ended)
        if refused >= 0:
            raise IllegalMove(f"Action {int(actions[refused])} is not legal in row {refused}.")
        truncated[:] = 0  # Chuchula always ends by its rules (H7)

    def random_steps(self, batch: Batch, steps: int, seed: int) -> int:
        """`steps` times, every row plays a uniformly random legal action, a row whose game
        ended being dealt anew at once; the number of actions played."""
        k.seed_generator(batch.rng, int(seed))
        played: int = k.random_steps(batch.state, batch.order, batch.power, self.table,
                                     batch.rng, batch.work, batch.memo, self.config,
                                     int(steps))
        return played


def twin(game: Game) -> ChuchulaTwin:
    """The twin of a Chuchula configuration: all of them are covered."""
    if not isinstance(game, Game) or HAND_SIZE != k.HAND:
        raise ConfigError("Chuchula's twin plays only Chuchula games.")
    return ChuchulaTwin(game)
