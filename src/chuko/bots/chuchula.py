"""Chuchula bots: `random` (any valid grouping), `easy` (greedy: the strongest group first,
then the strongest of the rest), `hard` (the advisor's grouping).

A bot reads its hand from its seat's view and builds its grouping with the engine's
own functions, so it never needs the ~200,000 legal groupings: callers may pass an
empty `legal_moves`. The adviser shows the advisor's grouping for the seat's hand.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.deck52 import Card, parse_cards
from chuko.core.protocol import Json
from chuko.core.words import number_text
from chuko.games.chuchula import Game, Grouping, State, random_grouping
from chuko.solvers.chuchula_advisor import advise, greedy_grouping

from . import refuse_options


def hand(view: Json) -> tuple[Card, ...]:
    return parse_cards(" ".join(view["hand"]))


class ChuchulaBot:
    def __init__(self, level: str, rng: Random) -> None:
        self.level = level
        self.rng = rng

    def choose(self, view: Json, legal_moves: list[Any]) -> Grouping:
        cards = hand(view)
        if self.level == "random":
            return random_grouping(cards, self.rng)
        if self.level == "easy":
            return greedy_grouping(cards)
        return advise(cards, view["players"]).grouping


def make_bot(level: str, rng: Random, **options: Any) -> ChuchulaBot:
    refuse_options(options, f"{Game.title} bots")
    return ChuchulaBot(level, rng)


def about(total: float) -> str:
    """"about 1.8 points", to a tenth: the advisor's tables are estimates."""
    points = number_text(round(total, 1))
    return f"about {points} {'point' if points == '1' else 'points'}"


class Adviser:
    """The advisor's grouping for the seat's hand (from its view) at this table's size."""

    def __init__(self, game: Game) -> None:
        self.players = game.players

    def hint(self, state: State, seat: int) -> Json:
        advice = advise(hand(state.view(seat)), self.players)
        return {
            "values": {str(advice.grouping): f"{about(advice.total)} expected"},
            "note": f"The advisor expects {about(advice.total)} from this grouping against "
            "typical opponents.",
        }
