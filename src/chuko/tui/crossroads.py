"""`chuko play crossroads`: draft from the layout against a bot (or a friend at the same
keyboard) and build your trail."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import add_option_flags, console, say
from chuko.core.layout import LayoutMove
from chuko.core.numbers import matches
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text
from chuko.games.crossroads import DESCRIPTOR, Crossroads, CrossroadsState, round_phrase

from .layout import (
    LayoutSession,
    add_deal_arguments,
    card_words,
    chain,
    layout_game,
    layout_table,
)
from .session import HUMAN

HELP = {"crossroads": "play Crossroads against a bot or a friend"}

RULES = Text("""\
{game}: take turns taking one of the yellow cards (the leftmost of each row). \
Your first card starts your trail; each later card goes at its left (L) or right (R) end \
and scores 1 when it shares a prime factor with the card at that end. Six cards each; most \
points wins.
Type a number from the list, or the move: the card's letter, then L or R (e.g. \
{example}). {help} lists the commands, {rules} gives the full rules.""",
             game="[bold]Crossroads[/]", example="[bold]BR[/]", help="[bold]help[/]",
             rules="[bold]rules[/]")


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    parser.add_argument("--vs", default="easy",
                        help="opponent: random, easy, hard, perfect or human (default easy); "
                        "you are seat 0, the opponent seat 1")
    add_deal_arguments(parser)


class CrossroadsSession(LayoutSession[CrossroadsState]):
    def show_position(self) -> None:
        view = self.state.view(0)
        console.rule(say(Text("Crossroads — round {number} of {rounds}", number=view["round"],
                              rounds=view["rounds"])))
        console.print(layout_table(view))
        state = self.state
        # The round's points beside the round's trails; a match adds each player's total.
        totals = state.totals() if state.game.rounds > 1 else None
        self.show_trails(state.trails, state.points[state.round], totals)

    def show_trails(self, trails: tuple[list[int], list[int]], points: Sequence[int],
                    totals: Sequence[int] | None = None) -> None:
        for seat in (0, 1):
            scored = say(Plural("{n} point", "{n} points", n=points[seat]))
            total = ""
            if totals is not None:
                said = say(Text("total {points}", points=totals[seat]))
                total = f"[dim]{said:<9}[/] "
            name = say(Text("You")) if seat == self.reader else self.names[seat]
            console.print(f"{name:>12} [bold]{scored:<9}[/] {total}"
                          f"{chain([(c, True) for c in trails[seat]])}")

    def show_result(self) -> None:
        """A match's end says the match's result first, then each round: its result and
        both trails with the round's points."""
        state, outcome = self.state, self.state.outcome
        if state.game.rounds == 1 or outcome is None:
            super().show_result()
            return
        console.rule(say(Text("Crossroads — the match")))
        console.print(f"[bold]{say(outcome.describe(self.names, self.reader))}[/]")
        played = [*state.past_trails, state.trails]
        for number, (trails, points) in enumerate(zip(played, state.points, strict=True)):
            said = say(round_phrase(points, number, self.names, self.reader))
            console.print(f"\n[bold]{said[0].upper()}{said[1:]}[/]")
            self.show_trails(trails, points)

    def preview(self, move: LayoutMove) -> Text:
        card = self.state.layout[move.position]
        trail = self.state.trails[self.state.to_move[0]]
        if move.end is None:
            return Text("take {card} to start the trail", card=card_words(card))
        left = move.end == "L"
        end = trail[0] if left else trail[-1]
        gain = "[green]+1[/]" if matches(card, end) else "+0"
        if left:
            return Text("take {card} to the left, beside {end}: {gain}", card=card_words(card),
                        end=end, gain=gain)
        return Text("take {card} to the right, beside {end}: {gain}", card=card_words(card),
                    end=end, gain=gain)


def screen(state: CrossroadsState, bots: Mapping[int, Bot]) -> CrossroadsSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return CrossroadsSession(state, bots)


def run(args: argparse.Namespace) -> int:
    rng = make_rng(args.seed)
    opponent = parse_levels(args.vs, Crossroads.id, 1, others=(HUMAN,))[0]
    game = layout_game(args, Crossroads)
    state = game.new(seed=rng.randrange(2**32))
    bots = {} if opponent == HUMAN else {1: make_bot(Crossroads.id, opponent, rng)}
    console.print(say(RULES))
    return CrossroadsSession(state, bots).run()
