"""Terminal play for the layout games: the 4×3 layout, trails or the caravan, the prompt.

Crossroads and Caravan share the screen's layout part and the numbered list of moves; each
game's own module (tui/crossroads.py, tui/caravan.py) adds its game's option flags, how it
draws the rest of the position, its moves' wording and its hint values.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rich.table import Table
from rich.text import Text as Styled

from chuko.console import console, game_from_flags, say
from chuko.core.errors import ParseError
from chuko.core.layout import COLUMNS, LETTERS, ROWS, LayoutMove
from chuko.core.numbers import factor_text, whole_number
from chuko.core.protocol import State
from chuko.core.text import Text
from chuko.games.layout_game import LayoutGame

from .session import Session

MOVES_HELP = (
    ("number", Text("the move with that number in the list")),
    ("BR", Text("a move in notation: the card's letter, then L or R for its end (a first card "
                "is the letter alone; a Caravan bridge adds *, as in FL*)")),
)


Dealt = TypeVar("Dealt", bound=LayoutGame)


def add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every layout screen takes besides the game's options: a fixed deal and a
    seed."""
    parser.add_argument("--deal", help='a fixed layout, e.g. "6 15 10 7 / 9 14 8 11 / 2 21 22 30"'
                        " (its cards are the pack)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal")


def layout_game(args: argparse.Namespace, kind: type[Dealt]) -> Dealt:
    """The layout game the option flags configure (`game_from_flags`), with the fixed deal
    of --deal where one is given; ChukoError in one sentence for a bad one."""
    game = game_from_flags(args)
    assert isinstance(game, kind)  # the flags are the screen's own game's
    return replace(game, deal=args.deal) if args.deal else game


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
                cells.append(Styled("   ·   ", style="dim"))
            elif letter in available:
                cells.append(Styled(f" {letter} {card:>3} ", style="bold black on yellow"))
            else:
                cells.append(Styled(f" {letter} {card:>3} ", style="white on grey23"))
        table.add_row(*cells)
    return table


def chain(pieces: list[tuple[int, bool]]) -> str:
    """A trail or caravan as 'L ◀ 6 — [▒▒] — 15 ▶ R' (bridges face down)."""
    if not pieces:
        empty = say(Text("(empty)"))
        return f"[dim]{empty}[/]"
    body = " — ".join(f"[bold]{card}[/]" if up else "[on grey30]▒▒[/]" for card, up in pieces)
    return f"[dim]L ◀[/] {body} [dim]▶ R[/]"


LayoutState = TypeVar("LayoutState", bound=State)


class LayoutSession(Session[LayoutState]):
    """A layout game at the terminal: each listed move with what it would do (`preview`);
    the game's screen draws the rest (`show_position`)."""

    help_text = MOVES_HELP
    accepts = Text("number, notation, hint, help")

    def show_position(self) -> None:
        raise NotImplementedError

    def preview(self, move: LayoutMove) -> Text:
        raise NotImplementedError

    def labels(self, moves: Sequence[Any], reserved: Collection[str]) -> list[str]:
        return [str(number) for number in range(1, len(moves) + 1)]

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        self.show_position()
        for label, move in listed.items():
            console.print(f"  [cyan]{label:>2}[/]) [bold]{str(move):<4}[/] "
                          f"{say(self.preview(move))}")

    def read_move(self, text: str, listed: Mapping[str, Any]) -> Any:
        number = whole_number(text)
        if number is None:
            return super().read_move(text, listed)
        if not 1 <= number <= len(listed):
            raise ParseError(Text("Pick a number from 1 to {last}.", last=len(listed)))
        return list(listed.values())[number - 1]

    def show_end(self) -> None:
        self.show_position()


def card_words(card: int) -> str:
    return f"{card} ({factor_text(card)})"
