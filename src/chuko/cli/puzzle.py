"""`chuko puzzle`: one Crossroads puzzle in the terminal. The board as `chuko play
crossroads` shows it, one move typed, the exact solver's verdict and the puzzle's theme
after. `--id` asks for a puzzle, else one near `--rating` is picked (`--seed` repeats the
pick); `--answer` gives the move without a prompt; `--json` prints the puzzle, and with
`--answer` the verdict, as one JSON object."""

from __future__ import annotations

import argparse
import json
from random import Random

from rich.markdown import Markdown
from rich.markup import escape

from chuko.console import Quit, ask, console, read_rules, say, show_long, warn
from chuko.core.errors import ChukoError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.practice.puzzle_ratings import Belief, next_puzzle
from chuko.practice.puzzles import Puzzle, by_id, judge, shipped, task
from chuko.tui.layout import layout_table
from chuko.tui.session import HELP_WORDS

HELP = {"": "solve a Crossroads puzzle: find the one move that keeps your best result"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--id", help="the puzzle to show (default: one near --rating)")
    parser.add_argument("--rating", type=int, default=1500,
                        help="pick a puzzle near this rating (default 1500)")
    parser.add_argument("--seed", type=int, help="seed for the pick, to repeat it")
    parser.add_argument("--answer", help="the move, e.g. BR, instead of a prompt")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the board")


def pick(args: argparse.Namespace) -> Puzzle:
    if args.id is not None:
        return by_id(args.id)
    beliefs = {p.id: Belief.of_puzzle(p.rating) for p in shipped()}
    ident = next_puzzle(Belief(rating=args.rating), beliefs, (), Random(args.seed))
    assert ident is not None  # the shipped set is never empty
    return by_id(ident)


HOW_TO_ANSWER = Text("Type the move in notation: the card's letter, then L or R for the end "
                     "of your trail it goes to (BR), or a first card's letter alone. rules "
                     "shows the rules of Crossroads, quit leaves.")


def show(shown: Json) -> None:
    view = shown["state"]
    seat = shown["seat"]
    console.rule(say(Text("Crossroads puzzle {id} — rating {rating}", id=shown["id"],
                          rating=shown["rating"])))
    console.print(layout_table(view))
    for who, trail_seat in ((Text("You"), seat), (Text("Opponent"), 1 - seat)):
        trail = " ".join(map(str, view["trails"][trail_seat])) or say(Text("(no card yet)"))
        so_far = Text("{points} so far, trail {trail}", points=view["totals"][trail_seat],
                      trail=trail)
        console.print(f"{say(who):>9}: {say(so_far)}")
    console.print(say(Text("{task} Moves: {moves}.", task=shown["prompt"],
                           moves=", ".join(shown["legal"]))))
    console.print(say(Text("Type your move, help, rules or quit.")), style="dim")


def verdict_lines(verdict: Json) -> list[str]:
    colour = "green" if verdict["solved"] else "red"
    return [f"[{colour}]{escape(say(verdict['text']))}[/]",
            say(Text("Theme: {sentence}", sentence=verdict["sentence"]))]


def answered(puzzle: Puzzle, shown: Json, line: str) -> Json | None:
    """The verdict on a typed line; None after a command (help, rules) or a refused move."""
    word = line.casefold()
    if not word:
        return None
    if word in HELP_WORDS:
        console.print(say(HOW_TO_ANSWER))
        return None
    if word == "rules":
        try:
            show_long(Markdown(read_rules(puzzle.state().game.id)))
        except ChukoError as error:
            warn(error)
            return None
        show(shown)  # the position the rules scrolled away
        return None
    try:
        return judge(puzzle, line)
    except ChukoError as error:
        warn(error)
        return None


def run(args: argparse.Namespace) -> int:
    puzzle = pick(args)
    shown = task(puzzle)
    if args.json:
        out = {"puzzle": shown}
        if args.answer is not None:
            out["verdict"] = judge(puzzle, args.answer)
        print(json.dumps(out))
        return 0
    show(shown)
    verdict = judge(puzzle, args.answer) if args.answer is not None else None
    while verdict is None:
        try:
            verdict = answered(puzzle, shown, ask(Text("Your move:")))
        except Quit:
            return 0
    for line in verdict_lines(verdict):
        console.print(line)
    return 0
