"""Chükö bots. Each sees only its seat's view (ruling K6) and the legal moves.

- `random` picks any legal move.
- `easy` follows the rule text's advice: keep cards with several prime factors, put
  pressure on the next player with cards few others can follow, and reset on purpose
  when the next player is down to one card and a reset puts a harder card on top.
- `hard` is determinized Monte Carlo search: each simulation deals the cards it cannot
  see at random, consistently with its view (`games.chuko.sampler`), tries a move chosen
  by UCB1 and plays the game out with a fast greedy policy; the move with the best win
  rate is played. Its budget is a time per move (200 ms by default) or a fixed number of
  simulations (reproducible, used by tests and benchmarks).

The adviser shows the hard bot's choice, made from the seat's view alone.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import Counter
from functools import cache
from random import Random
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.games.chuko import Game, Move, State, may_follow, sampler

from . import Bot, RandomBot, refuse_options

# How much holding on to a card that fits on many top cards is worth, against the pressure
# it puts on the next player once played (rule text: "keep cards with several factors").
KEEP = 0.5
# A deliberate reset must put a card on top that this much fewer unseen cards may follow.
RESET_GAIN = 0.2


def make_bot(level: str, rng: Random, **options: Any) -> Bot:
    if level == "hard":
        return HardBot(rng, **options)
    refuse_options(options, f"{Game.title} {level} bots")
    return RandomBot(rng) if level == "random" else EasyBot()


def unseen_cards(view: dict[str, Any]) -> list[int]:
    """The cards a seat cannot see: the pack less its hand and the play pile."""
    cards = Counter(view["pack"])
    cards.subtract(view["hand"])
    cards.subtract(view["pile"])
    return list((+cards).elements())


def pressure(card: int, unseen: list[int]) -> float:
    """Share of the unseen cards that may follow `card` once it is on top (K1)."""
    if not unseen:
        return 0.0
    return sum(may_follow(c, card) for c in unseen) / len(unseen)


def reach(card: int, unseen: list[int]) -> float:
    """Share of the unseen cards on which `card` could later be played: why it is worth
    keeping (cards with several prime factors follow more tops)."""
    if not unseen:
        return 0.0
    return sum(may_follow(card, c) for c in unseen) / len(unseen)


class EasyBot:
    level = "easy"

    def choose(self, view: dict[str, Any], legal_moves: list[Move]) -> Move:
        unseen = unseen_cards(view)
        cards = [m.card for m in legal_moves if m.card is not None]
        seat, sizes = view["seat"], view["hand_sizes"]
        next_out = sizes[(seat + 1) % len(sizes)] == 1

        def cost(card: int) -> float:
            # With the next player on one card, only stopping them matters.
            keep = 0.0 if next_out else KEEP * reach(card, unseen)
            return pressure(card, unseen) + keep

        if view["phase"] == "reset":  # after the draw: play anything
            return Move(min(cards, key=cost))
        if not cards:
            return Move(None)
        best = min(cards, key=cost)
        if next_out:
            hardest = min(pressure(c, unseen) for c in view["hand"])
            if hardest + RESET_GAIN < pressure(best, unseen):
                return Move(None)
        return Move(best)


@cache
def _rollout_costs(pack: tuple[int, ...]) -> dict[int, float]:
    """The easy bot's cost against the whole pack instead of the unseen cards: a static
    table, so that rollouts choose a card with one lookup."""
    values = list(pack)
    return {card: pressure(card, values) + KEEP * reach(card, values) for card in set(pack)}


def greedy_playout(state: State, rng: Random, epsilon: float = 0.1) -> None:
    """Play on until the game ends: each player makes the cheapest normal play (reset when
    there is none, then play the cheapest card), and a random legal card with probability
    `epsilon` so that the simulations vary."""
    cost = _rollout_costs(state.game.pack).__getitem__
    while state.outcome is None:
        cards = state.playable()
        if not cards:
            state.reset()
            cards = state.playable()
        if len(cards) > 1 and rng.random() < epsilon:
            state.put(cards[int(rng.random() * len(cards))])
        else:
            state.put(min(cards, key=cost))


class HardBot:
    level = "hard"

    def __init__(
        self,
        rng: Random,
        time_limit: float | None = 0.2,
        simulations: int | None = None,
        exploration: float = 0.7,
    ) -> None:
        if simulations is not None and (not isinstance(simulations, int) or simulations < 1):
            raise ConfigError("The hard bot's simulations are a positive whole number.")
        if simulations is None and (time_limit is None or time_limit <= 0):
            raise ConfigError("The hard bot needs a positive time per move or simulations.")
        self.rng = rng
        self.time_limit = time_limit
        self.simulations = simulations
        self.exploration = exploration
        self.last_simulations = 0  # how many the last decision ran (for benchmarks)

    def choose(self, view: dict[str, Any], legal_moves: list[Move]) -> Move:
        if len(legal_moves) == 1:
            self.last_simulations = 0
            return legal_moves[0]
        seat, rng = view["seat"], self.rng
        sample = sampler(view)
        count = len(legal_moves)
        wins = [0.0] * count
        visits = [0] * count
        if self.simulations is not None:
            limit, deadline = float(self.simulations), math.inf
        else:  # __init__ made sure there is a positive time limit
            limit, deadline = math.inf, time.perf_counter() + (self.time_limit or 0.0)
        done = 0
        while done < limit and time.perf_counter() < deadline:
            if done < count:
                arm = done
            else:
                log = math.log(done)
                arm = max(
                    range(count),
                    key=lambda i: (
                        wins[i] / visits[i] + self.exploration * math.sqrt(log / visits[i])
                    ),
                )
            world = sample(rng)
            world.play(seat, legal_moves[arm])
            greedy_playout(world, rng)
            visits[arm] += 1
            wins[arm] += world.winner == seat
            done += 1
        self.last_simulations = done
        best = max(range(count), key=lambda i: wins[i] / visits[i] if visits[i] else -1.0)
        return legal_moves[best]


# How long the adviser's hard bot thinks: a hint should come at once.
ADVISER_TIME = 0.3


class Adviser:
    """The hard bot's choice for the seat to move, from that seat's view alone (ruling K6):
    Chükö has no exact solver, and a hint must not show hidden cards."""

    def __init__(self, game: Game) -> None:
        self.bot = HardBot(secrets.SystemRandom(), time_limit=ADVISER_TIME)

    def hint(self, state: State, seat: int) -> Json:
        move = self.bot.choose(state.view(seat), state.legal_moves(seat))
        what = "reset" if move.card is None else f"play {move}"
        return {"values": {str(move): "best"}, "note": f"The hard bot would {what}."}
