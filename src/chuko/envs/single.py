"""A Gymnasium environment for one learner: the whole game in a one-seat game (Caravan), or
one seat against the project's bots (`chuko.bots.make_bot`, all of one `level`).

The observation is the encoding's array for the learner's seat; the legal actions are in
`info["action_mask"]` and `action_masks()`, as maskable-PPO implementations expect. The
reward comes at the end, the learner's return (`common.returns`); `truncated` is the
encoding's (a game stopped by a limit). An illegal action ends the episode with the least
return the game allows and says why in `info["illegal_move"]`. A deal in which the bots
finish the game before the learner's first turn is dealt again.
"""

from __future__ import annotations

from random import Random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from chuko.bots import Bot, make_bot
from chuko.core.errors import ConfigError, IllegalMove

from .aec import observation_box
from .common import Builder, load_encoding, make_game, return_bounds, returns
from .render import RENDER_MODES, check_render_mode, render


class ChukoGym(gymnasium.Env):  # type: ignore[misc]
    """`gym_env(game_id, level=..., seat=0, **options)`."""

    # render_fps: how often "human" may redraw, which Gymnasium asks every renderer for.
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, game_id: str, level: str | None = None, seat: int = 0,
                 render_mode: str | None = None, **options: Any) -> None:
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.game = make_game(game_id, options)
        self.encoding = load_encoding(self.game)
        players = self.game.players
        if seat not in range(players):
            raise ConfigError(f"The learner's seat is one of 0 to {players - 1}, not {seat!r}.")
        if players == 1 and level is not None:
            raise ConfigError(f"{self.game.title} has no opponents for bots to play.")
        self.seat = seat
        self.level = level or "random"
        # Checked now, so a wrong level is one sentence at construction, not mid-episode.
        make_bot(game_id, self.level, Random(0))
        self.game_id = game_id
        self.observation_space = observation_box(self.encoding)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.least_return = return_bounds(self.encoding, players)[0]
        self.builder = Builder(self.encoding, players)
        self.bots: dict[int, Bot] = {}
        self._over = True
        self._mask = np.zeros(self.encoding.num_actions, np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            self.state = self.game.new(int(self.np_random.integers(2**63)))
            self.builder.clear()
            self.bots = {other: make_bot(self.game_id, self.level,
                                         Random(int(self.np_random.integers(2**63))))
                         for other in range(self.game.players) if other != self.seat}
            self._bots_play()
            if self.state.outcome is None:
                self._over = False
                return self._observation(), {"action_mask": self._mask}

    def _bots_play(self) -> None:
        """The bots move until the learner must act or the game is over."""
        state = self.state
        while state.outcome is None and self.seat not in state.to_move:
            for other in state.to_move:
                legal = state.legal_moves(other) if self.game.lists_moves else []
                state.play(other, self.bots[other].choose(state.view(other), legal))
        # In a game of secret simultaneous moves the bots commit alongside the learner; their
        # moves are hidden from the learner's view until the round resolves.
        for other in state.to_move:
            if other != self.seat:
                legal = state.legal_moves(other) if self.game.lists_moves else []
                state.play(other, self.bots[other].choose(state.view(other), legal))

    def _observation(self) -> Any:
        self._mask = (np.zeros(self.encoding.num_actions, np.int8) if self._over
                      else self.builder.mask(self.state, self.seat))
        return self.encoding.observation(self.state.view(self.seat),
                                         self.builder.partial[self.seat])

    def action_masks(self) -> Any:
        """The legal actions now, 1 where legal (maskable PPO's `action_masks()`)."""
        return self._mask

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalMove("The episode is over: call reset() first.")
        try:
            done = self.builder.step(self.state, self.seat, action, self._mask)
        except ValueError as refused:
            self._over = True
            observation = self._observation()
            return observation, self.least_return, True, False, {
                "action_mask": self._mask, "illegal_move": str(refused)}
        if done:
            self._bots_play()
        outcome = self.state.outcome
        self._over = outcome is not None
        observation = self._observation()
        info = {"action_mask": self._mask}
        if outcome is None:
            return observation, 0.0, False, False, info
        truncated = bool(self.encoding.truncated(self.state))
        return observation, returns(outcome.scores)[self.seat], not truncated, truncated, info

    def render(self) -> str | None:
        """The table (envs/render.py), the learner's seat as "Learner": as text for
        "ansi", printed for "human"."""
        names = [f"Bot {chr(ord('A') + s)}" for s in range(self.game.players)]
        names[self.seat] = "Learner"
        return render(self.state, names, self.render_mode)
