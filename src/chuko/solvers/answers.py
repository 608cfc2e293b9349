"""What `chuko solve` says about a position of a game solved exactly, as data (JSON-ready,
seats numbered from 0) and in words. This table, not the command, knows which solver serves
which game: the command asks `solver_for(game)` and prints what it answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.layout import layout_text
from chuko.core.protocol import Game, Json, State
from chuko.games.caravan import Caravan, CaravanState
from chuko.games.crossroads import Crossroads, CrossroadsState

from .caravan import CaravanSolver
from .crossroads import CrossroadsSolver

Deal = tuple[int, ...]


@dataclass(frozen=True)
class Answer:
    """One position's answer: `data` for programs, `summary` and `rows` (move, its value in
    words, whether it is among the best) for people; `column` says what the values mean."""

    data: Json
    summary: str
    column: str
    rows: list[tuple[str, str, bool]]


@dataclass(frozen=True)
class Solver:
    """How one game is solved: `start` deals a layout under the game's options (nothing left
    to chance, so an answer is the same every time), `answer` judges a position."""

    start: Callable[[Mapping[str, Any], Deal], State]
    answer: Callable[[Any], Answer]
    about: str  # what the answer tells, for --help


def _configured(game: type[Game], options: Mapping[str, Any], deal: Deal) -> Any:
    return replace(game.from_options(options), deal=deal)  # type: ignore[type-var]


def _crossroads_start(options: Mapping[str, Any], deal: Deal) -> CrossroadsState:
    game: Crossroads = _configured(Crossroads, options, deal)
    # Who starts is random by default (C1); a position to solve takes the first seat.
    return replace(game, first=0 if game.first is None else game.first).new()


def _crossroads_names(state: CrossroadsState) -> list[str]:
    """Seats named by the order they started in, never by number."""
    names = ["First player", "Second player"]
    return names if state.first == 0 else names[::-1]


def _crossroads_answer(state: CrossroadsState) -> Answer:
    solver = CrossroadsSolver(state.layout)
    names = _crossroads_names(state)
    totals = state.totals()
    data: Json = {"deal": layout_text(state.layout), "first": state.first,
                  "moves": [str(m) for m in state.moves], "points": list(totals)}
    if state.outcome is not None:
        data |= {"to_move": None, "value": totals[0] - totals[1], "options": {}, "best": [],
                 "over": True}
        return Answer(data, "The game is over: " + state.outcome.describe(names, None),
                      "value", [])
    seat = state.to_move[0]
    options = {str(m): v for m, v in solver.move_values(state).items()}
    top = max(options.values())
    data |= {"to_move": seat, "value": solver.value(state), "options": options,
             "best": [m for m, v in options.items() if v == top], "over": False}
    so_far = ", ".join(f"{name} {points}" for name, points in zip(names, totals, strict=True))
    summary = (f"{names[seat]} to move: {data['value']:+d} under perfect play (own points − "
               f"opponent's, points so far included: {so_far}).")
    rows = [(m, f"{v:+d}", v == top) for m, v in options.items()]
    return Answer(data, summary, "value", rows)


def _caravan_start(options: Mapping[str, Any], deal: Deal) -> CaravanState:
    game: Caravan = _configured(Caravan, options, deal)
    return game.new()


def _caravan_answer(state: CaravanState) -> Answer:
    bridges = state.game.bridges
    solver = CaravanSolver(state.layout, bridges)
    solution = solver.solution(state)
    options = {str(m): wins for m, wins in solver.options(state).items()}
    data: Json = {
        "deal": layout_text(state.layout),
        "bridges": bridges,
        "moves": [str(m) for m in state.moves],
        "winnable": solver.winnable(state),
        "solution": None if solution is None else [str(m) for m in solution],
        "options": options,
    }
    if state.outcome is not None:
        summary = "The game is over: " + state.outcome.describe(["The player"], None)
    else:
        summary = f"Bridges {bridges}: " + ("winnable" if data["winnable"] else "not winnable")
        summary += f"; a winning line: {' '.join(data['solution'])}." if solution else "."
    rows = [(m, "yes" if wins else "no", wins) for m, wins in options.items()]
    return Answer(data, summary, "can still win", rows)


SOLVERS: dict[type[Game], Solver] = {
    Crossroads: Solver(_crossroads_start, _crossroads_answer,
                       "the value of every move under perfect play (own points − opponent's); "
                       "the first seat starts unless --first names the other"),
    Caravan: Solver(_caravan_start, _caravan_answer,
                    "whether a deal can be won, a winning line and every move's outlook"),
}


def solver_for(game: type[Game]) -> Solver:
    """The exact solver of `game`; ConfigError when it has none."""
    found = SOLVERS.get(game)
    if found is None:
        raise ConfigError(f"{game.title} has no exact solver.")
    return found
