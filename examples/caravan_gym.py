"""Caravan through Gymnasium: a masked random policy and an oracle, the `perfect` bot.

    python examples/caravan_gym.py [--episodes 1000] [--seed 0]

Both policies play the same deals (the same reset seeds) through `gymnasium.make`. The
random policy picks uniformly among the legal actions of `info["action_mask"]`; the oracle
asks the exact solver's bot for a move from the player's view and turns it into the
environment's action with the game's encoding. The oracle's win rate is the share of
deals that can be won at all: the ceiling for anything a learner could do. On a terminal a
progress bar follows each policy's episodes. Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from random import Random
from typing import Any

import gymnasium
import numpy as np

import chuko.envs  # noqa: F401  (registers chuko/Caravan-v0 with Gymnasium)
from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import proportion_interval
from chuko.bots import make_bot

Policy = Callable[[Any, dict[str, Any]], int]


def masked_random(rng: Random) -> Policy:
    def choose(env: Any, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(info["action_mask"])
        return int(legal[rng.randrange(len(legal))])

    return choose


def oracle(rng: Random) -> Policy:
    bot = make_bot("caravan", "perfect", rng)

    def choose(env: Any, info: dict[str, Any]) -> int:
        table = env.unwrapped
        state = table.state
        move = bot.choose(state.view(table.seat), state.legal_moves(table.seat))
        return int(table.encoding.action(move))

    return choose


def wins(policy: Policy, episodes: int, seed: int,
         advance: Callable[[int], None] = lambda n: None) -> int:
    env = gymnasium.make("chuko/Caravan-v0")
    won = 0
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            _, reward, terminated, truncated, info = env.step(policy(env, info))
            done = terminated or truncated
        won += reward > 0
        advance(1)
    env.close()
    return won


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name, policy in (("masked random", masked_random(Random(args.seed))),
                         ("perfect (oracle)", oracle(Random(args.seed)))):
        with progress_bar(args.episodes, f"{name:<17}") as advance:
            won = wins(policy, args.episodes, args.seed, advance)
        rate = proportion_interval(won, args.episodes)
        print(f"{name:<17} won {won} of {args.episodes} episodes: {rate.percent()}")


if __name__ == "__main__":
    main()
