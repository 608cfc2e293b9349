"""`chuko solve GAME`: exact answers about layout positions, for the games whose descriptor
names this command; which solver serves a game, and what it answers, is the solvers'
business (`chuko.solvers.answers`).

With --deal, one position; without, one deal per line of standard input and one answer
per line, so thousands of deals are solved in one process. The game's options are flags
as in every command, except the pack: the deal gives the cards.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from rich.table import Table

import chuko
from chuko.console import add_option_flags, console, option_values, refusal, say
from chuko.core.errors import ChukoError, ConfigError, ParseError
from chuko.core.layout import parse_layout, parse_moves
from chuko.core.protocol import Json, State
from chuko.core.text import Text
from chuko.games import game_class
from chuko.solvers.answers import SOLVERS, Answer, Solver, solver_for


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    game = game_class(game_id)
    solver = SOLVERS.get(game)  # a game without one is told so when the command runs
    if solver is not None:
        parser.description = f"{game.title}: {solver.about}."
    parser.add_argument(
        "--deal", help='the layout, e.g. "6 15 10 7 / 9 14 8 11 / 2 21 22 30"; '
        "without it, deals are read from standard input, one per line",
    )
    parser.add_argument("--moves", default="", help='moves played so far, e.g. "A E BR"')
    parser.add_argument("--json", action="store_true", help="one JSON object per deal")
    add_option_flags(parser, game.descriptor, leave_out=[o.name for o in game.descriptor.options
                                                         if o.kind == "pack"])


def _play(state: State, moves: str) -> None:
    for number, move in enumerate(parse_moves(moves), 1):
        if not state.to_move:
            raise ParseError(Text("Move {number} ({move}) comes after the game is over.",
                                  number=number, move=move))
        try:
            state.play(state.to_move[0], move)
        except ChukoError as error:
            raise ParseError(Text("Move {number} ({move}) is not legal: {reason}",
                                  number=number, move=move, reason=error.args[0])) from None


def _answer(solver: Solver, args: argparse.Namespace, text: str) -> Answer:
    state = solver.start(option_values(args), parse_layout(text))
    _play(state, args.moves)
    return solver.answer(state)


def _answers(args: argparse.Namespace
             ) -> Iterator[tuple[int, str, Answer | None, ChukoError | None]]:
    """(line number, deal text, answer or None, refusal or None) for each deal asked."""
    game = game_class(args.game)
    solver = solver_for(game)
    game.descriptor.read_options(option_values(args))  # a bad option fails once, not per line
    lines = [args.deal] if args.deal is not None else sys.stdin
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield number, text, _answer(solver, args, text), None
        except ChukoError as error:
            yield number, text, None, error


def run(args: argparse.Namespace) -> int:
    failed = False
    for number, text, answer, error in _answers(args):
        if answer is None:
            assert error is not None
            if args.deal is not None:
                raise ConfigError(*error.args)
            failed = True
            said = say(Text("line {number}: {reason}", number=number, reason=refusal(error)))
            print(f"{chuko.__name__}: {said}", file=sys.stderr)
            if args.json:
                problem: Json = {"line": number, "input": text, "error": str(error)}
                print(json.dumps(problem), flush=True)
        elif args.json:
            print(json.dumps(answer.data), flush=True)
        else:
            _show(answer)
    return 2 if failed else 0


def _show(answer: Answer) -> None:
    moves = " ".join(answer.data["moves"]) or "—"
    console.print(f"[bold]{answer.data['deal']}[/]  " + say(Text("moves: {moves}", moves=moves)))
    console.print(say(answer.summary))
    if answer.rows:
        table = Table(box=None, padding=(0, 2))
        table.add_column(say(Text("move")))
        table.add_column(say(answer.column), justify="right")
        for move, value, best in answer.rows:
            table.add_row(f"[bold green]{move}[/]" if best else move, say(value))
        console.print(table)
    console.print()
