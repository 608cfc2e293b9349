"""Chuchula bots: `random` (any valid grouping), `easy` (greedy: the strongest group first,
then the strongest of the rest), `hard` (the advisor's grouping).

A bot reads its hand from its seat's view and builds its grouping with the engine's
own functions, so it never needs the ~200,000 legal groupings: callers may pass an
empty `legal_moves`. The adviser shows the advisor's grouping for the seat's hand;
`review` sets each grouping of a finished game beside the advisor's.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.deck52 import Card, parse_cards
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.core.words import number_text
from chuko.games.chuchula import (
    Game,
    Grouping,
    State,
    group_strength,
    grouping_words,
    random_grouping,
)
from chuko.solvers.chuchula_advisor import advise, greedy_grouping, position_chances

from . import refuse_options
from .reviewing import not_reviewed, opinion


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
    refuse_options(options, Text("{game} bots", game=Game.title))
    return ChuchulaBot(level, rng)


def about(total: float) -> Text:
    """"about 1.8 points", to a tenth: the advisor's tables are estimates."""
    points = number_text(round(total, 1))
    if points == "1":
        return Text("about 1 point")
    return Text("about {points} points", points=points)


class Adviser:
    """The advisor's grouping for the seat's hand (from its view) at this table's size."""

    def __init__(self, game: Game) -> None:
        self.players = game.players

    def hint(self, state: State, seat: int) -> Json:
        advice = advise(hand(state.view(seat)), self.players)
        return {
            "values": {str(advice.grouping): Text("{points} expected",
                                                  points=about(advice.total))},
            "note": Text("The advisor expects {points} from this grouping against typical "
                         "opponents.", points=about(advice.total)),
        }


# A grouping is called a mistake when the advisor expects this many points fewer from it
# than from its own. Greedy grouping (the easy bot) falls that far short on about 3 hands in
# 10 at two players and 1 in 10 at four; a random grouping almost always.
MISTAKE_GAP = 0.3
# A long game's review stops after this many groupings, so it takes bounded time (the
# advisor's time a hand: docs/performance.md, Chuchula).
REVIEW_HANDS = 40


def expected_points(grouping: Grouping, players: int) -> float:
    """The points the advisor's model expects from `grouping` at a table of `players`."""
    return sum(position_chances(group_strength(group), players)[place]
               for place, group in enumerate(grouping.groups))


def judged(grouping: Grouping, players: int) -> Json:
    """The advisor's word on one grouping: its own, as good, or short of its own by how much
    (a mistake from MISTAKE_GAP on)."""
    advice = advise(list(grouping.cards), players)
    mine, theirs = expected_points(grouping, players), advice.total
    if grouping == advice.grouping:
        return opinion(Text("the advisor's grouping: {points} expected", points=about(mine)))
    if about(mine) == about(theirs):
        return opinion(Text("as good as the advisor's grouping: {points} expected",
                            points=about(mine)))
    return opinion(Text("this grouping expected {mine}; the advisor's {theirs}: {grouping}",
                        mine=about(mine), theirs=about(theirs),
                        grouping=grouping_words(advice.grouping)), theirs - mine >= MISTAKE_GAP)


def review(record: Json) -> list[Json | None]:
    """Each grouping of a finished game beside the advisor's for the same hand: "this
    grouping expected about 0.9 points; the advisor's about 1.4 points: K♦ Q♦ J♦ · …, leaving
    out 5♠". The advisor's model, not proof (`opinion`). The first REVIEW_HANDS groupings:
    the next says so and those after have no verdict."""
    groupings: list[Grouping] = []

    def observe(_: Any, seat: int | None, move: Any) -> None:
        if seat is not None:  # the deal comes first, with no mover
            groupings.append(move)

    players = Game.replay(record, observe).game.players
    verdicts: list[Json | None] = [judged(g, players) for g in groupings[:REVIEW_HANDS]]
    if len(groupings) > REVIEW_HANDS:
        verdicts.append(not_reviewed(Text("the first {n} groupings of a game", n=REVIEW_HANDS)))
    return verdicts + [None] * (len(groupings) - len(verdicts))
