"""The terminal's shared pieces, used by every terminal front end (play, solve, simulate):
the console, the prompt, the one-line warning, a game's rules and its options as
command-line flags.

Input arrives line by line from `ask`; end of input counts as `quit`, so a
script that runs out of lines ends the game cleanly instead of crashing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console

from chuko.core.descriptor import Option
from chuko.core.errors import ConfigError
from chuko.games import descriptor, rules_text

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


def add_option_flags(parser: argparse.ArgumentParser, options: Iterable[Option]) -> None:
    """Each game option as a flag (`turn_limit` → `--turn-limit VALUE`); the values stay
    text for `Game.from_options` to check, so a bad one is refused in the engine's words."""
    for option in options:
        words = [option.help or option.label]
        if option.kind == "choice" and option.choices:
            words.append("one of " + ", ".join(map(str, option.choices)))
        words.append(f"default {option.default}")
        parser.add_argument("--" + option.name.replace("_", "-"), metavar="VALUE",
                            dest=OPTION_DEST + option.name,
                            help="; ".join(words).replace("%", "%%"))


def option_values(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, by option name (unset ones left out)."""
    return {name.removeprefix(OPTION_DEST): value for name, value in vars(args).items()
            if name.startswith(OPTION_DEST) and value is not None}
