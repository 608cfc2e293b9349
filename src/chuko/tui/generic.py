"""`chuko play GAME` for any registered game that lists its moves and names no terminal
screen of its own: everything it knows comes from the game's descriptor and protocol.

Options are the descriptor's (`--name value`, checked by `Game.from_options`); `--vs`
gives one bot level per other seat, or `human` for a person at the same keyboard. The
screen shows the seat's view, the legal moves with a label each, and a sentence from the
engine after every move.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from rich.columns import Columns

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import (
    LINEUP_HELP,
    add_option_flags,
    console,
    game_from_flags,
    say,
    view_table,
)
from chuko.core.errors import ConfigError
from chuko.core.protocol import State
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.games import game_class

from .session import HUMAN, Session

MOVES_HELP = (
    ("1, a", Text("the move with that label")),
    ("PLAY 3", Text("a move as the game writes it: the text shown after a label")),
)


def _default_level(levels: Sequence[str]) -> str:
    return "easy" if "easy" in levels else levels[0]


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    add_option_flags(parser, described)
    levels = ", ".join((*described.levels, HUMAN))
    default = _default_level(described.levels)
    parser.add_argument("--vs", default=default,
                        help=f"who plays the other seats, from {levels}, one per seat "
                        f"separated by commas; {LINEUP_HELP} (default {default})")
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal and bots")


class GenericSession(Session[State]):
    """The screen every listed-moves game gets: its view as a table and its moves under
    labels; rules and hints come from the descriptor, like every screen's."""

    help_text = MOVES_HELP

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        game = self.state.game
        console.rule(say(game.title))
        console.print(view_table(self.state.view(seat), game.descriptor.traits.seat_lists,
                                 self.names, self.reader))
        shown = [f"[cyan]{key})[/] {move}" for key, move in listed.items()]
        moves = self.state.legal_moves(seat)
        console.print(Columns(shown or [str(move) for move in moves], padding=(0, 3)))


def screen(state: State, bots: Mapping[int, Bot]) -> GenericSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return GenericSession(state, bots)


def run(args: argparse.Namespace) -> int:
    rules = game_class(args.game)
    described = rules.descriptor
    if not described.traits.lists_moves:
        raise ConfigError(Text("{game} does not list its moves, so it needs a terminal screen "
                               "of its own.", game=described.title))
    game = game_from_flags(args)
    you = 0
    others = [seat for seat in range(game.players) if seat != you]
    lineup = parse_levels(args.vs, described.id, len(others), others=(HUMAN,))
    rng = make_rng(args.seed)
    state = game.new(None if args.seed is None else rng.randrange(2**32))
    bots = {seat: make_bot(described.id, level, Random(rng.getrandbits(64)))
            for seat, level in zip(others, lineup, strict=True) if level != HUMAN}
    console.print(f"[bold]{say(described.title)}[/]: {say(described.summary)}.")
    console.print(say(Text("Type {help} for the commands, {rules} for the rules.",
                           help="[cyan]help[/]", rules="[cyan]rules[/]")))
    return GenericSession(state, bots).run()
