"""`chuko solve crossroads|caravan`: exact values of layout positions.

With --deal, one position; without, one deal per line of standard input and one
answer per line, so thousands of deals are solved in one process.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from rich.table import Table

from chuko.console import console
from chuko.core.errors import ChukoError, ConfigError, ParseError
from chuko.core.layout import layout_text, parse_layout, parse_moves
from chuko.core.protocol import Json
from chuko.games.caravan import Caravan, CaravanState, parse_bridges
from chuko.games.crossroads import Crossroads, CrossroadsState
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver

HELP = {
    "crossroads": "value of every move under perfect play (own points − opponent's)",
    "caravan": "whether a deal can be won, a winning line and every move's outlook",
}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument(
        "--deal", help='the layout, e.g. "6 15 10 7 / 9 14 8 11 / 2 21 22 30"; '
        "without it, deals are read from standard input, one per line",
    )
    parser.add_argument("--moves", default="", help='moves played so far, e.g. "A E BR"')
    parser.add_argument("--json", action="store_true", help="one JSON object per deal")
    if game_id == "crossroads":
        parser.add_argument("--first", type=int, choices=(1, 2), default=1,
                            help="the player who takes the first card (default 1)")
        parser.add_argument("--rounds", type=int, choices=(1, 2), default=1,
                            help="2 for a two-round match (default 1)")
    else:
        parser.add_argument("--bridges", default="2",
                            help="bridge limit 0–11 or easy/standard/hard (default 2)")


def solve_crossroads(deal: tuple[int, ...], moves: str, first: int, rounds: int) -> Json:
    state = Crossroads(deal=deal, first=first - 1, rounds=rounds).new()
    _play(state, moves)
    solver = CrossroadsSolver(deal)
    answer: Json = {"deal": layout_text(deal), "moves": [str(m) for m in state.moves]}
    if not state.to_move:
        totals = state.totals()
        return {**answer, "to_move": None, "value": totals[0] - totals[1], "options": {},
                "best": [], "over": True}
    options = {str(m): v for m, v in solver.move_values(state).items()}
    top = max(options.values())
    return {
        **answer,
        "to_move": state.to_move[0] + 1,
        "points": list(state.totals()),
        "value": solver.value(state),
        "options": options,
        "best": [m for m, v in options.items() if v == top],
    }


def solve_caravan(deal: tuple[int, ...], moves: str, bridges: int) -> Json:
    state = Caravan(deal=deal, bridges=bridges).new()
    _play(state, moves)
    solver = CaravanSolver(deal, bridges)
    solution = solver.solution(state)
    return {
        "deal": layout_text(deal),
        "bridges": bridges,
        "moves": [str(m) for m in state.moves],
        "winnable": solver.winnable(state),
        "solution": None if solution is None else [str(m) for m in solution],
        "options": {str(m): wins for m, wins in solver.options(state).items()},
    }


def _play(state: CrossroadsState | CaravanState, moves: str) -> None:
    for number, move in enumerate(parse_moves(moves), 1):
        if not state.to_move:
            raise ParseError(f"Move {number} ({move}) comes after the game is over.")
        try:
            state.play(state.to_move[0], move)
        except ChukoError as error:
            raise ParseError(f"Move {number} ({move}) is not legal: {error}") from None


def _answers(args: argparse.Namespace) -> Iterator[tuple[int, str, Json | None, str | None]]:
    """(line number, deal text, answer or None, error or None) for each deal asked."""
    bridges = parse_bridges(args.bridges) if args.game == "caravan" else None
    lines = [args.deal] if args.deal is not None else sys.stdin
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            deal = parse_layout(text)
            if args.game == "crossroads":
                answer = solve_crossroads(deal, args.moves, args.first, args.rounds)
            else:
                answer = solve_caravan(deal, args.moves, bridges)
            yield number, text, answer, None
        except ChukoError as error:
            yield number, text, None, str(error)


def run(args: argparse.Namespace) -> int:
    failed = False
    for number, text, answer, error in _answers(args):
        if error is not None:
            if args.deal is not None:
                raise ConfigError(error)
            failed = True
            print(f"chuko: line {number}: {error}", file=sys.stderr)
            if args.json:
                print(json.dumps({"line": number, "input": text, "error": error}), flush=True)
            continue
        if args.json:
            print(json.dumps(answer), flush=True)
        else:
            _show(args.game, answer)
    return 2 if failed else 0


def _show(game: str, answer: Json) -> None:
    console.print(f"[bold]{answer['deal']}[/]  moves: {' '.join(answer['moves']) or '—'}")
    table = Table(box=None, padding=(0, 2))
    table.add_column("move")
    if game == "crossroads":
        if answer["to_move"] is None:
            console.print(f"The game is over: player 1 − player 2 = {answer['value']:+d}.\n")
            return
        console.print(
            f"Player {answer['to_move']} to move; value {answer['value']:+d} "
            f"(own points − opponent's under perfect play)"
        )
        table.add_column("value", justify="right")
        for move, value in answer["options"].items():
            style = "bold green" if move in answer["best"] else ""
            table.add_row(f"[{style}]{move}[/]" if style else move, f"{value:+d}")
    else:
        verdict = "[green]winnable[/]" if answer["winnable"] else "[red]not winnable[/]"
        console.print(f"Bridges {answer['bridges']}: {verdict}")
        if answer["solution"]:
            console.print("Winning line: " + " ".join(answer["solution"]))
        table.add_column("can still win")
        for move, wins in answer["options"].items():
            table.add_row(move, "[green]yes[/]" if wins else "[red]no[/]")
    console.print(table)
    console.print()
