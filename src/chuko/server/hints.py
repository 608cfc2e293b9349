"""Hints for a seat on its turn (web protocol, 'hint'): each game's best adviser.

Crossroads: the exact solver's value after each move (ruling C4). Caravan: whether the deal
can still be won after each move. Chuchula: the advisor's grouping and its expected points.
Chükö has no exact solver: the hard bot's choice from the seat's own view.

Advisers see what the seat sees: the layout games show everything, and the Chuchula
advisor and the Chükö bot read only the seat's hand and `view`.
"""

from __future__ import annotations

import secrets
from typing import Any

from chuko.bots import make_bot
from chuko.core.deck52 import parse_cards
from chuko.core.protocol import Json, State
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.chuchula_advisor import advise
from chuko.solvers.crossroads import CrossroadsSolver


class Adviser:
    """One room's hints; keeps the room's solver, which serves every position of its deal."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._solver: Any = None

    def hint(self, state: State, seat: int) -> Json:
        """`{"values": {move text: label}, "note": sentence}` for `seat`, whose turn it is."""
        return getattr(self, "_" + self.game_id)(state, seat)

    def _crossroads(self, state: Any, seat: int) -> Json:
        if self._solver is None:
            self._solver = CrossroadsSolver(state.layout)
        values = self._solver.move_values(state)
        best = max(values.values())
        return {
            "values": {str(m): f"{v:+d}" if v else "0" for m, v in values.items()},
            "note": "Each value is your final lead in points after that move if both play "
            f"perfectly; the best is {best:+d}." if best else
            "Each value is your final lead in points after that move if both play perfectly; "
            "the best is a draw.",
        }

    def _caravan(self, state: Any, seat: int) -> Json:
        if self._solver is None:
            self._solver = CaravanSolver(state.layout, state.game.bridges)
        options = self._solver.options(state)
        winning = sum(options.values())
        note = (
            f"{winning} of your {len(options)} moves keep the deal winnable."
            if winning else "No move can win this deal any more."
        )
        return {"values": {str(m): "win" if ok else "lose" for m, ok in options.items()},
                "note": note}

    def _chuchula(self, state: Any, seat: int) -> Json:
        view = state.view(seat)
        advice = advise(parse_cards(" ".join(view["hand"])), view["players"])
        return {
            "values": {str(advice.grouping): f"{advice.total:.2f} points expected"},
            "note": f"The advisor expects {advice.total:.2f} points from this grouping "
            "against typical opponents.",
        }

    def _chuko(self, state: Any, seat: int) -> Json:
        bot = make_bot("chuko", "hard", secrets.SystemRandom(), time_limit=0.3)
        move = bot.choose(state.view(seat), state.legal_moves(seat))
        what = "reset" if str(move) == "reset" else f"play {move}"
        return {"values": {str(move): "best"}, "note": f"The hard bot would {what}."}
