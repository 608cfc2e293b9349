"""`chuko play crossroads`: draft from the layout against a bot (or a friend at the same
keyboard) and build your trail."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import add_option_flags, console
from chuko.core.layout import LayoutMove
from chuko.core.numbers import matches
from chuko.core.rng import make_rng
from chuko.core.words import count, who
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

RULES = """\
[bold]Crossroads[/]: take turns taking one of the yellow cards (the leftmost of each row). \
Your first card starts your trail; each later card goes at its left (L) or right (R) end \
and scores 1 when it shares a prime factor with the card at that end. Six cards each; most \
points wins.
Type a number from the list, or the move: the card's letter, then L or R (e.g. \
[bold]BR[/]). [bold]help[/] lists the commands, [bold]rules[/] gives the full rules."""


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    parser.add_argument("--vs", default="easy",
                        help="opponent: random, easy, hard, perfect or human (default easy); "
                        "you are seat 0, the opponent seat 1")
    add_deal_arguments(parser)


class CrossroadsSession(LayoutSession[CrossroadsState]):
    def show_position(self) -> None:
        view = self.state.view(0)
        console.rule(f"Crossroads — round {view['round']} of {view['rounds']}")
        console.print(layout_table(view))
        state = self.state
        # The round's points beside the round's trails; a match adds each player's total.
        totals = state.totals() if state.game.rounds > 1 else None
        self.show_trails(state.trails, state.points[state.round], totals)

    def show_trails(self, trails: tuple[list[int], list[int]], points: Sequence[int],
                    totals: Sequence[int] | None = None) -> None:
        for seat in (0, 1):
            scored = count(points[seat], "point")
            total = f"[dim]{f'total {totals[seat]}':<9}[/] " if totals is not None else ""
            console.print(f"{who(seat, self.names, self.reader):>12} "
                          f"[bold]{scored:<9}[/] {total}{chain([(c, True) for c in trails[seat]])}")

    def show_result(self) -> None:
        """A match's end says the match's result first, then each round: its result and
        both trails with the round's points."""
        state, outcome = self.state, self.state.outcome
        if state.game.rounds == 1 or outcome is None:
            super().show_result()
            return
        console.rule("Crossroads — the match")
        console.print(f"[bold]{outcome.describe(self.names, self.reader)}[/]")
        played = [*state.past_trails, state.trails]
        for number, (trails, points) in enumerate(zip(played, state.points, strict=True)):
            said = round_phrase(points, number, self.names, self.reader)
            console.print(f"\n[bold]{said[0].upper()}{said[1:]}[/]")
            self.show_trails(trails, points)

    def preview(self, move: LayoutMove) -> str:
        card = self.state.layout[move.position]
        trail = self.state.trails[self.state.to_move[0]]
        if move.end is None:
            return f"take {card_words(card)} to start the trail"
        end = trail[0] if move.end == "L" else trail[-1]
        side = "left" if move.end == "L" else "right"
        gain = "[green]+1[/]" if matches(card, end) else "+0"
        return f"take {card_words(card)} to the {side}, beside {end}: {gain}"


def screen(state: CrossroadsState, bots: Mapping[int, Bot]) -> CrossroadsSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return CrossroadsSession(state, bots)


def run(args: argparse.Namespace) -> int:
    rng = make_rng(args.seed)
    opponent = parse_levels(args.vs, Crossroads.id, 1, others=(HUMAN,))[0]
    game = layout_game(args, Crossroads)
    state = game.new(seed=rng.randrange(2**32))
    bots = {} if opponent == HUMAN else {1: make_bot(Crossroads.id, opponent, rng)}
    console.print(RULES)
    return CrossroadsSession(state, bots).run()
