"""`chuko rules GAME`: the game's rules, the same Markdown the browser's rules page shows.

The text is in the language the command line was given (`args.lang`, where it sets one),
or English. On a terminal the Markdown is rendered, and paged when taller than the screen;
piped or with --plain it is printed as written (Markdown reads well as text); --json gives
it to programs.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.markdown import Markdown

from chuko.console import console, read_rules, show_long
from chuko.games import descriptor


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.description = f"The rules of {descriptor(game_id).title}."
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--plain", action="store_true",
                       help="the Markdown text as written (the default when not on a terminal)")
    shown.add_argument("--json", action="store_true",
                       help='one JSON object: {"id", "title", "markdown"}')


def run(args: argparse.Namespace) -> int:
    described = descriptor(args.game)
    text = read_rules(described.id, getattr(args, "lang", None))  # the caller's language
    if args.json:
        document = {"id": described.id, "title": described.title, "markdown": text}
        print(json.dumps(document, ensure_ascii=False))
    elif args.plain or not console.is_terminal:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        show_long(Markdown(text))
    return 0
