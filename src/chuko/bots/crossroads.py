"""Crossroads bots and hints. The bots (levels in bots/layout.py):

- easy: the most points now.
- hard: the best lead in points after four plies of minimax on the engine.
- perfect: a move of the best value by the exact solver (ruling C4).

The adviser shows the exact solver's value of every move.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.layout import LayoutMove
from chuko.core.protocol import Json
from chuko.games.crossroads import Crossroads, CrossroadsState, state_from_view
from chuko.solvers.crossroads import CrossroadsSolver

from . import refuse_options
from .layout import DealSolver, LayoutBot, played


def solver_for(state: CrossroadsState) -> CrossroadsSolver:
    return CrossroadsSolver(state.layout)


class CrossroadsBot(LayoutBot[CrossroadsState]):
    depth = 3

    def __init__(self, level: str, rng: Random) -> None:
        super().__init__(level, rng)
        self.solver = DealSolver(solver_for)

    def position(self, view: Json) -> CrossroadsState:
        return state_from_view(view)

    def perfect(self, state: CrossroadsState) -> dict[LayoutMove, int]:
        return self.solver(state).move_values(state)

    def greedy(self, state: CrossroadsState, move: LayoutMove) -> tuple[int]:
        seat = state.to_move[0]
        return (played(state, seat, move).totals()[seat] - state.totals()[seat],)

    def search(self, state: CrossroadsState, seat: int, depth: int) -> float:
        """Minimax on the lead in points of `seat`."""
        totals = state.totals()
        if depth == 0 or not state.to_move:
            return float(totals[seat] - totals[1 - seat])
        mover = state.to_move[0]
        values = [
            self.search(played(state, mover, move), seat, depth - 1)
            for move in state.legal_moves(mover)
        ]
        return max(values) if mover == seat else min(values)


def make_bot(level: str, rng: Random, **options: Any) -> CrossroadsBot:
    refuse_options(options, f"{Crossroads.title} bots")
    return CrossroadsBot(level, rng)


class Adviser:
    """Each move's exact value (ruling C4): the mover's final lead in points after it, if
    both play perfectly. One solver serves every position of the deal."""

    def __init__(self, game: Crossroads) -> None:
        self.solver = DealSolver(solver_for)

    def hint(self, state: CrossroadsState, seat: int) -> Json:
        values = self.solver(state).move_values(state)
        best = max(values.values())
        return {
            "values": {str(m): f"{v:+d}" if v else "0" for m, v in values.items()},
            "note": "Each value is your final lead in points after that move if both play "
            "perfectly; the best is " + (f"{best:+d}." if best else "a draw."),
        }
