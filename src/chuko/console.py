"""The terminal's shared pieces, used by every terminal front end (play, solve, simulate):
the console, the prompt, the one-line warning, a game's rules and its options as
command-line flags.

Input arrives line by line from `ask`; end of input counts as `quit`, so a
script that runs out of lines ends the game cleanly instead of crashing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection
from typing import Any

from rich.console import Console

from chuko.core.descriptor import Descriptor, Option
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game
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


def read_rules(game_id: str) -> str:
    """The game's rules as Markdown; ConfigError when the file its descriptor names is
    missing."""
    try:
        return rules_text(game_id)
    except (FileNotFoundError, ModuleNotFoundError) as error:
        described = descriptor(game_id)
        raise ConfigError(f"The rules of {described.title} are missing: {described.rules} "
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
