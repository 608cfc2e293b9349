"""`chuko puzzle`: one Crossroads puzzle in the terminal. The board as `chuko play
crossroads` shows it, one move typed, the exact solver's verdict and the puzzle's theme
after. `--id` asks for a puzzle, else one near `--rating` is picked (`--seed` repeats the
pick); `--answer` gives the move without a prompt; `--json` prints the puzzle, and with
`--answer` the verdict, as one JSON object."""

from __future__ import annotations

import argparse
import json
from random import Random

from rich.markup import escape

from chuko.console import Quit, ask, console, warn
from chuko.core.errors import ChukoError
from chuko.core.protocol import Json
from chuko.practice.puzzle_ratings import Belief, next_puzzle
from chuko.practice.puzzles import Puzzle, by_id, judge, shipped, task
from chuko.tui.layout import layout_table

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


def show(shown: Json) -> None:
    view = shown["state"]
    seat = shown["seat"]
    console.rule(f"Crossroads puzzle {shown['id']} — rating {shown['rating']}")
    console.print(layout_table(view))
    for who, trail_seat in (("You", seat), ("Opponent", 1 - seat)):
        trail = " ".join(map(str, view["trails"][trail_seat])) or "(no card yet)"
        console.print(f"{who:>9}: {view['totals'][trail_seat]} so far, trail {trail}")
    console.print(f"{shown['prompt']} Moves: {', '.join(shown['legal'])}.")


def verdict_lines(verdict: Json) -> list[str]:
    colour = "green" if verdict["solved"] else "red"
    return [f"[{colour}]{escape(verdict['text'])}[/]", f"Theme: {verdict['sentence']}"]


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
            verdict = judge(puzzle, ask("Your move: "))
        except Quit:
            return 0
        except ChukoError as error:
            warn(str(error))
    for line in verdict_lines(verdict):
        console.print(line)
    return 0
