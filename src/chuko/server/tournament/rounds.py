"""What the director asks of the pure pairing and scoring, in its own terms (`Rules`), and
those of the pure modules of this package (`core_rules`): a Swiss round within score groups,
an arena's wave, tables by score, and the standings with their tie-breaks. The director is
given a `Rules` (tests give their own), so it depends on no pairing's inner workings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

TIEBREAKS = ("buchholz", "sonneborn_berger")  # a Swiss's, in the order they break ties


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

    def standings(self, system: str, players: Sequence[str],
                  played: Sequence[Played]) -> list[Standing]:
        """Every one of `players` ranked by the games `played` (a Swiss: 1, ½, 0 and a bye
        worth 1, tables by place; an arena: 2 a win, 1 a draw, with its streaks)."""
        ...

    def pair_swiss(self, contenders: Sequence[Contender]) -> tuple[list[tuple[str, str]],
                                                                 str | None]:
        """A Swiss round: pairs within score groups, nobody meeting an opponent again, and
        the player with a bye (None when even)."""
        ...

    def seat_tables(self, contenders: Sequence[Contender],
                    size: int) -> list[tuple[str, ...]]:
        """A round of tables of up to `size` by score; a table of one is a bye."""
        ...

    def pair_arena(self, waiting: Sequence[Contender]) -> list[tuple[str, str]]:
        """An arena's wave: pairs of players near in points and rating, never the latest
        opponent again; those left wait for the next wave."""
        ...


class CoreRules:
    """`Rules` from this package's pure modules (`swiss`, `arena`, `scoring`,
    `tiebreaks`), each imported when first used."""

    def _module(self, name: str) -> Any:
        return import_module(f"{__package__}.{name}")

    def standings(self, system: str, players: Sequence[str],
                  played: Sequence[Played]) -> list[Standing]:
        scoring, tiebreaks = self._module("scoring"), self._module("tiebreaks")
        return list(tiebreaks.standings(system, players, played, scoring=scoring))

    def pair_swiss(self, contenders: Sequence[Contender]) -> tuple[list[tuple[str, str]],
                                                                 str | None]:
        swiss = self._module("swiss")
        entrants = [swiss.Entrant(c.id, c.score, c.rating, c.opponents, c.had_bye)
                    for c in contenders]
        paired = swiss.pair_round(entrants)
        return list(paired.pairs), paired.bye

    def seat_tables(self, contenders: Sequence[Contender],
                    size: int) -> list[tuple[str, ...]]:
        arena = self._module("arena")
        return [tuple(table) for table in arena.seat_tables(
            [(c.id, c.score, c.rating) for c in contenders], size)]

    def pair_arena(self, waiting: Sequence[Contender]) -> list[tuple[str, str]]:
        arena = self._module("arena")
        return list(arena.pair_wave([arena.ArenaWaiting(c.id, c.score, c.rating,
                                                        c.last_opponent, c.since)
                                     for c in waiting]))
