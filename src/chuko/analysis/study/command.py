"""`chuko study GAME`: the options each game's study takes, and the output (a rich table,
--json, --report FILE.html)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from random import SystemRandom
from typing import Any

from chuko.console import add_option_flags, option_values, say
from chuko.core import references
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.games import game_class


def _study(game_id: str) -> tuple[Any, Callable[[argparse.Namespace], Json]]:
    """The game's own study as its descriptor names it, or the study of bot games: its
    module (for its flags) and its `run_study`."""
    own = game_class(game_id).descriptor.integrations.study.module
    module_name, entry = references.split(own or f"{__package__}.play:run_study")
    module = import_module(module_name)
    return module, getattr(module, entry)


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.description = (f"Facts about {game_class(game_id).title}, exact where feasible and "
                          "sampled with 95% intervals otherwise.")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed of the sampled parts (default: a random one, reported)")
    parser.add_argument("--json", action="store_true", help="print the study as JSON")
    parser.add_argument("--report", metavar="FILE.html",
                        help="write a self-contained HTML report with plots (the lab extra)")
    _study(game_id)[0].add_arguments(parser, game_id)


def run(args: argparse.Namespace) -> int:
    if args.seed is None:
        args.seed = SystemRandom().randrange(2**31)
    if args.report:
        _check_writable(Path(args.report))
    study: Json = _study(args.game)[1](args)
    if args.report:
        from .report import html_report

        text = html_report([study], study["title"])
        Path(args.report).write_text(text, encoding="utf-8")
    if args.json:
        print(json.dumps(study))
    else:
        from .report import print_study

        print_study(study)
        if args.report:
            print(say(Text("Report written to {path}.", path=args.report)))
    return 0


def _check_writable(path: Path) -> None:
    if path.suffix.lower() not in (".html", ".htm"):
        raise ConfigError(Text("--report writes an HTML file (FILE.html), not {name}.",
                               name=repr(path.name)))
    if not path.parent.resolve().is_dir():
        raise ChukoError(Text("Cannot write {path}: its folder does not exist.",
                              path=str(path)))


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def add_game_flags(parser: argparse.ArgumentParser, game_id: str, *names: str) -> None:
    """The game's options `names` as the flags every command gives them (the study covers
    the game's other options itself: every bridge limit, both first players)."""
    described = game_class(game_id).descriptor
    add_option_flags(parser, described,
                     leave_out=[o.name for o in described.options if o.name not in names])


def game_option(args: argparse.Namespace, game_id: str, name: str) -> Any:
    """The value of the game's option `name` that the command line gives (`add_game_flags`),
    read by its descriptor: ConfigError in its sentence for a bad one."""
    return game_class(game_id).descriptor.option(name).value(option_values(args)[name])
