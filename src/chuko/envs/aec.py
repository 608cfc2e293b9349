"""PettingZoo's AEC (turn by turn) and parallel environments over any game with an encoding.

Observations are `{"observation": array, "action_mask": int8 array}`, as in PettingZoo's
classic card games; a seat that is not to act gets an all-zero mask. Seats that act at once
(Chuchula's secret grouping) act one after another here, each building its move a step at
a time; no seat's observation shows another's unfinished move. Rewards come once, at the
end (`common.returns`). A game stopped by a limit (Chükö's turn limit, `Encoding.truncated`)
ends with every agent truncated rather than terminated.

An illegal action never crashes: it ends the game, the seat that sent it gets the least
return the game allows, the others 0, and its info says why (`"illegal_move"`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from chuko.core.encoding import Encoding

from .common import (
    Builder,
    Dealer,
    action_number,
    agent_names,
    load_encoding,
    make_game,
    return_bounds,
    returns,
)
from .render import RENDER_MODES, check_render_mode, render
from .twin_game import twin_game


def observation_box(encoding: Encoding) -> spaces.Box:
    """The observation array's space: the encoding's bounds on its entries."""
    low, high = encoding.observation_bounds
    return spaces.Box(low, high, encoding.observation_shape,
                      np.dtype(encoding.observation_dtype))


def _observation_spaces(encoding: Encoding, agents: list[str]) -> dict[str, spaces.Dict]:
    # One space object per agent, so seeding one agent's space leaves the others' alone.
    return {agent: spaces.Dict({
        "observation": observation_box(encoding),
        "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
    }) for agent in agents}


class _Table:
    """The game, its encoding and the seats, shared by the AEC and the parallel env."""

    def _setup(self, game_id: str, render_mode: str | None, options: dict[str, Any]) -> None:
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.game = make_game(game_id, options)
        self.encoding = load_encoding(self.game)
        self.possible_agents = agent_names(self.game.players)
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.least_return = return_bounds(self.encoding, self.game.players)[0]
        self.observation_spaces = _observation_spaces(self.encoding, self.possible_agents)
        self.action_spaces = {agent: spaces.Discrete(self.encoding.num_actions)
                              for agent in self.possible_agents}
        self.builder = Builder(self.encoding, self.game.players)
        self.dealer = Dealer(self.game)
        self._kept_mask: Any = None
        self._kept_seat = -1
        self._no_mask = np.zeros(self.encoding.num_actions, np.int8)  # a seat not to act
        self._no_mask.flags.writeable = False

    def _deal(self, seed: int | None) -> None:
        if seed is not None:
            self.dealer.seed(seed)
        self.state = state = self.dealer.deal()
        builder = self.builder
        if builder.tracker is not None:
            builder.tracker.track(state)  # the next game: the same arrays, no partial moves
        else:
            builder.clear()
            builder.track(state)
            self._forget_mask()
        self._over = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observe_seat(self, seat: int, acting: bool) -> dict[str, Any]:
        """The seat's observation, with its mask if `acting` (else all 0)."""
        state, builder = self.state, self.builder
        if acting:
            # A copy: the agent keeps it, and may write to it (a tracker's is read-only).
            mask = builder.mask(state, seat).copy()
            # Kept for the step that follows, which checks its action against it.
            self._kept_mask, self._kept_seat = mask, seat
        else:
            mask = self._no_mask.copy()
        if builder.tracker is not None:
            observation = builder.tracker.observe(seat)  # a new array, the agent's
        else:
            observation = self.encoding.observation(state.view(seat), builder.partial[seat])
        return {"observation": observation, "action_mask": mask}

    def _mask_now(self, seat: int) -> Any:
        """The mask `_observe_seat` gave this seat in this position, or None."""
        return self._kept_mask if self._kept_seat == seat else None

    def _forget_mask(self) -> None:
        """After any action: a kept mask was for the position before it."""
        self._kept_mask = None
        self._kept_seat = -1

    def _final_rewards(self) -> tuple[list[float], bool]:
        outcome = self.state.outcome
        assert outcome is not None
        return returns(outcome.scores), bool(self.encoding.truncated(self.state))

    def render(self) -> str | None:
        """The table (envs/render.py): as text for "ansi", printed for "human"."""
        return render(self.state, self.possible_agents, self.render_mode)

    def close(self) -> None:
        return None


class _Agents(AECIterable):  # type: ignore[misc]
    """`agent_iter()`: PettingZoo's iterable, its iterator a generator (the same checks, in
    the same order, for a third of the cost per step)."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class ChukoAEC(_Table, AECEnv):  # type: ignore[misc]
    """`aec_env(game_id, **options)`: one agent per seat (player_0, player_1...).

    `agent_iter`, `last`, `observe` and `step` are PettingZoo's, written for speed (bench
    envs): with the encoding's tracker (Builder) an observation is the tracker's, a new
    array, and its mask the tracker's, read-only and never changed, and the tracker's
    play() refuses what that mask excludes, so no mask is kept for step().

    Where the game's descriptor names a compiled twin that covers the configuration, the
    game is played on it (envs/twin_game.py, which has the tracker's surface) and `state`,
    the engine's, is rebuilt from the deal and the actions only when read."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "chuko_v0",
                "is_parallelizable": True}

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self._setup(game_id, render_mode, options)
        self.metadata = {**self.metadata, "name": f"chuko_{game_id}_v0"}
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        self._twin_game = twin_game(self.encoding)
        self.reset()

    @property
    def state(self) -> Any:
        """The engine's state (rebuilt on demand when the game is played on its twin)."""
        played = self._twin_game
        return self._state if played is None else played.state

    @state.setter
    def state(self, state: Any) -> None:
        self._state = state

    def _deal_first(self, seed: int | None) -> int:
        """Deal the next game; the seat to move first."""
        played = self._twin_game
        if played is None:
            self._deal(seed)
            self._tracker = self.builder.tracker
            mover: int = self.state.to_move[0]
            return mover
        if seed is not None:
            self.dealer.seed(seed)
        played.deal(self.dealer.rng.getrandbits(63))
        self._over = False
        self._tracker = played
        assert played.mover is not None  # a deal leaves someone to move
        return played.mover

    def _final_rewards(self) -> tuple[list[float], bool]:
        if self._twin_game is not None:
            return self._twin_game.final()
        return super()._final_rewards()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        mover = self._deal_first(seed)
        self.agents = agents = self.possible_agents[:]
        zeros, falses = self._zeros, self._falses  # copied: cheaper than made anew
        self.rewards = zeros.copy()
        self._cumulative_rewards = zeros.copy()
        self.terminations = falses.copy()
        self.truncations = falses.copy()
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        self._skip_agent_selection: str | None = None
        self.agent_selection = agents[mover]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        return _Agents(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        tracker = self._tracker
        if not observe:
            observation = None
        elif tracker is None:
            observation = self._observe_seat(self.seats[agent], not self._over)
        else:  # observe(agent), inlined
            observation = {"observation": tracker.observe(self.seats[agent]),
                           "action_mask": self._no_mask if self._over else tracker.mask()}
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, Any]:
        # Only the selected agent acts, even where several seats move at once (Chuchula).
        acting = agent == self.agent_selection and not self._over
        tracker = self._tracker
        if tracker is None:
            return self._observe_seat(self.seats[agent], acting)
        return {"observation": tracker.observe(self.seats[agent]),
                "action_mask": tracker.mask() if acting else self._no_mask}

    def step(self, action: Any) -> None:
        if self._over:
            self._was_dead_step(action)
            return
        # Rewards come only at the end, so an acting agent's accumulated reward is still 0
        # and needs no clearing here.
        tracker = self._tracker
        if tracker is not None:
            try:
                mover = tracker.play(action if type(action) is int else action_number(action))
            except ValueError as refused:
                self._refuse(refused)
                return
            if mover is None:
                self._end(*self._final_rewards())
            else:
                self.agent_selection = self.possible_agents[mover]
            return
        agent = self.agent_selection
        seat = self.seats[agent]
        try:
            self.builder.step(self.state, seat, action, self._mask_now(seat))
        except ValueError as refused:
            self._refuse(refused)
            return
        self._forget_mask()
        state = self.state
        if state.outcome is not None:
            self._end(*self._final_rewards())
            return
        mover = state.to_move[0]
        if mover != seat:
            self.agent_selection = self.possible_agents[mover]

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's, for a game that ends for every agent at once (so every agent left is
        dead): the same checks and the same changes, in a third of the time."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0

    def _refuse(self, refused: ValueError) -> None:
        """The selected agent's action was illegal: the game ends (the module docstring)."""
        agent = self.agent_selection
        rewards = [0.0] * self.game.players
        rewards[self.seats[agent]] = self.least_return
        self._end(rewards, truncated=False)
        self.infos[agent]["illegal_move"] = str(refused)

    def _end(self, rewards: list[float], truncated: bool) -> None:
        self._over = True
        for agent, reward in zip(self.possible_agents, rewards, strict=True):
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated


class ChukoParallel(_Table, ParallelEnv):  # type: ignore[misc]
    """`parallel_env(game_id, **options)`: every seat to act sends one action per step; a
    stepwise move (Chuchula's grouping) takes one step per action, every seat's in
    lockstep, and the round resolves once the last move is complete. In a game played in
    turns only the seat to move acts, and the others' actions are ignored."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "chuko_parallel_v0"}

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        self._setup(game_id, render_mode, options)
        self.metadata = {**self.metadata, "name": f"chuko_{game_id}_parallel_v0"}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._deal(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def _observations(self) -> dict[str, Any]:
        to_move = self.state.to_move
        return {agent: self._observe_seat(self.seats[agent], self.seats[agent] in to_move)
                for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        over, truncated = False, False
        # The seats to act are fixed before anyone acts: a move completed now does not let
        # the same seat act twice in one step.
        for seat in self.state.to_move:
            agent = self.possible_agents[seat]
            try:
                self.builder.step(self.state, seat, actions.get(agent), self._mask_now(seat))
            except ValueError as refused:
                rewards[agent] = self.least_return
                infos[agent]["illegal_move"] = str(refused)
                over = True
                break
            self._forget_mask()
        if not over and self.state.outcome is not None:
            final, truncated = self._final_rewards()
            rewards = dict(zip(agents, final, strict=True))
            over = True
        observations = self._observations()
        terminations = dict.fromkeys(agents, over and not truncated)
        truncations = dict.fromkeys(agents, truncated)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
