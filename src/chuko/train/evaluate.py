"""Measuring a policy: whole games through the engine, the policy playing as a bot
(`chuko.bots.policy.PolicyBot`, so it sees only its seat's view) against bots of one level,
its seat rotating from game to game.

Evaluation seeds are `EVALUATION_SEEDS + k`, far from any seed training draws from its
`--seed` (training environments take their seeds from numpy's SeedSequence, 32-bit
numbers below 2**32), so the held-out games are never games trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.bots import Bot, make_bot
from chuko.bots.policy import Policy, PolicyBot, game_encoding
from chuko.core.protocol import Game
from chuko.envs.common import returns

EVALUATION_SEEDS = 2**40


@dataclass(frozen=True)
class Score:
    """The learner's results over `games` games: wins (a return above 0; in a one-seat game
    a win pays 1), draws, and the mean return."""

    games: int
    wins: int
    draws: int
    mean_return: Interval

    @property
    def win_rate(self) -> Interval:
        return proportion_interval(self.wins, self.games)

    def describe(self) -> str:
        return (f"wins {self.win_rate.percent()} of {self.games:,} games ({self.draws:,} "
                f"draws), mean return {self.mean_return}")


def play_one(game: Game, learner: Bot, level: str | None, seed: int, seat: int) -> float:
    """The learner's return in the game dealt from `seed`, played from `seat` (0 when a
    turn limit stops the game)."""
    state = game.new(seed)
    rng = Random(seed)
    bots = {other: make_bot(game.id, level or "random", Random(rng.getrandbits(64)))
            for other in range(game.players) if other != seat}
    while state.outcome is None:
        for mover in state.to_move:
            bot = learner if mover == seat else bots[mover]
            state.play(mover, bot.choose(state.view(mover), state.legal_moves(mover)))
    outcome = state.outcome
    return 0.0 if outcome.truncated else returns(outcome.scores)[seat]


def evaluate(policy: Policy, game: Game, level: str | None, games: int, first: int = 0,
             greedy: bool = True) -> Score:
    """The policy against `level` over the evaluation deals `first` to `first + games - 1`."""
    learner = PolicyBot(policy, game_encoding(game), Random(first), greedy, "learner")
    results = []
    for k in range(first, first + games):
        results.append(play_one(game, learner, level, EVALUATION_SEEDS + k, k % game.players))
    wins = sum(r > 0 for r in results)
    draws = sum(r == 0 for r in results) if game.players > 1 else 0
    return Score(games, wins, draws, mean_interval(results))
