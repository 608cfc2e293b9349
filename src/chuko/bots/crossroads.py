"""Crossroads bots and hints. The bots (levels in bots/layout.py):

- easy: the most points now.
- hard: the best lead in points after four plies of minimax on the engine.
- perfect: a move of the best value by the exact solver (ruling C4).

The adviser words the exact solver's value of every move ("wins by 1 point", "draws",
"loses by 2 points"); `review` judges each move of a finished game against the best one.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.layout import LayoutMove
from chuko.core.protocol import Json
from chuko.core.text import Plural, Text
from chuko.games.crossroads import Crossroads, CrossroadsState, state_from_view
from chuko.solvers.crossroads import CrossroadsSolver

from . import refuse_options
from .layout import DealSolver, LayoutBot, played
from .reviewing import Judge, review_moves


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
    refuse_options(options, Text("{game} bots", game=Crossroads.title))
    return CrossroadsBot(level, rng)


def ending(value: int) -> Text:
    """How the game ends for the mover at the solver's `value`: "wins by 1 point", "draws",
    "loses by 2 points". Worded by the game's end, never by the score now: a player behind
    now may still win."""
    if value > 0:
        return Plural("wins by {n} point", "wins by {n} points", n=value)
    if value < 0:
        return Plural("loses by {n} point", "loses by {n} points", n=-value)
    return Text("draws")


def result_word(value: int) -> str:
    """How the game ends for the mover at the solver's `value`, as one word a screen
    colours by: "win", "draw" or "loss"."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def missed(best: int, played: int) -> Text:
    """What a better move would have given the mover, against what the move played gave,
    both the solver's final lead: "would have won by 1 point instead of drawing", "would
    have drawn instead of losing by 2 points", "would have lost by only 1 point instead of
    3". Worded by the game's end, never by the score at the time of the move."""
    if best > 0 and played > 0:
        return Plural("would have won by {n} point instead of {played}",
                      "would have won by {n} points instead of {played}", n=best, played=played)
    if best < 0 and played < 0:
        return Plural("would have lost by only {n} point instead of {played}",
                      "would have lost by only {n} points instead of {played}", n=-best,
                      played=-played)
    if best > 0 and played < 0:
        return Text("would have won by {best} instead of losing by {played}",
                    best=_points(best), played=_points(-played))
    if best > 0:
        return Plural("would have won by {n} point instead of drawing",
                      "would have won by {n} points instead of drawing", n=best)
    return Plural("would have drawn instead of losing by {n} point",
                  "would have drawn instead of losing by {n} points", n=-played)


def _points(n: int) -> Plural:
    return Plural("{n} point", "{n} points", n=n)


def placing(layout: tuple[int, ...], move: LayoutMove) -> Text:
    """Where a move puts its card: "14 to the left end", "10 to start the trail"."""
    card = layout[move.position]
    if move.end is None:
        return Text("{card} to start the trail", card=card)
    if move.end == "L":
        return Text("{card} to the left end", card=card)
    return Text("{card} to the right end", card=card)


def taking(layout: tuple[int, ...], move: LayoutMove) -> Text:
    """A move in words, seat-neutral: "taking 14 to the right end"."""
    return Text("taking {placing}", placing=placing(layout, move))


class Adviser:
    """Each move's exact value (ruling C4) in words: the mover's final lead after it, points
    so far included, if both play perfectly. One solver serves every position of the deal."""

    def __init__(self, game: Crossroads) -> None:
        self.solver = DealSolver(solver_for)

    def hint(self, state: CrossroadsState, seat: int) -> Json:
        values = self.solver(state).move_values(state)
        return {
            "values": {str(m): ending(v) for m, v in values.items()},
            "outlook": {str(m): result_word(v) for m, v in values.items()},
            "note": Text("Each label is how the game ends for you if both play perfectly from "
                         "here, points so far included; your best move {ending}.",
                         ending=ending(max(values.values()))),
        }


def review(record: Json) -> list[Json]:
    """Each move of a finished game (a match's rounds too) against the best move at its
    position: "best", or "lost 1 point: taking 14 to the right end would have won by 1 point
    instead of drawing", values as the exact solver gives them, with the better move's text
    (`better`) for the board to show. One solver serves the whole record."""
    solver = DealSolver(solver_for)

    def assess(state: CrossroadsState) -> Judge:
        values = solver(state).move_values(state)
        best = max(values.values())
        layout = state.layout

        def judge(move: LayoutMove) -> Json:
            lost = best - values[move]
            if not lost:
                return {"text": Text("best"), "mistake": False}
            # A best move with the card played (the other end) shows the slip most plainly.
            better = min((m for m, v in values.items() if v == best),
                         key=lambda m: m.position != move.position)
            text = Plural("lost {n} point: {better} {missed}", "lost {n} points: {better} {missed}",
                          n=lost, better=taking(layout, better), missed=missed(best, values[move]))
            return {"text": text, "mistake": True, "better": str(better)}

        return judge

    return review_moves(Crossroads, record, assess)
