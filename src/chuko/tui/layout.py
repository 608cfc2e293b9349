"""Terminal play for the layout games: the 4×3 layout, trails or the caravan, the prompt.

Crossroads and Caravan share the screen's layout part and the prompt loop; each game's
own module (tui/crossroads.py, tui/caravan.py) adds its options, its moves' wording and
its hint values.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from rich.table import Table
from rich.text import Text

from chuko.bots import Bot
from chuko.console import Quit, ask, console, warn
from chuko.core.errors import ChukoError
from chuko.core.layout import COLUMNS, LETTERS, ROWS, LayoutMove, parse_layout
from chuko.core.numbers import factor_text, whole_number
from chuko.core.packs import parse_pack
from chuko.core.protocol import State
from chuko.core.words import bot_name, seat_names


def add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every layout game takes: a pack or a fixed deal, and a seed."""
    parser.add_argument("--pack", default="standard", help="named pack, list or range (12 cards)")
    parser.add_argument("--deal", help='a fixed layout, e.g. "6 15 10 7 / 9 14 8 11 / 2 21 22 30"')
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal")


def deal_options(args: argparse.Namespace) -> dict:
    """`pack` and `deal` for a layout game's configuration, from those options."""
    return {"pack": parse_pack(args.pack), "deal": parse_layout(args.deal) if args.deal else None}


def layout_table(view: dict) -> Table:
    """The layout with every card's letter; available cards raised in yellow."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in range(COLUMNS):
        table.add_column(justify="center")
    available = set(view["available"])
    for row in range(ROWS):
        cells = []
        for column in range(COLUMNS):
            index = row * COLUMNS + column
            card = view["layout"][index]
            letter = LETTERS[index]
            if card is None:
                cells.append(Text("   ·   ", style="dim"))
            elif letter in available:
                cells.append(Text(f" {letter} {card:>3} ", style="bold black on yellow"))
            else:
                cells.append(Text(f" {letter} {card:>3} ", style="white on grey23"))
        table.add_row(*cells)
    return table


def chain(pieces: list[tuple[int, bool]]) -> str:
    """A trail or caravan as 'L ◀ 6 — [▒▒] — 15 ▶ R' (bridges face down)."""
    if not pieces:
        return "[dim](empty)[/]"
    body = " — ".join(f"[bold]{card}[/]" if up else "[on grey30]▒▒[/]" for card, up in pieces)
    return f"[dim]L ◀[/] {body} [dim]▶ R[/]"


def layout_names(bots: dict[int, Bot], players: int) -> list[str]:
    """Seat names: "Easy bot" and the like for bots, "Player" for people (the one person
    playing against bots reads "You")."""
    return seat_names([bot_name(bots[s].level) if s in bots else "Player"
                       for s in range(players)])


LayoutState = TypeVar("LayoutState", bound=State)


@dataclass
class LayoutSession(Generic[LayoutState]):
    """One game at the terminal: who is a person, how bots move, what a move would do
    (`preview`, beside each listed move) and, once played, the engine's sentence about it."""

    state: LayoutState
    humans: set[int]
    bots: dict[int, Bot]
    names: list[str]
    show: Callable[[LayoutState], None]
    preview: Callable[[LayoutState, LayoutMove], str]
    hint_values: Callable[[LayoutState], dict[LayoutMove, str]]
    help_text: str
    ending: Callable[[LayoutState], None] = lambda state: None  # more to say after the result
    history: list[LayoutState] = field(default_factory=list)

    @property
    def reader(self) -> int | None:
        """The seat the sentences say "You" to: the one person against bots; people sharing
        the keyboard read them as onlookers. Undo is fair only then, too."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def run(self) -> int:
        try:
            while self.state.to_move:
                seat = self.state.to_move[0]
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
        assert outcome is not None  # nobody is to move only once the game is over
        self.show(self.state)
        console.print(f"[bold]{outcome.describe(self.names, self.reader)}[/]")
        self.ending(self.state)
        return 0

    def played(self, seat: int, move: LayoutMove) -> None:
        self.state.play(seat, move)  # raises before anything changes
        console.print(f"  {self.state.describe(seat, move, self.names, self.reader)}")

    def human_turn(self, seat: int) -> None:
        self.show(self.state)
        moves = self.state.legal_moves(seat)
        for label, move in enumerate(moves, 1):
            console.print(f"  [cyan]{label:>2}[/]) [bold]{str(move):<4}[/] "
                          f"{self.preview(self.state, move)}")
        asking = "Your move" if seat == self.reader else f"{self.names[seat]}, your move"
        while True:
            text = ask(f"{asking} (number, notation, hint, help):")
            if not text:
                continue
            command = text.lower()
            if command in {"help", "?", "h"}:
                console.print(self.help_text)
            elif command == "hint":
                values = self.hint_values(self.state)
                for move in moves:
                    console.print(f"  [bold]{str(move):<4}[/] {values[move]}")
            elif command in {"undo", "u"}:
                if self.undo():
                    return
            elif (number := whole_number(command)) is not None:
                if 1 <= number <= len(moves):
                    self.push(seat, moves[number - 1])
                    return
                warn(f"Pick a number from 1 to {len(moves)}.")
            else:
                try:
                    self.push(seat, self.state.game.parse_move(text))
                    return
                except ChukoError as error:
                    warn(str(error))

    def push(self, seat: int, move: LayoutMove) -> None:
        before = cast(LayoutState, self.state.copy())  # a copy is of the state's own class
        self.played(seat, move)
        self.history.append(before)

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


def card_words(card: int) -> str:
    return f"{card} ({factor_text(card)})"
