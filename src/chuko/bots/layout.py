"""Bots for the layout games. Both games show every card, so a bot rebuilds the position
from its view (the deal and the moves) and asks the engine and the solvers.

- random: any legal move.
- easy: greedy. Crossroads: the most points now. Caravan: a face-up move that leaves the
  most moves open next, a bridge only when nothing else goes.
- hard: a few moves of lookahead on the engine, without the solver. Crossroads: the best
  lead after four plies of minimax. Caravan: the move that keeps the most moves open three
  moves on (a win found on the way counts most), bridges kept in reserve.
- perfect: the exact solver. Crossroads: a move of the best value (ruling C4). Caravan: a
  move after which the deal can still be won.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.layout import LayoutMove
from chuko.core.protocol import Json
from chuko.games.caravan import Caravan, CaravanState
from chuko.games.crossroads import Crossroads, CrossroadsState
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver

LEVELS = ("random", "easy", "hard", "perfect")
# Plies searched after the move being scored by the hard bot.
HARD_DEPTH = {"crossroads": 3, "caravan": 2}


def levels(game_id: str) -> tuple[str, ...]:
    return LEVELS


def position(view: Json) -> CrossroadsState | CaravanState:
    """The engine position a layout-game view describes."""
    if view["game"] == "crossroads":
        return Crossroads.replay(
            {"game": "crossroads", "deal": view["deal"], "first": view["first"],
             "rounds": view["rounds"], "moves": view["moves"]}
        )
    return Caravan.replay(
        {"game": "caravan", "deal": view["deal"], "bridges": view["bridges"],
         "moves": view["moves"]}
    )


class LayoutBot:
    def __init__(self, game_id: str, level: str, rng: Random) -> None:
        self.game_id = game_id
        self.level = level
        self.rng = rng
        self._solvers: dict[tuple[Any, ...], Any] = {}

    def choose(self, view: Json, legal_moves: list[LayoutMove]) -> LayoutMove:
        if self.level == "random" or len(legal_moves) == 1:
            return self.rng.choice(legal_moves)
        state = position(view)
        scores = self.scores(state, legal_moves)
        top = max(scores)
        return self.rng.choice([m for m, s in zip(legal_moves, scores, strict=True) if s == top])

    def scores(self, state: CrossroadsState | CaravanState, moves: list[LayoutMove]) -> list:
        """How much the bot likes each move (higher is better)."""
        if self.level == "perfect":
            values = self.solver(state).options(state) if isinstance(state, CaravanState) else (
                self.solver(state).move_values(state))
            return [values[m] for m in moves]
        if self.level == "hard":
            return [self.lookahead(state, m) for m in moves]
        return [self.greedy(state, m) for m in moves]

    def solver(self, state: CrossroadsState | CaravanState) -> Any:
        if isinstance(state, CaravanState):
            key: tuple[Any, ...] = (state.layout, state.game.bridges)
            make = lambda: CaravanSolver(state.layout, state.game.bridges)  # noqa: E731
        else:
            key = (state.layout,)
            make = lambda: CrossroadsSolver(state.layout)  # noqa: E731
        if key not in self._solvers:
            self._solvers[key] = make()
        return self._solvers[key]

    def lookahead(self, state: CrossroadsState | CaravanState, move: LayoutMove) -> tuple:
        seat = state.to_move[0]
        after = state.copy()
        after.play(seat, move)
        depth = HARD_DEPTH[state.game.id]
        return (search(after, seat, depth), self.greedy(state, move))

    @staticmethod
    def greedy(state: CrossroadsState | CaravanState, move: LayoutMove) -> tuple[int, ...]:
        after = state.copy()
        seat = state.to_move[0]
        after.play(seat, move)
        if isinstance(after, CrossroadsState):
            return (after.totals()[seat] - state.totals()[seat],)
        won = after.outcome is not None and bool(after.outcome.winners)
        return (won, not move.bridge, len(after.legal_moves(0)))


def search(state: CrossroadsState | CaravanState, seat: int, depth: int) -> float:
    """Minimax value of `state` for `seat`, `depth` plies deep, judged by the lead in points
    (Crossroads) or by the moves left open (Caravan)."""
    if isinstance(state, CaravanState):
        if state.outcome is not None:
            return 1000.0 if state.outcome.winners else -1000.0
        moves = state.legal_moves(0)
        if depth == 0:
            return len(moves) - 2.0 * state.bridges_used
    else:
        totals = state.totals()
        if depth == 0 or not state.to_move:
            return float(totals[seat] - totals[1 - seat])
        moves = state.legal_moves(state.to_move[0])
    values = []
    for move in moves:
        after = state.copy()
        after.play(state.to_move[0], move)
        values.append(search(after, seat, depth - 1))
    mine = isinstance(state, CaravanState) or state.to_move[0] == seat
    return max(values) if mine else min(values)


def make_bot(game_id: str, level: str, rng: Random, **options: Any) -> LayoutBot:
    return LayoutBot(game_id, level, rng)
