"""Chuchula's compiled twin (the `Twin` protocol, twins/__init__.py): every configuration
(2–4 players, rounds or points, any length), its rules in twins/chuchula_kernels.py.

Seats group one after another, as the environments select them: the lowest seat still to
commit builds its grouping a card per action (the encoding's `step_move`), and no seat's
observation shows another's unfinished move. Chance after the deal (each later round's
deal, and the tie draw at the end, which changes no return or observation) comes from the
batch's generator, and `drawn` reports it in the engine's terms, so a game played here can
be replayed on the engine; `deal_round` gives a row a round's deal instead, as the
differential test hands the engine the same chance outcomes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

import numpy as np
from numba import typeof

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
    """`rows` games: each row's state (`chuchula_kernels` names its columns), the groups of
    its seat to move's hand listed strongest first, and the batch's scratch (the searches'
    work and memo, and the generator)."""

    __slots__ = ("rows", "state", "lists", "scratch")

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.state = np.zeros((rows, k.COLUMNS), dtype=np.int64)
        self.state[:, k.TO_MOVE] = -1
        self.lists = np.zeros((rows, 2, k.LISTED + k.TRIPLES), dtype=np.int16)
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
        rows = np.asarray(rows, np.int64)
        orders = np.asarray(orders, np.int64).reshape(len(rows), self.deck_size)
        choices = np.asarray(choices, np.int64).reshape(len(rows), 1)
        if (np.sort(orders, axis=1) != np.arange(self.deck_size)).any():
            raise ConfigError(f"An order is a permutation of range({self.deck_size}).")
        if not ((choices >= 0) & (choices < self.players)).all():
            raise ConfigError(f"The deal chooses the first dealer: a seat from 0 to "
                              f"{self.players - 1}.")
        for row, order, choice in zip(rows, orders, choices, strict=True):
            k.new_game(batch.state, batch.lists, self.rules, int(row), order, int(choice[0]))

    def deal_round(self, batch: Batch, row: int, order: Ints) -> None:
        """Replace the row's current round, before anyone has grouped in it, by the deal of
        `order` (a permutation of the deck's indexes), keeping its dealer: the chance
        outcome the engine is given."""
        if sorted(np.asarray(order).tolist()) != list(range(self.deck_size)):
            raise ConfigError(f"An order is a permutation of range({self.deck_size}).")
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

    def random_steps(self, batch: Batch, steps: int, seed: int | None = None,
                     observations: Floats | None = None) -> int:
        """`steps` rounds of a uniformly random legal action in every row, all compiled: a
        row's game is dealt again as soon as it ends, and after each action the seat to
        move's observation is written to `observations` (rows, *shape; a scratch array if
        None). `seed` seeds the generator and deals every row afresh first; without it the
        rows' games go on (a row never dealt is dealt) and so does the generator. Returns
        the actions taken."""
        if seed is not None:
            k.seed_generator(batch.scratch, int(seed))
        if observations is None:
            observations = np.empty((batch.rows, *self.observation_shape), np.float32)
        played: int = k.random_steps(batch.state, batch.lists, self.rules, batch.scratch,
                                     int(steps), observations, seed is not None)
        return played

    def partial(self, batch: Batch, row: int) -> tuple[int, ...] | None:
        """The row's seat to move's grouping so far, as the encoding's `step_move` folds it
        (None before its first step, and once the game has ended)."""
        state = batch.state[row]
        labels = tuple(int(g) for g in state[k.PARTIAL : k.PARTIAL + k.HAND])
        return labels if state[k.TO_MOVE] >= 0 and any(labels) else None

    # -- what chance gave a row, in the engine's terms (to rebuild its state) -----------------

    def dealt(self, batch: Batch, row: int) -> tuple[list[int], list[int]]:
        """The order and choices row `row` was first dealt from, as `deal` takes them."""
        state = batch.state[row]
        order = state[k.FIRST_ORDER : k.FIRST_ORDER + k.CARDS]
        return [int(i) for i in order], [int(state[k.FIRST_DEALER])]

    def drawn(self, batch: Batch, row: int) -> list[Any]:
        """The chance outcomes the row's last step drew, as the engine's `apply_chance`
        takes them: the cards of a round's deal (as many as are dealt), or the seats of the
        tie draw but the last."""
        state, kind = batch.state[row], int(batch.state[row, k.DRAWN])
        if kind == 1:
            dealt = min(self.players * HAND_SIZE, len(DECK) - 1)
            return [str(DECK[i]) for i in state[k.DEALT : k.DEALT + dealt]]
        if kind == 2:
            return [int(seat) for seat in state[k.DRAW : k.DRAW + self.players - 1]]
        return []

    # -- one compiled call a step, for a game played alone (a batch of one) -------------------

    def play_one(self, batch: Batch) -> Callable[[int, Floats], int]:
        """A function that has row 0 of `batch` play an action in one compiled call:
        `play(action, observation)` returns -2 if the action is illegal (nothing changed),
        -1 once the game has ended, else `seat + players * (pattern + 1)`: the seat to move,
        whose observation it wrote to `observation`, and its legal actions as bits. The
        compiled code's own entry point is called where numba names it (a first call that
        plays nothing finds it), skipping the dispatcher's checks of every argument."""
        observation = np.zeros(self.observation_shape, np.float32)
        arguments = (batch.state, batch.lists, self.rules, batch.scratch)
        k.play_one(*arguments, -1, observation)
        types = tuple(typeof(value) for value in (*arguments, -1, observation))
        entry = getattr(k.play_one.overloads.get(types), "entry_point", None)
        return partial(k.play_one if entry is None else entry, *arguments)

    def deal_one(self, batch: Batch) -> Callable[[int, Floats], int]:
        """A function that deals row 0 as `deal_random(batch, [0], seed)` does, in one
        compiled call: `deal(seed, observation)` returns what `play_one`'s does."""
        return partial(k.deal_one, batch.state, batch.lists, self.rules, batch.scratch)

    def pattern(self, batch: Batch) -> int:
        """Row 0's legal actions as bits (the number `play_one` names them with)."""
        if batch.state[0, k.TO_MOVE] < 0:
            return -1
        found: int = k.row_mask(batch.state, batch.lists, batch.scratch, 0)
        return found

    def rewards(self, batch: Batch, row: int, out: Any) -> None:
        """Row `row`'s returns once its game has ended (all 0 before)."""
        out[:] = 0
        if batch.state[row, k.TO_MOVE] < 0 and batch.state[row, k.ROUNDS]:
            k.returns(batch.state, int(row), self.players, out)

    def truncated(self, batch: Batch, row: int) -> bool:
        return False  # Chuchula always ends by its rules (H7)


def twin(game: Game) -> ChuchulaTwin:
    """The twin of a Chuchula configuration: all of them are covered."""
    if not isinstance(game, Game):
        raise ConfigError("Chuchula's twin plays only Chuchula games.")
    return ChuchulaTwin(game)
