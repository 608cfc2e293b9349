"""What the director asks of the pure pairing and scoring, in its own terms (`Rules`), and
those of the pure modules of this package (`core_rules`): a Swiss round within score groups,
an arena's wave, tables by score, and the standings with their tie-breaks. The director is
given a `Rules` (tests give their own), so it depends on no pairing's inner workings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from chuko.core.errors import ChukoError
from chuko.server.shared.messages import sentence
from chuko.server.tournament import arena, scoring, swiss, tiebreaks

TIEBREAKS = ("buchholz", "sonneborn_berger")  # a Swiss's, in the order they break ties


class NoRound(ChukoError):
    """No Swiss round can be paired without a repeated game: the event ends."""


@dataclass(frozen=True)
class Field:
    """Who is in a tournament: each player's rating at entry, who withdrew, and the size
    of its tables."""

    ratings: Mapping[str, float]
    withdrawn: frozenset[str] = frozenset()
    table_size: int = 2


@dataclass(frozen=True)
class Contender:
    """A player to pair, as the tournament stands: their points, their rating at entry,
    whom they have played, whether they had a bye, their latest opponent and since when
    they wait (an arena's)."""

    id: str
    score: float
    rating: float
    opponents: frozenset[str] = frozenset()
    had_bye: bool = False
    last_opponent: str | None = None
    since: float = 0.0


@dataclass(frozen=True)
class Played:
    """A finished game of the tournament: its round, its players by seat and their places
    (0 first, ties share). A bye is one player alone, placed first."""

    round: int
    players: tuple[str, ...]
    places: tuple[int, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: rank (1 first), points, each game's points in
    order (`sheet`), the tie-breaks by name, and an arena's streak (`on_fire`)."""

    player: str
    rank: int
    points: float
    sheet: tuple[float, ...] = ()
    tiebreaks: dict[str, float] = field(default_factory=dict)
    on_fire: bool = False


class Rules(Protocol):
    """The pairing and the scoring a tournament is run by."""

    def standings(self, system: str, entered: Field,
                  played: Sequence[Played]) -> list[Standing]:
        """Every player `entered` ranked by the games `played` (a Swiss: 1, ½, 0 and a bye
        worth 1, tables by place; an arena: 2 a win, 1 a draw, with its streaks)."""
        ...

    def pair_swiss(self, contenders: Sequence[Contender]) -> tuple[list[tuple[str, str]],
                                                                 str | None]:
        """A Swiss round: pairs within score groups, nobody meeting an opponent again, and
        the player with a bye (None when even); NoRound when there is none."""
        ...

    def seat_tables(self, contenders: Sequence[Contender],
                    size: int) -> list[tuple[str, ...]]:
        """A round of tables of up to `size` players by score (bots take the seats left);
        a table of one is a bye."""
        ...

    def pair_arena(self, waiting: Sequence[Contender]) -> list[tuple[str, str]]:
        """An arena's wave: pairs of players near in points and rating, never the latest
        opponent again; those left wait for the next wave."""
        ...


class CoreRules:
    """`Rules` from this package's pure modules (`scoring`, `swiss`, `tiebreaks`,
    `arena`)."""

    def standings(self, system: str, entered: Field,
                  played: Sequence[Played]) -> list[Standing]:
        if system == "arena":
            return self._arena(entered, played)
        sheets = _sheets(entered, played, lambda g: scoring.placement_points(g.places),
                         scoring.BYE_POINTS)
        if entered.table_size > 2:
            points = {player: sum(sheet) for player, sheet in sheets.items()}
            return _ranked(entered, points, sheets)
        games = [tiebreaks.Game(g.players[0], g.players[1], scoring.outcomes(g.places)[0])
                 for g in played if len(g.players) == 2]
        byes = [g.players[0] for g in played if g.bye]
        return [Standing(line.id, line.rank, line.score, tuple(sheets[line.id]),
                         {"buchholz": line.buchholz,
                          "sonneborn_berger": line.sonneborn_berger})
                for line in tiebreaks.standings(games, byes, entered.withdrawn,
                                                entered.ratings)]

    def _arena(self, entered: Field, played: Sequence[Played]) -> list[Standing]:
        """2 a win, 1 a draw, doubled on a streak; ties by rating."""
        history: dict[str, list[scoring.Outcome]] = {player: [] for player in entered.ratings}
        for game in played:
            if len(game.players) == 2:
                for player, outcome in zip(game.players, scoring.outcomes(game.places),
                                           strict=True):
                    history.setdefault(player, []).append(outcome)
        scores = {player: scoring.arena_points(outcomes)
                  for player, outcomes in history.items() if player in entered.ratings}
        return _ranked(entered, {p: float(s.points) for p, s in scores.items()},
                       {p: list(s.sheet) for p, s in scores.items()},
                       {p for p, s in scores.items() if s.on_fire})

    def pair_swiss(self, contenders: Sequence[Contender]) -> tuple[list[tuple[str, str]],
                                                                 str | None]:
        entrants = [swiss.Entrant(c.id, c.score, c.rating, c.opponents, c.had_bye)
                    for c in contenders]
        try:
            paired = swiss.pair_round(entrants)
        except swiss.NoPairing as error:
            raise NoRound(sentence(error)) from None
        return list(paired.pairs), paired.bye

    def seat_tables(self, contenders: Sequence[Contender],
                    size: int) -> list[tuple[str, ...]]:
        tables = arena.seat_tables([arena.TablePlayer(c.id, c.score, c.rating)
                                    for c in contenders], size, True)
        return [tuple(player for player in table if player is not None) for table in tables]

    def pair_arena(self, waiting: Sequence[Contender]) -> list[tuple[str, str]]:
        return list(arena.pair_wave([arena.ArenaWaiting(c.id, int(c.score), c.rating,
                                                        c.last_opponent, c.since)
                                     for c in waiting]))


def _sheets(entered: Field, played: Sequence[Played],
            points_of: Callable[[Played], Sequence[float]],
            bye: float) -> dict[str, list[float]]:
    """Each player's points game by game, in the order played."""
    sheets: dict[str, list[float]] = {player: [] for player in entered.ratings}
    for game in played:
        got = [bye] if game.bye else points_of(game)
        for player, points in zip(game.players, got, strict=False):
            sheets.setdefault(player, []).append(float(points))
    return sheets


def _ranked(entered: Field, points: Mapping[str, float], sheets: Mapping[str, list[float]],
            on_fire: frozenset[str] | set[str] = frozenset()) -> list[Standing]:
    """Standings by points, then rating at entry (highest first), then id; players equal
    in both share a rank."""
    order = sorted(entered.ratings, key=lambda p: (-points.get(p, 0.0),
                                                   -entered.ratings[p], p))
    lines: list[Standing] = []
    for k, player in enumerate(order):
        key = (points.get(player, 0.0), entered.ratings[player])
        tied = k > 0 and (lines[-1].points, entered.ratings[lines[-1].player]) == key
        lines.append(Standing(player, lines[-1].rank if tied else k + 1, key[0],
                              tuple(sheets.get(player, ())), {}, player in on_fire))
    return lines
