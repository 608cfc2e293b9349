"""Chuchula bots: `random` (any valid grouping), `easy` (greedy: the strongest group first,
then the strongest of the rest), `hard` (the advisor's grouping).

A bot reads its hand from its seat's view and builds its grouping with the engine's
own functions, so it never needs the ~200,000 legal groupings: callers may pass an
empty `legal_moves`.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.deck52 import parse_cards
from chuko.core.errors import ConfigError
from chuko.games.chuchula import Grouping, random_grouping
from chuko.solvers.chuchula_advisor import advise, greedy_grouping

LEVELS = ("random", "easy", "hard")


def levels(game_id: str) -> tuple[str, ...]:
    return LEVELS


class ChuchulaBot:
    def __init__(self, level: str, rng: Random) -> None:
        self.level = level
        self.rng = rng

    def choose(self, view: dict[str, Any], legal_moves: list[Any]) -> Grouping:
        hand = parse_cards(" ".join(view["hand"]))
        if self.level == "random":
            return random_grouping(hand, self.rng)
        if self.level == "easy":
            return greedy_grouping(hand)
        return advise(hand, view["players"]).grouping


def make_bot(game_id: str, level: str, rng: Random, **options: Any) -> ChuchulaBot:
    if options:
        raise ConfigError(f"Chuchula bots take no options, not {', '.join(options)}.")
    if level not in LEVELS:
        raise ConfigError(f"There is no {level!r} Chuchula bot; choose from {', '.join(LEVELS)}.")
    return ChuchulaBot(level, rng)
