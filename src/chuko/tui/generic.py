"""`chuko play GAME` for any registered game that lists its moves and names no terminal
screen of its own: everything it knows comes from the game's descriptor and protocol.

Options are the descriptor's (`--name value`, checked by `Game.from_options`); `--vs`
gives one bot level per other seat, or `human` for a person at the same keyboard. The
screen shows the seat's view, the legal moves with a label each, and a sentence from the
engine after every move.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from random import Random
from string import ascii_lowercase
from typing import Any

from rich.columns import Columns
from rich.markdown import Markdown
from rich.table import Table

from chuko.bots import Adviser, Bot, make_adviser, make_bot, parse_levels
from chuko.console import Quit, add_option_flags, ask, console, option_values, warn
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.rng import make_rng
from chuko.core.words import bot_name, number_text, seat_names
from chuko.games import game_class, rules_text

HUMAN = "human"
PERSON = "Player"  # a second person at the keyboard; the one playing is "You"
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


def labels(moves: Sequence[Any]) -> list[str]:
    """A label per move: numbers, or letters where a move is written as a number, so a
    label never reads as another move; none when both would."""
    texts = {str(move).casefold() for move in moves}
    for scheme in ([str(n) for n in range(1, len(moves) + 1)], list(ascii_lowercase)):
        chosen = scheme[:len(moves)]
        if len(chosen) == len(moves) and not texts & set(chosen):
            return chosen
    return []


class Session:
    """One game at the terminal: who is a person, the bots, the names, and the states
    before each of the person's moves (for undo)."""

    def __init__(self, game: Game, state: State, bots: dict[int, Bot], humans: list[int]):
        self.game, self.state, self.bots, self.humans = game, state, bots, humans
        labels_ = [PERSON for _ in range(game.players)]
        for seat, bot in bots.items():
            labels_[seat] = bot_name(bot.level)
        self.names = seat_names(labels_)
        # One person reads the game as "You"; people sharing a keyboard read it as onlookers.
        self.reader: int | None = humans[0] if len(humans) == 1 else None
        self.history: list[State] = []
        self.adviser: Adviser | None = None

    def run(self) -> int:
        try:
            while self.state.outcome is None:
                waiting = self.state.to_move
                people = [seat for seat in waiting if seat in self.humans]
                seat = people[0] if people else waiting[0]
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    bot = self.bots[seat]
                    self.played(seat, bot.choose(self.state.view(seat),
                                                 self.state.legal_moves(seat)))
        except Quit:
            console.print("Goodbye.")
            return 0
        outcome = self.state.outcome
        console.rule("Game over")
        console.print(f"[bold]{outcome.describe(self.names, self.reader)}[/]")
        return 0

    def played(self, seat: int, move: Any) -> None:
        self.state.play(seat, move)  # raises before anything changes
        console.print(f"  {self.state.describe(seat, move, self.names, self.reader)}")

    def prompt(self, seat: int) -> str:
        return "Your move?" if seat == self.reader else f"{self.names[seat]}, your move?"

    def human_turn(self, seat: int) -> None:
        console.rule(self.game.title)
        console.print(view_table(self.state.view(seat)))
        moves = self.state.legal_moves(seat)
        keys = labels(moves)
        shown = [f"[cyan]{key})[/] {move}" for key, move in zip(keys, moves, strict=True)]
        console.print(Columns(shown or [str(move) for move in moves], padding=(0, 3)))
        by_label = dict(zip(keys, moves, strict=True))
        while True:
            text = ask(self.prompt(seat))
            command = text.casefold()
            if not text:
                continue
            if command in {"help", "?"}:
                console.print(COMMANDS)
            elif command == "rules":
                self.show_rules()
            elif command == "hint":
                self.hint(seat)
            elif command == "undo":
                if self.undo():
                    return
            else:
                try:
                    before = self.state.copy()
                    move = by_label[command] if command in by_label else self.game.parse_move(text)
                    self.played(seat, move)
                except ChukoError as error:
                    warn(str(error))
                    continue
                self.history.append(before)
                return

    def show_rules(self) -> None:
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

    def undo(self) -> bool:
        if self.reader is None:
            warn("Undo is for games against bots only.")
            return False
        if not self.history:
            warn("There is nothing to undo yet.")
            return False
        self.state = self.history.pop()
        console.print("[yellow]Your last move is taken back.[/]")
        return True


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
    humans = [you, *(seat for seat in others if seat not in bots)]
    console.print(f"[bold]{described.title}[/]: {described.summary}.")
    console.print("Type [cyan]help[/] for the commands, [cyan]rules[/] for the rules.")
    return Session(game, state, bots, humans).run()
