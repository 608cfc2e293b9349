"""`chuko play caravan`: the solitaire, with hints from the exact solver and undo."""

from __future__ import annotations

import argparse

from chuko.console import console
from chuko.core.layout import LayoutMove
from chuko.core.numbers import matches
from chuko.core.rng import make_rng
from chuko.games.caravan import DESCRIPTOR, Caravan, CaravanState
from chuko.solvers.caravan import CaravanSolver

from .layout import (
    LayoutSession,
    add_deal_arguments,
    card_words,
    chain,
    deal_options,
    layout_names,
    layout_table,
)

HELP = {"caravan": "play the Caravan solitaire, with hints and undo"}

RULES = """\
[bold]Caravan[/]: place all 12 cards in one caravan. Take one of the yellow cards (the \
leftmost of each row). The first card is free; each later card goes at the left (L) or \
right (R) end and must share a prime factor with that end's card — unless that end is a \
face-down bridge, beside which anything goes. Add [bold]*[/] to place a card face down as \
a bridge (e.g. [bold]FL*[/]); bridges are limited and two may not touch. You win when all \
12 cards are placed with both ends face up.
Type a number from the list or the move. [bold]hint[/] shows which moves still win, \
[bold]undo[/] takes a move back, [bold]quit[/] leaves."""


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--bridges", default="2",
                        help="bridge limit 0–11, or easy (3), standard (2), hard (1)")
    add_deal_arguments(parser)


def run(args: argparse.Namespace) -> int:
    rng = make_rng(args.seed)
    game = Caravan(**deal_options(args), bridges=DESCRIPTOR.option("bridges").value(args.bridges))
    state = game.new(seed=rng.randrange(2**32))
    solver = CaravanSolver(state.layout, game.bridges)

    def show(state: CaravanState) -> None:
        view = state.view(0)
        console.rule("Caravan")
        console.print(layout_table(view))
        console.print(f"Caravan ({len(state.caravan)}/12): {chain(state.caravan)}")
        console.print(f"Bridges used: {state.bridges_used} of {game.bridges}")

    def ending(state: CaravanState) -> None:
        """After a loss, whether the deal could have been won, and how."""
        if state.outcome and not state.outcome.winners:
            start = Caravan(deal=state.layout, bridges=game.bridges).new()
            line = solver.solution(start)
            console.print("This deal could be won: " + " ".join(map(str, line))
                          if line else "This deal cannot be won at all.")

    def preview(state: CaravanState, move: LayoutMove) -> str:
        card = card_words(state.layout[move.position])
        if move.end is None:
            return f"take {card} to start the caravan"
        side = "left" if move.end == "L" else "right"
        if move.bridge:
            return f"take {card} face down at the {side} (a bridge)"
        end_card, face_up = state.caravan[0] if move.end == "L" else state.caravan[-1]
        beside = f"matches {end_card}" if face_up and matches(
            state.layout[move.position], end_card) else "beyond the bridge"
        return f"take {card} to the {side}: {beside}"

    def hint_values(state: CaravanState) -> dict[LayoutMove, str]:
        return {m: "[green]can still win[/]" if wins else "[red]loses[/]"
                for m, wins in solver.options(state).items()}

    session = LayoutSession(
        state=state,
        humans={0},
        bots={},
        names=layout_names({}, game.players),
        show=show,
        preview=preview,
        hint_values=hint_values,
        help_text=RULES,
        ending=ending,
    )
    console.print(RULES)
    return session.run()
