"""`chuko play caravan`: the solitaire, with hints from the exact solver and undo."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from chuko.bots import Bot
from chuko.console import add_option_flags, console, say
from chuko.core.layout import LayoutMove
from chuko.core.numbers import matches
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.games.caravan import DESCRIPTOR, Caravan, CaravanState
from chuko.solvers.caravan import CaravanSolver

from .layout import (
    LayoutSession,
    add_deal_arguments,
    card_words,
    chain,
    layout_game,
    layout_table,
)

HELP = {"caravan": "play the Caravan solitaire, with hints and undo"}

RULES = Text("""\
{game}: place all 12 cards in one caravan. Take one of the yellow cards (the \
leftmost of each row). The first card is free; each later card goes at the left (L) or \
right (R) end and must share a prime factor with that end's card — unless that end is a \
face-down bridge, beside which anything goes. Add {star} to place a card face down as \
a bridge (e.g. {example}); bridges are limited and two may not touch. You win when all \
12 cards are placed with both ends face up.
Type a number from the list or the move. {help} lists the commands, {rules} gives the full \
rules.""", game="[bold]Caravan[/]", star="[bold]*[/]", example="[bold]FL*[/]",
             help="[bold]help[/]", rules="[bold]rules[/]")


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    add_deal_arguments(parser)


class CaravanSession(LayoutSession[CaravanState]):
    def __init__(self, state: CaravanState) -> None:
        super().__init__(state, {})
        self.bridges = state.game.bridges
        self.solver = CaravanSolver(state.layout, self.bridges)

    def show_position(self) -> None:
        console.rule(say(Text("Caravan")))
        console.print(layout_table(self.state.view(0)))
        console.print(say(Text("Caravan ({placed}/12): {chain}", placed=len(self.state.caravan),
                               chain=chain(self.state.caravan))))
        console.print(say(Text("Bridges used: {used} of {bridges}",
                               used=self.state.bridges_used, bridges=self.bridges)))

    def preview(self, move: LayoutMove) -> Text:
        state = self.state
        card = card_words(state.layout[move.position])
        if move.end is None:
            return Text("take {card} to start the caravan", card=card)
        left = move.end == "L"
        if move.bridge:
            return (Text("take {card} face down at the left (a bridge)", card=card) if left
                    else Text("take {card} face down at the right (a bridge)", card=card))
        end_card, face_up = state.caravan[0] if left else state.caravan[-1]
        if face_up and matches(state.layout[move.position], end_card):
            return (Text("take {card} to the left: matches {end}", card=card, end=end_card)
                    if left else
                    Text("take {card} to the right: matches {end}", card=card, end=end_card))
        return (Text("take {card} to the left: beyond the bridge", card=card) if left
                else Text("take {card} to the right: beyond the bridge", card=card))

    def after_end(self) -> None:
        """After a loss, whether the deal could have been won, and how."""
        outcome = self.state.outcome
        if outcome and not outcome.winners:
            start = Caravan(deal=self.state.layout, bridges=self.bridges).new()
            line = self.solver.solution(start)
            console.print(say(Text("This deal could be won: {line}",
                                   line=" ".join(map(str, line)))
                              if line else Text("This deal cannot be won at all.")))


def screen(state: CaravanState, bots: Mapping[int, Bot]) -> CaravanSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return CaravanSession(state)  # a solitaire: no bots


def run(args: argparse.Namespace) -> int:
    rng = make_rng(args.seed)
    game = layout_game(args, Caravan)
    state = game.new(seed=rng.randrange(2**32))
    console.print(say(RULES))
    return CaravanSession(state).run()
