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
from rich.markdown import Markdown
from rich.table import Table

from chuko.bots import Adviser, Bot, make_adviser, make_bot, parse_levels
from chuko.console import add_option_flags, console, option_values, warn
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json, State
from chuko.core.rng import make_rng
from chuko.core.words import number_text
from chuko.games import game_class, rules_text

from .session import Command, Session

HUMAN = "human"
# View fields the screen says in its own way (whose turn, the result) or that are seat
# numbers, which players never see.
UNSHOWN = {"game", "seat", "to_move", "outcome"}

COMMANDS = """[cyan]number[/] or [cyan]letter[/]  the move with that label
[cyan]a move[/]      as the game writes it, e.g. the text shown after a label
[cyan]hint[/]        the value of each move, where the game gives hints
[cyan]undo[/]        take back your last move and the bots' replies (against bots only)
[cyan]rules[/]       the game's rules      [cyan]help[/]  this list      [cyan]quit[/]  leave"""


def _default_level(levels: Sequence[str]) -> str:
    return "easy" if "easy" in levels else levels[0]


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    parser.set_defaults(game=game_id)
    add_option_flags(parser, described.options)
    levels = ", ".join((*described.levels, HUMAN))
    parser.add_argument("--vs", default=_default_level(described.levels),
                        help=f"who plays the other seats: {levels} (one for all, or one per "
                        f"seat separated by commas; default {_default_level(described.levels)})")
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal and bots")


def _lineup(text: str, game_id: str, others: int) -> list[str]:
    """One word per other seat: a bot level, or `human`."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if not words:
        raise ConfigError("--vs names nobody: give a bot level or human.")
    if len(words) == 1:
        words *= others
    if len(words) != others:
        raise ConfigError(f"--vs names {len(words)} player(s) for {others} other seat(s).")
    return [w if w == HUMAN else parse_levels(w, game_id, 1)[0] for w in words]


def _text(value: Any) -> str:
    """A view field in words: lists as spaced items, nothing as a dash."""
    if value is None:
        return "·"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, dict):
        return ", ".join(f"{key.replace('_', ' ')} {_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "—"
        if all(isinstance(item, dict) for item in value):
            return f"{len(value)} so far"
        nested = any(isinstance(item, list | tuple) for item in value)
        return (" | " if nested else " ").join(_text(item) for item in value)
    return str(value)


def view_table(view: Json) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim", justify="right")
    table.add_column()
    for key, value in view.items():
        if key not in UNSHOWN:
            table.add_row(key.replace("_", " ").capitalize(), _text(value))
    return table


class GenericSession(Session[State]):
    """The screen every listed-moves game gets: its view as a table, its moves under
    labels, the descriptor's rules and the game's adviser."""

    help_text = COMMANDS
    offers_undo = True

    def __init__(self, state: State, bots: dict[int, Bot]) -> None:
        super().__init__(state, bots)
        self.game = state.game
        self.adviser: Adviser | None = None

    def commands(self) -> dict[str, Command]:
        return {**super().commands(), "rules": self.show_rules, "hint": self.hint}

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        console.rule(self.game.title)
        console.print(view_table(self.state.view(seat)))
        shown = [f"[cyan]{key})[/] {move}" for key, move in listed.items()]
        moves = self.state.legal_moves(seat)
        console.print(Columns(shown or [str(move) for move in moves], padding=(0, 3)))

    def show_rules(self, seat: int) -> None:
        try:
            console.print(Markdown(rules_text(self.game.id)))
        except (FileNotFoundError, ModuleNotFoundError):
            warn(f"The rules of {self.game.title} are missing.")

    def hint(self, seat: int) -> None:
        self.adviser = self.adviser or make_adviser(self.game)
        if self.adviser is None:
            warn(f"{self.game.title} gives no hints.")
            return
        advice = self.adviser.hint(self.state, seat)
        for move, value in advice.get("values", {}).items():
            console.print(f"  [bold]{move}[/]  {value}")
        if advice.get("note"):
            console.print(advice["note"])


def run(args: argparse.Namespace) -> int:
    rules = game_class(args.game)
    described = rules.descriptor
    if not described.lists_moves:
        raise ConfigError(f"{described.title} does not list its moves, so it needs a "
                          "terminal screen of its own.")
    game = rules.from_options(option_values(args))
    you = 0
    others = [seat for seat in range(game.players) if seat != you]
    lineup = _lineup(args.vs, described.id, len(others))
    rng = make_rng(args.seed)
    state = game.new(None if args.seed is None else rng.randrange(2**32))
    bots = {seat: make_bot(described.id, level, Random(rng.getrandbits(64)))
            for seat, level in zip(others, lineup, strict=True) if level != HUMAN}
    console.print(f"[bold]{described.title}[/]: {described.summary}.")
    console.print("Type [cyan]help[/] for the commands, [cyan]rules[/] for the rules.")
    return GenericSession(state, bots).run()
