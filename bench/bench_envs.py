"""The environments' speed, against RLCard's UNO in the same run.

The peer: RLCard's UNO environment, `env.run` with a random agent in each of its two seats,
counting every action taken. Ours, for every game (default options):

- "AEC": its PettingZoo AEC environment (`aec_env`), `last()` for the observation and mask,
  then a uniformly random legal action, the loop every PettingZoo user writes; actions
  counted the same way (an agent's final step with None is not an action). A game whose
  descriptor names a compiled twin plays on it (envs/twin_game.py).
- "batched", for a game with a twin: its vector environment (`vector_env`, BATCH_ROWS
  games) playing uniformly random legal actions with auto-reset through `random_steps`, all
  in compiled code, the seat to move's observation written after every action.
- "vector step", for a game with a twin: the same environment stepped from Python
  (`step(actions)`, every array of the result made), the random legal actions chosen with
  numpy from the masks it returns; for scale, no goal.

Each figure is actions per CPU second of this process (both sides measured alike, in one
process, one after the other in each run); the bench repeats the whole set RUNS times and
prints the medians and each figure's ratio to UNO (the median of the runs' ratios) beside
its goal (GOALS), with the share of the wall clock the process had (below 100%: something
else was running) and the machine's load average.

For scale it also times the loop alone: the same loop and random agent over an AEC
environment that plays no game (a fixed observation copied per step, a fixed mask, games of
FLOOR_STEPS actions), first with PettingZoo's base-class `agent_iter`, `last` and dead steps
("no game"), then with the faster ones our environments use ("no game, fast loop"). An
environment that keeps PettingZoo's methods cannot beat the first; one written as ours cannot
beat the second.

`python -m bench envs [--seconds S] [--runs N]`. Without RLCard (it is no dependency of the
project: `make bench` installs it) the UNO peer is skipped with a sentence.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from random import Random
from statistics import median
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from chuko.envs import ChukoAEC, aec_env
from chuko.envs.vector import vector_env
from chuko.games import descriptors

# The goals, as ratios to UNO: (batched, AEC) by game id; DEFAULT_GOALS for any other game.
GOALS = {"chuko": (100.0, 10.0), "crossroads": (50.0, 2.0), "caravan": (50.0, 2.0),
         "chuchula": (10.0, 2.0)}
DEFAULT_GOALS = (10.0, 2.0)
BATCH_ROWS = 1024
BATCH_STEPS = 50  # rounds of one action per row, per call
VECTOR_STEPS = 5  # calls of the vector environment's step, per call of the loop
PEER = "UNO (RLCard)"
FLOOR = "no game"  # PettingZoo's loop alone
FAST_FLOOR = "no game, fast loop"  # the loop alone, as our environments run it


def timed(loop: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(actions per CPU second, share of the wall clock) of `loop`, run until `seconds`
    of wall time have passed; `loop` plays one game and returns its actions."""
    actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        actions += loop()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return actions / cpu, cpu / wall


def uno_loop() -> Callable[[], int] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def loop() -> int:
        trajectories, _ = env.run(is_training=False)
        # A trajectory alternates states and actions and ends with a state.
        return sum((len(t) - 1) // 2 for t in trajectories)

    return loop


def play(env: Any, random: Callable[[], float]) -> int:
    """One game of `env` with uniformly random legal actions; the actions taken."""
    env.reset()
    actions = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        env.step(int(legal[int(random() * len(legal))]))
        actions += 1
    return actions


def aec_loop(game_id: str) -> Callable[[], int]:
    env = aec_env(game_id)
    env.reset(seed=0)  # then each reset deals from the generator this seeded
    random = Random(0).random
    return lambda: play(env, random)


def batched_loop(game_id: str) -> Callable[[], int]:
    env = vector_env(game_id, BATCH_ROWS, seed=0)
    env.random_steps(1)  # compiled (or loaded from numba's cache) before the clock starts
    return lambda: env.random_steps(BATCH_STEPS)


def vector_step_loop(game_id: str) -> Callable[[], int]:
    env = vector_env(game_id, BATCH_ROWS, seed=0)
    rng = np.random.default_rng(0)
    out = [env.reset()]

    def loop() -> int:
        for _ in range(VECTOR_STEPS):
            counts = out[0].action_mask.cumsum(axis=1)
            picks = (rng.random(BATCH_ROWS) * counts[:, -1]).astype(np.int64)
            out[0] = env.step((counts <= picks[:, None]).sum(axis=1))
        return VECTOR_STEPS * BATCH_ROWS

    return loop


FLOOR_STEPS = 20  # about a game of Chükö's default configuration


class NoGame(AECEnv):  # type: ignore[misc]
    """Two agents taking turns for FLOOR_STEPS actions, observing a fixed array (copied, as
    an environment must) and a fixed mask: PettingZoo's loop with nothing to play."""

    def __init__(self, size: int = 58) -> None:
        self.possible_agents = ["player_0", "player_1"]
        self._observation = np.zeros(size, np.float32)
        self._mask = np.ones(13, np.int8)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = "player_0"
        self._skip_agent_selection = None
        self._steps = 0

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self._observation.copy(), "action_mask": self._mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._steps += 1
        if self._steps == FLOOR_STEPS:
            for other in self.agents:
                self.terminations[other] = True
        self.agent_selection = "player_1" if agent == "player_0" else "player_0"


class FastNoGame(NoGame):
    """NoGame run as our environments run: ChukoAEC's agent_iter and dead steps, and last()
    with observe inlined."""

    agent_iter = ChukoAEC.agent_iter
    _was_dead_step = ChukoAEC._was_dead_step

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        observation = ({"observation": self._observation.copy(), "action_mask": self._mask}
                       if observe else None)
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])


def floor_loop(fast: bool = False) -> Callable[[], int]:
    env, random = (FastNoGame() if fast else NoGame()), Random(0).random
    return lambda: play(env, random)


def parser() -> argparse.ArgumentParser:
    """The bench's options."""
    parser = argparse.ArgumentParser(prog="python -m bench envs")
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure and run")
    parser.add_argument("--runs", type=int, default=3)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv or [])
    loops: dict[str, Callable[[], int]] = {}
    goals: dict[str, float] = {}
    uno = uno_loop()
    if uno is None:
        print("RLCard is not installed, so the UNO peer is skipped (pip install rlcard).")
    else:
        loops[PEER] = uno
    for described in descriptors():
        if described.integrations.encoding is None:
            continue
        batched_goal, aec_goal = GOALS.get(described.id, DEFAULT_GOALS)
        if described.integrations.twin is not None:
            name = f"{described.title}, batched"
            loops[name], goals[name] = batched_loop(described.id), batched_goal
            loops[f"{described.title}, vector step"] = vector_step_loop(described.id)
        name = f"{described.title}, AEC"
        loops[name], goals[name] = aec_loop(described.id), aec_goal
    loops[FLOOR] = floor_loop()
    loops[FAST_FLOOR] = floor_loop(fast=True)
    load = os.getloadavg()[0]
    figures: dict[str, list[float]] = {name: [] for name in loops}
    shares: list[float] = []
    for _ in range(args.runs):
        for name, loop in loops.items():
            rate, share = timed(loop, args.seconds)
            figures[name].append(rate)
            shares.append(share)
    print(f"actions per CPU second, median of {args.runs} runs of {args.seconds:g} s "
          f"(this process had {median(shares):.0%} of the wall clock, median; load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs)")
    print(f"  {'':<24} {'actions/s':>12} {'x UNO':>8}  {'goal':<13} runs")
    for name, rates in figures.items():
        print(_line(name, rates, figures.get(PEER), goals.get(name)))
    _floors(figures)


def _line(name: str, rates: list[float], peer: list[float] | None, goal: float | None) -> str:
    """One figure: the median rate, its ratio to UNO and the goal, and each run's rate."""
    runs = ", ".join(f"{r:,.0f}" for r in rates)
    ratio = verdict = ""
    if peer is not None and name != PEER:
        times = median(ours / theirs for ours, theirs in zip(rates, peer, strict=True))
        ratio = f"{times:.1f}x"
        if goal is not None:
            verdict = f"{goal:g}x {'meets' if times >= goal else 'misses'}"
    return f"  {name:<24} {median(rates):>12,.0f} {ratio:>8}  {verdict:<13} ({runs})"


def _floors(figures: dict[str, Any]) -> None:
    if PEER not in figures:
        return
    for floor, what in ((FLOOR, "with PettingZoo's own agent_iter, last and dead steps"),
                        (FAST_FLOOR, "with ours")):
        if floor in figures:
            ceiling = median(f / p for f, p in zip(figures[floor], figures[PEER], strict=True))
            print(f"The AEC loop with no game at all, {what}: {ceiling:.1f}x UNO")


if __name__ == "__main__":
    main()
