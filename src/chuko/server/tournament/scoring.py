"""How a tournament scores a game: a heads-up game's outcome for each seat, an arena's points
with its streak, a Swiss event's points and placement points at tables of three or more.

Swiss and placement points are halves: a float holds every half exactly, so sums and
comparisons of them are exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss"]

# A Swiss event's points: a win, a draw, a loss, and a round without an opponent (a bye).
SWISS_POINTS: dict[Outcome, float] = {"win": 1.0, "draw": 0.5, "loss": 0.0}
BYE_POINTS = 1.0

# An arena's points, before (False) and during (True) a streak.
ARENA_POINTS: dict[bool, dict[Outcome, int]] = {
    False: {"win": 2, "draw": 1, "loss": 0},
    True: {"win": 4, "draw": 2, "loss": 0},
}
STREAK_WINS = 2  # wins in a row that set a player on fire


def outcomes(places: Sequence[int]) -> list[Outcome]:
    """Each seat's outcome of a heads-up game from its places by seat (1 first): the better
    place wins, equal places draw."""
    if len(places) != 2:
        raise ValueError(f"A heads-up game has two places, not {len(places)}.")
    first, second = places
    if first == second:
        return ["draw", "draw"]
    return ["win", "loss"] if first < second else ["loss", "win"]


@dataclass(frozen=True)
class ArenaScore:
    """A player's arena score: the total, each game's points in order, and whether the
    player is on fire (their next win scores double)."""

    points: int
    sheet: tuple[int, ...]
    on_fire: bool


def arena_points(history: Sequence[Outcome]) -> ArenaScore:
    """The arena score of a player's games in the order played (lichess's rule).

    A win scores 2, a draw 1, a loss 0. Two wins in a row set the player on fire: while on
    fire a win scores 4 and a draw 2, and the player stays on fire through further wins. A
    draw or a loss ends the streak (the draw still scores 2 when it ends one); from then on
    two more wins in a row are needed again. So win, win, win, draw, win score
    2, 2, 4, 2, 2.
    """
    sheet, streak = [], 0
    for outcome in history:
        sheet.append(ARENA_POINTS[streak >= STREAK_WINS][outcome])
        streak = streak + 1 if outcome == "win" else 0
    return ArenaScore(sum(sheet), tuple(sheet), streak >= STREAK_WINS)


def swiss_points(results: Sequence[Outcome], byes: int = 0) -> float:
    """A Swiss score: 1 a win, ½ a draw, 0 a loss, 1 a bye."""
    return sum(SWISS_POINTS[outcome] for outcome in results) + BYE_POINTS * byes


def placement_points(places: Sequence[int]) -> list[float]:
    """Each seat's points at a table from its place (1 first, equal places tied): one point
    for every other player with a worse place, half a point for every other player with the
    same place. Places (1, 2, 2, 4) score 3, 1½, 1½, 0; a table always shares out
    n(n-1)/2 points, and heads-up this is the Swiss score (1, ½, 0)."""
    return [sum(1.0 if other > mine else 0.5 if other == mine else 0.0
                for j, other in enumerate(places) if j != i)
            for i, mine in enumerate(places)]
