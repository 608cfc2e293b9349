"""`chuko play` (and `make play`) without a game: a menu of the games that can be played.

The command line passes in which games have a terminal player and how to start one, so
the menu lists what the registry holds and never imports the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chuko.console import Quit, ask, console, warn
from chuko.core.numbers import whole_number
from chuko.games import descriptor


def run_menu(games: Sequence[str], launch: Callable[[str], int]) -> int:
    """Offer `games` (ids) until the player quits; `launch(id)` plays one."""
    described = [descriptor(game) for game in games]
    width = max((len(d.title) for d in described), default=0)
    listed = False
    while True:
        if not listed:  # at the start and after each game; a bad line just asks again
            console.rule("[bold]Games[/]")
            for label, game in enumerate(described, 1):
                console.print(f"  [cyan]{label}[/]) [bold]{game.title:<{width}}[/]  "
                              f"{game.summary}")
            listed = True
        try:
            choice = ask("Pick a game by number or name (quit to leave):").casefold()
        except Quit:
            return 0
        number = whole_number(choice)
        named = [d.id for d in described if choice in (d.id.casefold(), d.title.casefold())]
        if number is not None and 1 <= number <= len(described):
            launch(described[number - 1].id)
            listed = False
        elif named:
            launch(named[0])
            listed = False
        elif choice:
            warn(f"Type a number from 1 to {len(described)} or a game's name.")
