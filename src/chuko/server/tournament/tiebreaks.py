"""A Swiss event's standings: score, then the tie-breaks the event's page states.

- Score: 1 a win, ½ a draw, 0 a loss, 1 a bye (`scoring.swiss_points`).
- Buchholz: the sum of the final scores of the opponents played. A bye counts as a game
  against a virtual opponent whose score is the player's own final score (so a bye neither
  helps nor hurts a player's Buchholz against their own standing); a round missed, by a
  late joiner or after a withdrawal, counts nothing.
- Sonneborn–Berger: the sum of the final scores of the opponents beaten, plus half those of
  the opponents drawn; a bye counts nothing.

Players rank by score, then Buchholz, then Sonneborn–Berger, then rating, each highest
first; players equal in all four share a rank (1, 2, 2, 4) and are listed by id. A player
who withdrew keeps their games and their place, marked as withdrawn.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from chuko.server.tournament.scoring import BYE_POINTS, SWISS_POINTS, Outcome

OTHER_SIDE: dict[Outcome, Outcome] = {"win": "loss", "draw": "draw", "loss": "win"}


@dataclass(frozen=True)
class Game:
    """A finished game of the event: its two players and the first one's outcome."""

    first: str
    second: str
    outcome: Outcome


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings."""

    rank: int
    id: str
    score: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    withdrawn: bool


def standings(games: Sequence[Game], byes: Sequence[str], withdrawn: Collection[str],
              ratings: Mapping[str, float]) -> list[Standing]:
    """The standings of the players of `ratings` (every entrant, with their rating) after
    `games` and `byes` (a player once for each bye they had), best first."""
    results, bye_count = _results(games, byes, ratings), Counter(byes)
    score = {p: sum(SWISS_POINTS[o] for _, o in played) + BYE_POINTS * bye_count[p]
             for p, played in results.items()}
    lines = []
    for player, played in results.items():
        buchholz = sum(score[o] for o, _ in played) + score[player] * bye_count[player]
        sonneborn_berger = sum(SWISS_POINTS[outcome] * score[o] for o, outcome in played)
        lines.append((score[player], buchholz, sonneborn_berger, ratings[player], player))
    lines.sort(key=lambda line: (-line[0], -line[1], -line[2], -line[3], line[4]))
    table: list[Standing] = []
    for k, (points, buchholz, sonneborn_berger, rating, player) in enumerate(lines):
        tied = k > 0 and lines[k - 1][:4] == (points, buchholz, sonneborn_berger, rating)
        rank = table[-1].rank if tied else k + 1
        table.append(Standing(rank, player, points, buchholz, sonneborn_berger, rating,
                              player in withdrawn))
    return table


def _results(games: Sequence[Game], byes: Sequence[str],
             ratings: Mapping[str, float]) -> dict[str, list[tuple[str, Outcome]]]:
    """Each player's games as (opponent, outcome); a sentence for a game or a bye of
    someone not in the event, or a rating that is not a number."""
    results: dict[str, list[tuple[str, Outcome]]] = {p: [] for p in ratings}
    for player, rating in ratings.items():
        if not math.isfinite(rating):
            raise ValueError(f"{player}'s rating must be a number, not {rating}.")
    for game in games:
        if game.first == game.second:
            raise ValueError(f"{game.first} cannot play themselves.")
        for player in (game.first, game.second):
            if player not in results:
                raise ValueError(f"{player} played a game but is not in the event.")
        results[game.first].append((game.second, game.outcome))
        results[game.second].append((game.first, OTHER_SIDE[game.outcome]))
    for player in byes:
        if player not in results:
            raise ValueError(f"{player} had a bye but is not in the event.")
    return results
