"""`chuko play` (and `make play`) without a game: a menu of the games that can be played."""

from __future__ import annotations

from chuko.console import Quit, ask, console, warn
from chuko.core.numbers import whole_number
from chuko.games import game_module


def run_menu() -> int:
    from chuko.cli.main import COMMANDS, main

    games = list(COMMANDS["play"])
    while True:
        console.rule("[bold]chuko[/] — the Chükö card games and Chuchula")
        for number, game_id in enumerate(games, 1):
            game = game_module(game_id).Game
            console.print(f"  [cyan]{number}[/]) [bold]{game.title:<11}[/] {game.summary}")
        try:
            choice = ask("Pick a game by number or name (quit to leave):").lower()
        except Quit:
            return 0
        number = whole_number(choice)
        if number is not None and 1 <= number <= len(games):
            main(["play", games[number - 1]])
        elif choice in games:
            main(["play", choice])
        elif choice:
            warn(f"Type a number from 1 to {len(games)} or a game's name.")
