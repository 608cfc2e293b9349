"""`chuko play` (and `make play`) without a game: a menu of the games that can be played.

The command line passes in which games have a terminal player and how to start one, so
the menu lists what the registry holds and never imports the command line. Like every
prompt it takes help, rules (with a game's number or name) and quit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.markdown import Markdown

from chuko.console import Quit, ask, console, read_rules, say, show_long, warn
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError
from chuko.core.numbers import whole_number
from chuko.core.text import Text
from chuko.games import descriptor

from .session import HELP_WORDS

RULES = "rules"
MENU_HELP = Text("Type a game's number or name to play it, rules and a game's number or name "
                 "for its rules (rules 2), or quit to leave.")


def run_menu(games: Sequence[str], launch: Callable[[str], int]) -> int:
    """Offer `games` (ids) until the player quits; `launch(id)` plays one."""
    described = [descriptor(game) for game in games]
    listed = False
    while True:
        if not listed:  # at the start and after each game; a bad line just asks again
            show_menu(described)
            listed = True
        try:
            choice = ask(Text("Pick a game by number or name (help, rules, quit):")).casefold()
        except Quit:
            return 0
        word, _, rest = choice.partition(" ")
        if choice in HELP_WORDS:
            console.print(say(MENU_HELP))
        elif word == RULES:
            listed = not show_rules(described, rest.strip())
        elif (picked := chosen(described, choice)) is not None:
            launch(picked.id)
            listed = False
        elif choice:
            warn(Text("Type a number from 1 to {last} or a game's name.", last=len(described)))


def show_menu(described: Sequence[Descriptor]) -> None:
    console.rule("[bold]" + say(Text("Games")) + "[/]")
    titles = [say(game.title) for game in described]
    width = max(map(len, titles), default=0)
    for label, (game, title) in enumerate(zip(described, titles, strict=True), 1):
        console.print(f"  [cyan]{label}[/]) [bold]{title:<{width}}[/]  {say(game.summary)}")


def chosen(described: Sequence[Descriptor], choice: str) -> Descriptor | None:
    """The game a line names by its number, id or title; None for anything else."""
    number = whole_number(choice)
    if number is not None and 1 <= number <= len(described):
        return described[number - 1]
    named = [game for game in described
             if choice in (game.id.casefold(), game.title.casefold(),
                           say(game.title).casefold())]
    return named[0] if named else None


def show_rules(described: Sequence[Descriptor], choice: str) -> bool:
    """The rules of the game `choice` names, paged; whether they were shown (the menu is
    listed again after them)."""
    game = chosen(described, choice)
    if game is None:
        warn(Text("Name the game after rules: a number from 1 to {last} or a game's name.",
                  last=len(described)))
        return False
    try:
        show_long(Markdown(read_rules(game.id)))
    except ChukoError as error:
        warn(error)
        return False
    return True
