"""The terminal's shared pieces, used by every terminal front end (play, solve, simulate):
the console, the prompt, the one-line warning, long text paged, tables that fit where they
are printed, a game's view as a table of its fields, a game's rules and its options as
command-line flags.

Input arrives line by line from `ask`; end of input counts as `quit`, so a
script that runs out of lines ends the game cleanly instead of crashing.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from chuko.core.descriptor import Descriptor, Option
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json
from chuko.core.words import number_text, who
from chuko.games import descriptor, game_class, rules_text

console = Console(highlight=False)


# What leaves a game at any prompt; labels for moves must never be one of these.
QUIT_WORDS = frozenset({"quit", "exit", "q"})


class Quit(Exception):
    """The player asked to leave (or input ended)."""


def ask(prompt: str, read: Callable[[], str] | None = None) -> str:
    """One line from the player, stripped; raises Quit on 'quit', 'exit' or end of input."""
    console.print(f"[bold cyan]{prompt}[/] ", end="")
    line = (read or sys.stdin.readline)()
    if not line:
        console.print()
        raise Quit
    text = line.strip()
    if not sys.stdin.isatty():
        console.print(text, style="dim")
    if text.lower() in QUIT_WORDS:
        raise Quit
    return text


def warn(message: str) -> None:
    """One clear line about bad input; the game goes on."""
    console.print(f"[bold red]✗[/] {message}")


def show_long(text: RenderableType) -> None:
    """Print `text`; through the system's pager ($PAGER, else less) when a person at a
    terminal would otherwise see its start scroll away: when it is taller than the screen."""
    if not (console.is_terminal and sys.stdin.isatty()):
        console.print(text)
        return
    if len(console.render_lines(text, console.options, pad=False)) < console.height:
        console.print(text)
        return
    with _less_shows_colours(), console.pager(styles=True):
        console.print(text)


@contextmanager
def _less_shows_colours() -> Iterator[None]:
    """less passes the styles' escape codes through (-R), the reader's own LESS after."""
    before = os.environ.get("LESS")
    os.environ["LESS"] = f"-R {before}" if before else "-R"
    try:
        yield
    finally:
        if before is None:
            del os.environ["LESS"]
        else:
            os.environ["LESS"] = before


GAP = 2  # columns between two columns of a table


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *,
                right: Collection[int] = (), out: Console | None = None) -> None:
    """Rows under their headers, fitted to where they are printed and never breaking a word.
    Into a pipe or a file: a line per row, in aligned columns. On a terminal: a table whose
    columns wrap between words only when the terminal is too narrow for them; and when it is
    too narrow even for each column's longest word, every row as lines of its own. Cells
    may hold rich markup; the columns numbered in `right` are aligned right."""
    out = out or console
    if not out.is_terminal:
        _print_aligned(title, columns, rows, right, out)
        return
    texts = [[_plain(cell) for cell in column] for column in zip(columns, *rows, strict=True)]
    widths = fit(texts, out.width - GAP * (len(columns) - 1))
    if widths is None:
        _print_records(title, columns, rows, out)
        return
    wraps = any(_lines(cell, width) > 1 for column, width in zip(texts, widths, strict=True)
                for cell in column[1:])
    if title:  # as wide as the terminal, not the table
        out.print(title, style="table.title", markup=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True,
                  show_lines=wraps)  # a blank line between rows whose cells wrap
    for index, (header, width) in enumerate(zip(columns, widths, strict=True)):
        table.add_column(header, width=width, justify="right" if index in right else "left")
    for row in rows:
        table.add_row(*row)
    out.print(table)


def fit(columns: Sequence[Sequence[str]], room: int) -> list[int] | None:
    """Widths within `room` for columns of plain text (a column: its header and cells): as
    wide as their text if that fits; else each at least as wide as its longest word, the
    room left given where it saves the most lines; None when the longest words do not fit."""
    wanted = [max(map(_width, column)) for column in columns]
    widths = [max(map(_longest_word, column)) for column in columns]
    if sum(wanted) <= room:
        return wanted
    if sum(widths) > room:
        return None
    rows = list(zip(*columns, strict=True))
    while spare := room - sum(widths):
        best: tuple[float, int, int] | None = None  # (lines saved per column, which, how many)
        for index, column in enumerate(columns):
            # each row's height without this column, then with it at a width
            rest = [max((_lines(cell, widths[j]) for j, cell in enumerate(row) if j != index),
                        default=1) for row in rows]

            def height(width: int, column: Sequence[str] = column, rest: list[int] = rest) -> int:
                return sum(max(r, _lines(cell, width))
                           for r, cell in zip(rest, column, strict=True))

            now = height(widths[index])
            for extra in range(1, min(spare, wanted[index] - widths[index]) + 1):
                saved = now - height(widths[index] + extra)
                if saved > 0 and (best is None or saved / extra > best[0]):
                    best = (saved / extra, index, extra)
        if best is None:
            break
        widths[best[1]] += best[2]
    return widths


@lru_cache(maxsize=4096)
def _lines(text: str, width: int) -> int:
    """How many lines `text` takes when wrapped between words to `width`."""
    count = 0
    for paragraph in text.splitlines() or [""]:
        count += 1
        used = 0
        for word in paragraph.split():
            size = cell_len(word)
            if used and used + 1 + size > width:
                count += 1
                used = size
            else:
                used += size + (1 if used else 0)
    return count


def _plain(cell: str) -> str:
    return Text.from_markup(cell).plain


def _width(cell: str) -> int:
    return max(map(cell_len, _plain(cell).splitlines() or [""]))


def _longest_word(cell: str) -> int:
    return max(map(cell_len, _plain(cell).split() or [""]))


def _print_aligned(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]],
                   right: Collection[int], out: Console) -> None:
    """A line per row, each column as wide as its widest cell: what programs read."""
    lines = [[" ".join(_plain(cell).split()) for cell in row] for row in [columns, *rows]]
    widths = [max(map(cell_len, column)) for column in zip(*lines, strict=True)]
    if title:
        out.print(title, markup=False)
    for cells in lines:
        padded = [cell.rjust(width) if index in right else cell.ljust(width)
                  for index, (cell, width) in enumerate(zip(cells, widths, strict=True))]
        out.print((" " * GAP).join(padded).rstrip(), markup=False, highlight=False,
                  soft_wrap=True)


def _print_records(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]],
                   out: Console) -> None:
    """Each row as lines of header and value, for a terminal too narrow for the columns."""
    if title:
        out.print(title, style="table.title", markup=False)
    headers = [header.replace("\n", " ") for header in columns]
    label = min(max(map(cell_len, headers)), out.width // 2)
    for row in rows:
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, GAP, 0, 0))
        table.add_column(style="bold", width=label)
        table.add_column(width=max(1, out.width - label - GAP))
        for header, cell in zip(headers, row, strict=True):
            table.add_row(header, cell)
        out.print()
        out.print(table)


def read_rules(game_id: str, lang: str | None = None) -> str:
    """The game's rules as Markdown, in `lang` where they are translated into it (else in
    English); ConfigError when the file its descriptor names is missing."""
    try:
        return rules_text(game_id, lang)
    except (FileNotFoundError, ModuleNotFoundError) as error:
        described = descriptor(game_id)
        raise ConfigError(f"The rules of {described.title} are missing: "
                          f"{described.integrations.rules} "
                          "cannot be read.") from error


# How every --vs and --bots reads a list of levels (`chuko.bots.parse_levels` applies it).
LINEUP_HELP = ("a list shorter than the seats repeats in order to fill them: easy,hard for "
               "three seats is easy, hard, easy")


OPTION_DEST = "option_"  # a game option's argparse dest, apart from the command's own


class OptionFlag(argparse.Action):
    """A game option as a flag: it keeps the text given, for `Game.from_options` to check,
    so a bad value is refused in the descriptor's words (argparse's own `choices` would
    refuse it in argparse's); `option` is the descriptor's `Option` it stands for."""

    def __init__(self, option_strings: list[str], dest: str, *, option: Option,
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.option = option

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)


def option_flag(option: Option) -> str:
    """The flag of a game option on every command: `turn_limit` → `--turn-limit`."""
    return "--" + option.name.replace("_", "-")


def add_option_flags(parser: argparse.ArgumentParser, described: Descriptor,
                     leave_out: Collection[str] = ()) -> None:
    """The game's options as flags (`option_flag`), with the descriptor's help and default,
    but those named in `leave_out`; the game's id becomes `args.game`, for
    `game_from_flags`. Every command that takes a game's options takes them through here."""
    parser.set_defaults(game=described.id)
    for option in described.options:
        if option.name in leave_out:
            continue
        words = [option.help or option.label]
        choices = list(map(str, option.choices or ())) if option.kind == "choice" else []
        if choices:
            words.append("one of " + ", ".join(choices))
        words.append(f"default {option.default}")
        parser.add_argument(option_flag(option), action=OptionFlag, option=option,
                            default=option.default,
                            metavar="{" + ",".join(choices) + "}" if choices else "VALUE",
                            dest=OPTION_DEST + option.name,
                            help="; ".join(words).replace("%", "%%"))


def option_values(args: argparse.Namespace) -> dict[str, Any]:
    """The game options the command line holds, by option name (unset ones left out)."""
    return {name.removeprefix(OPTION_DEST): value for name, value in vars(args).items()
            if name.startswith(OPTION_DEST) and value is not None}


def game_from_flags(args: argparse.Namespace, *, bots_only: bool = False) -> Game:
    """The game `args.game` configured by its option flags (`add_option_flags`), through
    `Game.from_options`; ConfigError in the descriptor's sentence for a bad value."""
    return game_class(args.game).from_options(option_values(args), bots_only=bots_only)


def drop_type_ahead() -> None:
    """Forget the keys typed while the program was busy (a hint being worked out), so they
    do not run as the next lines once it is done. Only on a terminal: piped input is a
    script, read whole."""
    try:
        import termios  # not on Windows, whose console has no such buffer to clear
    except ImportError:
        return
    try:
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):
        pass  # a terminal that will not say: its keys stay


# View fields the screen says in its own way (whose turn, the result) or that are seat
# numbers, which players never see.
UNSHOWN = {"game", "seat", "to_move", "outcome"}


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


def _per_seat(value: list[Any], names: Sequence[str], reader: int | None) -> str:
    """A list with one entry per seat, each after its seat's name: "You 3; Ann 5"."""
    return "; ".join(f"{who(seat, names, reader)} {_text(item)}"
                      for seat, item in enumerate(value))


def view_table(view: Json, seat_lists: Sequence[str], names: Sequence[str],
               reader: int | None) -> Table:
    """The view's fields, one a row; the lists under `seat_lists` (the descriptor's keys
    that hold one entry per seat) name their seats by `names`, `reader` as "You"."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim", justify="right")
    table.add_column()
    for key, value in view.items():
        if key in UNSHOWN:
            continue
        seated = key in seat_lists and isinstance(value, list) and len(value) == len(names)
        shown = _per_seat(value, names, reader) if seated else _text(value)
        table.add_row(key.replace("_", " ").capitalize(), shown)
    return table
