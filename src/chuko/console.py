"""The terminal's shared pieces, used by every terminal front end (play, solve, simulate):
the console, the prompt and the one-line warning.

Input arrives line by line from `ask`; end of input counts as `quit`, so a
script that runs out of lines ends the game cleanly instead of crashing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console

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
