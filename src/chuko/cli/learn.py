"""`chuko learn GAME`: the game's lesson, step by step, on the game's own terminal screen.

Each step sets up its position on the screen `chuko play` uses, says what to do, and asks
for moves until one is the move the step asks for; the engine judges every attempt and a
wrong one gets a sentence about why. The last step starts a real game.
"""

from __future__ import annotations

import argparse
import json
from importlib import import_module
from random import Random
from typing import Any

from chuko.bots import make_bot
from chuko.console import Quit, console, say
from chuko.core import references
from chuko.core.errors import IllegalMove
from chuko.core.text import Text
from chuko.games import descriptor
from chuko.practice.lessons import Step, lesson, step

HELP: dict[str, str] = {}  # the verb's line in main.py serves every game
GENERIC_SCREEN = "chuko.tui.generic:run"


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.description = (f"Learn {descriptor(game_id).title} in a few short steps, each a "
                          "position on the board where you make the move it asks for.")
    parser.add_argument("--step", type=int, default=1,
                        help="the step to begin at (1 is the first)")
    parser.add_argument("--json", action="store_true",
                        help="print the lesson's steps as JSON instead of teaching them")


def _screen_module(game_id: str) -> Any:
    """The module of the game's terminal screen, whose `screen(state, bots)` teaches."""
    play = descriptor(game_id).integrations.commands.get("play", GENERIC_SCREEN)
    return import_module(references.split(play)[0])


def _teach(found: Step, total: int) -> None:
    """One step: its position on the game's screen, moves asked for until one is right."""
    state = found.position()
    seat = state.to_move[0]
    others = {other: make_bot(found.game_id, "random", Random(other))
              for other in range(state.game.players) if other != seat}
    session = _screen_module(found.game_id).screen(state, others)
    done: list[str] = []

    def referee(mover: int, move: Any) -> None:
        verdict = found.judge(str(move))
        if not verdict.right:
            raise IllegalMove(verdict.sentence)
        done.append(verdict.sentence)

    session.referee = referee
    show_step(found, total)
    while not done:
        session.human_turn(seat)
    console.print(f"[bold green]✓[/] {say(done[0])}")


def show_step(found: Step, total: int) -> None:
    """The step's heading and what it asks, in the terminal's language."""
    console.rule(say(Text("Step {number} of {total}: {title}", number=found.number,
                          total=total, title=found.title)))
    console.print(say(found.text))


def _play(found: Step, total: int) -> int:
    """The last step: a real game on the game's own screen, against the step's bot."""
    show_step(found, total)
    module = _screen_module(found.game_id)
    parser = argparse.ArgumentParser()
    module.add_arguments(parser, found.game_id)
    level = (found.play or {}).get("level")
    args = parser.parse_args(["--vs", level] if level else [])
    args.game = found.game_id
    result: int = module.run(args)
    return result


def run(args: argparse.Namespace) -> int:
    steps = lesson(args.game)
    first = step(args.game, args.step)  # LessonError names the steps there are
    if args.json:
        print(json.dumps({"game": args.game, "steps": [s.to_json() for s in steps]},
                         ensure_ascii=False))
        return 0
    for found in steps[first.number - 1:]:
        if found.play is not None:
            return _play(found, len(steps))
        try:
            _teach(found, len(steps))
        except Quit:
            again = f"chuko learn {args.game} --step {found.number}"
            console.print(say(Text("Goodbye: `{command}` takes up where you left off.",
                                   command=again)))
            return 0
    return 0
