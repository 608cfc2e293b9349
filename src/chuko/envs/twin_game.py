"""One game played on a compiled twin (a batch of one), for the AEC environment: the
tracker's surface (envs/common.Builder: `observe`, `mask`, `play`), with the engine's state
rebuilt only when asked for (`state`: rendering, records, tests), never on each step.

The twin is the one the game's descriptor names (envs/twins); nothing here names a game.
Deals come from the twin's own generator, seeded per deal from the environment's, so a
game is fixed by its seed and its actions; `state` replays them on the engine (dealt with
`Game.from_order` from the twin's `dealt` order, explicit chance given the outcomes the
twin's `drawn` reports; a twin without `drawn` draws no chance after the deal). A twin may
offer `compiled_play(batch)`, `compiled_deal(batch)` and `compiled_observe(batch)`
(functions that play an action, deal, or observe for a seat, in row 0 in one compiled
call, the first two writing the next seat's observation), `pattern(batch)`,
`rewards(batch, row, out)` and `truncated(batch, row)`, which make a step one compiled call
(Chükö's does: chuko/envs/twins/chuko.py); otherwise the protocol's calls are used, three
or four a step. Masks are read-only arrays, one per pattern of legal actions where the
twin numbers them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chuko.core.encoding import Encoding
from chuko.core.errors import ChukoError, ConfigError, IllegalMove
from chuko.core.protocol import State

from .common import Builder
from .twins import Twin
from .vector import load_twin

# Read-only masks kept per pattern of legal actions (a game repeats them): at most this many.
MASKS_KEPT = 4096


def twin_game(encoding: Encoding) -> TwinGame | None:
    """A TwinGame for the encoding's configuration, or None when the game has no twin, the
    twin does not cover the configuration, or it cannot say what its games were dealt
    (`dealt`: no engine state could be rebuilt)."""
    game = encoding.game
    if game.descriptor.integrations.twin is None:
        return None
    try:
        twin = load_twin(game)
    except ConfigError:
        return None
    if not hasattr(twin, "dealt"):
        return None
    return TwinGame(twin, encoding)


FAST_MEMBERS = ("compiled_play", "compiled_deal", "compiled_observe", "pattern", "rewards",
                "truncated")


class TwinGame:
    """The module docstring. `mover` is the seat to move, None once the game is over."""

    def __init__(self, twin: Twin, encoding: Encoding) -> None:
        self.twin: Any = twin
        self.encoding = encoding
        self.batch = twin.batch(1)
        self._players = twin.players
        self._row = np.zeros(1, np.int64)
        self._seat = np.zeros(1, np.int64)
        self._observations = np.zeros((1, *twin.observation_shape), np.float32)
        self._observation = self._observations[0]  # the seat to move's, kept up to date
        self._other = np.zeros_like(self._observations)  # another seat's, copied out
        self._masks = np.zeros((1, twin.num_actions), np.int8)
        self._rewards = np.zeros((1, twin.players), np.float64)
        self._flags = np.zeros(1, np.int8), np.zeros(1, np.int8)
        self._kept: dict[int, np.ndarray] = {}  # read-only masks by pattern
        self._pattern = -1
        self._no_mask = np.zeros(twin.num_actions, np.int8)
        self._no_mask.flags.writeable = False
        self.mover: int | None = None
        self._seed = 0
        self._actions: list[int] = []
        self._replay: tuple[State, Any, Builder, int] | None = None
        if all(hasattr(twin, name) for name in FAST_MEMBERS):
            self.play = self._compiled_play()  # type: ignore[method-assign]
            self.deal = self._compiled_deal()  # type: ignore[method-assign]
            self.observe = self._compiled_observe()  # type: ignore[method-assign]

    def deal(self, seed: int) -> None:
        """A new game from the twin's generator seeded with `seed`."""
        self._new_game(seed)
        self.twin.deal_random(self.batch, self._row, seed)
        mover = int(self.twin.to_move(self.batch)[0])
        self.mover = mover
        self._seat[0] = mover
        self.twin.observe(self.batch, self._seat, self._observations)

    def _new_game(self, seed: int) -> None:
        self._seed = seed
        self._actions.clear()
        self._replay = None
        self._rewards[:] = 0
        self._flags[1][:] = 0

    # -- the tracker's surface ---------------------------------------------------------------

    def observe(self, seat: int) -> np.ndarray:
        """`seat`'s observation now: a new array, the caller's to keep."""
        if seat == self.mover:
            return self._observation.copy()
        self._seat[0] = seat
        self.twin.observe(self.batch, self._seat, self._other)
        return self._other[0].copy()

    def mask(self) -> np.ndarray:
        """The legal actions of the seat to move, all 0 at the end: read-only, one array
        per pattern of legal actions where the twin numbers them."""
        if self.mover is None:
            return self._no_mask
        kept = self._kept.get(self._pattern)
        return self._new_mask() if kept is None else kept

    def _new_mask(self) -> np.ndarray:
        """The mask now, read from the twin, kept by its pattern where it has one."""
        self.twin.masks(self.batch, self._masks)
        kept = self._masks[0].copy()
        kept.flags.writeable = False
        if self._pattern >= 0:
            if len(self._kept) >= MASKS_KEPT:
                self._kept.clear()
            self._kept[self._pattern] = kept
        return kept

    def play(self, action: int) -> int | None:
        """The seat to move takes `action`: IllegalMove, changing nothing, if its mask
        excludes it. Returns the seat to move next, None at the end."""
        if self.mover is None or not 0 <= action < self.twin.num_actions:
            raise IllegalMove(f"Action {action} is not legal here.")
        self._seat[0] = action
        self.twin.step(self.batch, self._seat, self._rewards, *self._flags)
        self._actions.append(action)
        mover = int(self.twin.to_move(self.batch)[0])
        if mover < 0:
            self.mover = None
            return None
        self.mover = self._seat[0] = mover
        self.twin.observe(self.batch, self._seat, self._observations)
        return mover

    def final(self) -> tuple[list[float], bool]:
        """The ended game's returns per seat, and whether it stopped at a limit."""
        rewards: list[float] = self._rewards[0].tolist()
        return rewards, bool(self._flags[1][0])

    # -- one compiled call a step, where the twin offers it ------------------------------------

    def _compiled_play(self) -> Any:
        """`play` through the twin's `compiled_play`: a closure, its state in local names."""
        play_one = self.twin.compiled_play(self.batch)
        observation, players, actions = self._observation, self._players, self._actions

        def play(action: int) -> int | None:
            code: int = play_one(action, observation)
            if code >= 0:
                actions.append(action)
                pattern, mover = divmod(code, players)
                self.mover, self._pattern = mover, pattern - 1
                return mover
            if code == -2 or self.mover is None:
                raise IllegalMove(f"Action {action} is not legal here.")
            actions.append(action)
            self.mover = None
            self.twin.rewards(self.batch, 0, self._rewards[0])
            self._flags[1][0] = self.twin.truncated(self.batch, 0)
            return None

        return play

    def _compiled_observe(self) -> Any:
        observe_one, mine, other = (self.twin.compiled_observe(self.batch), self._observation,
                                    self._other[0])

        def observe(seat: int) -> np.ndarray:
            if seat == self.mover:
                return mine.copy()
            if not observe_one(seat, other):
                raise ConfigError(f"There is no seat {seat!r} in this game.")
            return other.copy()

        return observe

    def _compiled_deal(self) -> Any:
        deal_one, observation, players = (self.twin.compiled_deal(self.batch), self._observation,
                                          self._players)

        def deal(seed: int) -> None:
            self._new_game(seed)
            pattern, self.mover = divmod(deal_one(seed, observation), players)
            self._pattern = pattern - 1

        return deal

    # -- the engine's state, on demand ---------------------------------------------------------

    @property
    def state(self) -> State:
        """The engine's state of this game, replayed from the deal and the actions (kept,
        and brought up to date from where it was when asked again)."""
        if self._replay is None:
            self._replay = self._replay_start()
        state, batch, builder, done = self._replay
        twin, game = self.twin, self.encoding.game
        one = np.zeros(1, np.int64)
        scratch = np.zeros((1, twin.players), np.float64), *(np.zeros(1, np.int8),) * 2
        drawn = getattr(twin, "drawn", lambda batch, row: ())
        for action in self._actions[done:]:
            builder.step(state, state.to_move[0], action)
            one[0] = action
            twin.step(batch, one, *scratch)
            for outcome in drawn(batch, 0):
                state.apply_chance(outcome)
            if state.is_chance:
                raise ChukoError(f"{game.title}'s twin reports no chance outcome where the "
                                 "engine awaits one, so its state cannot be rebuilt.")
        self._replay = (state, batch, builder, len(self._actions))
        return state

    def partial(self, seat: int) -> Any:
        """`seat`'s move built so far, where a move takes several steps (Chuchula's
        grouping), as the encoding's `step_move` folds it: the replay's, brought up to
        date."""
        self.state  # noqa: B018  (replays the actions not replayed yet)
        assert self._replay is not None
        return self._replay[2].partial[seat]

    def _replay_start(self) -> tuple[State, Any, Builder, int]:
        twin, game = self.twin, self.encoding.game
        batch = twin.batch(1)
        twin.deal_random(batch, self._row, self._seed)
        order, choices = twin.dealt(batch, 0)
        deck = game.deck()
        state = game.from_order([deck[i] for i in order], choices, explicit_chance=True)
        return state, batch, Builder(self.encoding, game.players), 0
