"""Pieces every terminal game shares: the console, the prompt, seat options.

Input arrives line by line from `ask`; end of input counts as `quit`, so a
script that runs out of lines ends the game cleanly instead of crashing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console

from chuko.bots import bot_levels
from chuko.core.errors import ConfigError

console = Console(highlight=False)


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
    if text.lower() in {"quit", "exit", "q"}:
        raise Quit
    return text


def warn(message: str) -> None:
    """One clear line about bad input; the game goes on."""
    console.print(f"[bold red]✗[/] {message}")


def parse_opponents(text: str, game_id: str, count: int) -> list[str]:
    """`--vs easy,hard` as a list of `count` bot levels (one given level is repeated)."""
    levels = [w.strip().lower() for w in text.split(",") if w.strip()]
    known = bot_levels(game_id)
    for level in levels:
        if level not in known:
            raise ConfigError(f"There is no {level!r} bot; choose from {', '.join(known)}.")
    if len(levels) == 1:
        levels *= count
    if len(levels) != count:
        raise ConfigError(f"--vs names {len(levels)} bot(s) but the game has {count} opponent(s).")
    return levels
