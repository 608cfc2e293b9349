"""Caravan bots and hints. The bots (levels in bots/layout.py):

- easy: a face-up move that leaves the most moves open next, a bridge only when nothing
  else goes.
- hard: the move that keeps the most moves open three moves on (a win found on the way
  counts most), bridges kept in reserve.
- perfect: a move after which the deal can still be won, by the exact solver.

The adviser says of every move whether the deal can still be won after it ("keeps the deal
winnable", "loses the deal"); `review` says which move of a finished game lost the deal.
"""

from __future__ import annotations

from random import Random
from typing import Any

from chuko.core.layout import SIZE, LayoutMove
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.games.caravan import Caravan, CaravanState, state_from_view
from chuko.solvers.caravan import CaravanSolver

from . import refuse_options
from .layout import DealSolver, LayoutBot, played
from .reviewing import Judge, review_moves

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
    refuse_options(options, Text("{game} bots", game=Caravan.title))
    return CaravanBot(level, rng)


LOST = Text("the deal is already lost")


def last_card(state: CaravanState) -> bool:
    """Whether the next move lays the last card: a good move then wins the deal, where
    before it keeps the deal winnable."""
    return len(state.caravan) == SIZE - 1


def outlook(state: CaravanState, options: dict[LayoutMove, bool]) -> dict[LayoutMove, Text]:
    """Each legal move's outlook in words: "keeps the deal winnable" ("wins the deal" for
    the last card), "loses the deal", or LOST when no move can win."""
    if not any(options.values()):
        return dict.fromkeys(options, LOST)
    good = Text("wins the deal") if last_card(state) else Text("keeps the deal winnable")
    return {m: good if wins else Text("loses the deal") for m, wins in options.items()}


def _note(winning: int, total: int, last: bool) -> Text:
    """The adviser's one line: how many of the legal moves keep the deal winnable (win it,
    for the last card)."""
    if not winning:
        return Text("No move can win this deal any more.")
    if winning == total > 1:
        return Text("Every move wins the deal.") if last else Text(
            "Every move keeps the deal winnable.")
    if winning == total:
        return Text("Your only move wins the deal.") if last else Text(
            "Your only move keeps the deal winnable.")
    if winning == 1:
        return (Text("Only 1 of {total} moves wins the deal.", total=total) if last else
                Text("Only 1 of {total} moves keeps the deal winnable.", total=total))
    return (Text("{winning} of {total} moves win the deal.", winning=winning, total=total)
            if last else
            Text("{winning} of {total} moves keep the deal winnable.", winning=winning,
                 total=total))


def laying(layout: tuple[int, ...], move: LayoutMove) -> Text:
    """A move in words: "laying 11 face down at the left end"."""
    card = layout[move.position]
    if move.end is None:
        return Text("starting the caravan with {card}", card=card)
    if move.bridge:
        return (Text("laying {card} face down at the left end", card=card) if move.end == "L"
                else Text("laying {card} face down at the right end", card=card))
    return (Text("laying {card} face up at the left end", card=card) if move.end == "L"
            else Text("laying {card} face up at the right end", card=card))


class Adviser:
    """Whether the deal can still be won after each move, by the exact solver; one solver
    serves every position of the deal."""

    def __init__(self, game: Caravan) -> None:
        self.solver = DealSolver(solver_for)

    def hint(self, state: CaravanState, seat: int) -> Json:
        options = self.solver(state).options(state)
        note = _note(sum(options.values()), len(options), last_card(state))
        return {"values": {str(m): text for m, text in outlook(state, options).items()},
                "outlook": {str(m): "win" if wins else "loss" for m, wins in options.items()},
                "note": note}


def review(record: Json) -> list[Json]:
    """Each move of a finished game: "keeps the deal winnable" (or "wins the deal"), or
    "after this the deal could no longer be won; laying 11 face down at the left end would
    have kept it winnable" for the move that lost it (the better move as `better`), and
    "the deal was already lost" after that (or from the deal on). One solver serves the
    whole record."""
    solver = DealSolver(solver_for)

    def assess(state: CaravanState) -> Judge:
        options = solver(state).options(state)
        words = outlook(state, options)
        layout = state.layout

        def judge(move: LayoutMove) -> Json:
            said = words[move]
            if said == LOST:
                return {"text": Text("the deal was already lost"), "mistake": False}
            if options[move]:
                return {"text": said, "mistake": False}
            # A winning move with the card played, else one face up, shows the way most plainly.
            better = min((m for m, wins in options.items() if wins),
                         key=lambda m: (m.position != move.position, m.bridge))
            return {"text": Text("after this the deal could no longer be won; {better} would "
                                 "have kept it winnable", better=laying(layout, better)),
                    "mistake": True, "better": str(better)}

        return judge

    return review_moves(Caravan, record, assess)
