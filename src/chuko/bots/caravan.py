"""Caravan bots and hints. The bots (levels in bots/layout.py):

- easy: a face-up move that leaves the most moves open next, a bridge only when nothing
  else goes.
- hard: the move that keeps the most moves open three moves on (a win found on the way
  counts most), bridges kept in reserve.
- perfect: a move after which the deal can still be won, by the exact solver.

The adviser says of every move whether the deal can still be won after it.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.layout import LayoutMove
from chuko.core.protocol import Json
from chuko.games.caravan import Caravan, CaravanState, state_from_view
from chuko.solvers.caravan import CaravanSolver

from . import refuse_options
from .layout import DealSolver, LayoutBot, played

# What the hard bot's search makes of a finished game, beyond any count of open moves.
WIN = 1000.0
# What each bridge placed costs the hard bot's judgement, in open moves.
BRIDGE_COST = 2.0


def solver_for(state: CaravanState) -> CaravanSolver:
    return CaravanSolver(state.layout, state.game.bridges)


class CaravanBot(LayoutBot[CaravanState]):
    depth = 2

    def __init__(self, level: str, rng: Random) -> None:
        super().__init__(level, rng)
        self.solver = DealSolver(solver_for)

    def position(self, view: Json) -> CaravanState:
        return state_from_view(view)

    def perfect(self, state: CaravanState) -> dict[LayoutMove, bool]:
        return self.solver(state).options(state)

    def greedy(self, state: CaravanState, move: LayoutMove) -> tuple[bool, bool, int]:
        after = played(state, 0, move)
        won = after.outcome is not None and bool(after.outcome.winners)
        return (won, not move.bridge, len(after.legal_moves(0)))

    def search(self, state: CaravanState, seat: int, depth: int) -> float:
        """The most moves left open `depth` moves on, less the bridges used; a game over
        counts as a win or a loss."""
        if state.outcome is not None:
            return WIN if state.outcome.winners else -WIN
        moves = state.legal_moves(0)
        if depth == 0:
            return len(moves) - BRIDGE_COST * state.bridges_used
        return max(self.search(played(state, 0, move), seat, depth - 1) for move in moves)


def make_bot(level: str, rng: Random, **options: Any) -> CaravanBot:
    refuse_options(options, f"{Caravan.title} bots")
    return CaravanBot(level, rng)


class Adviser:
    """Whether the deal can still be won after each move, by the exact solver; one solver
    serves every position of the deal."""

    def __init__(self, game: Caravan) -> None:
        self.solver = DealSolver(solver_for)

    def hint(self, state: CaravanState, seat: int) -> Json:
        options = self.solver(state).options(state)
        winning = sum(options.values())
        note = (
            f"{winning} of your {len(options)} moves keep the deal winnable."
            if winning else "No move can win this deal any more."
        )
        return {
            "values": {str(m): "win" if wins else "lose" for m, wins in options.items()},
            "note": note,
        }
