"""Ratings: each player's skill in each game and player-count class, from the places of the
rated games they finished, by `openskill`'s Weng–Lin Plackett–Luce model (2 to 8 players,
ranks and ties in one model).

A rating is a belief, a mean `mu` and an uncertainty `sigma` (openskill's 25 and 25/3 for a
newcomer). It is shown on the scale players know from chess sites (`Shown`):
`1500 + (mu − 25) × 60`, with `± 2σ × 60` (a newcomer is 1500 ± 1000, as lichess's 1500
with a deviation of 500 at one σ), and is provisional — written "1500?" — until the player
has finished PROVISIONAL_GAMES rated games in that class and `sigma` is down to
PROVISIONAL_SIGMA. Heads-up ("duel", 2 seats) and multiplayer ("multi", 3 or more) are
rated apart: a game of four is another skill than a duel.

Only a rated room's result changes ratings. A rated room is made only for people (the
lobby's rule); a seat that a bot took over after its player timed out, resigned or left
keeps the room rated and its player is placed last (the room's `places`). A room with a bot
seat of its own, or a seat with no known player, is never rated.

A rated room's result is applied by `apply_result`, which the write that ends the game
carries (`rated_end`, in the final move's `Append` or a forfeit's): the end and the ratings
commit in one transaction, or neither does. It decides there whether the game counts
(`UNRATED`: an aborted game, fewer than MIN_MOVES moves by a seat, a pair's games together
past PAIR_GAMES in PAIR_WINDOW, a provisional rating's past NEWCOMER_GAMES in
NEWCOMER_WINDOW), its players' rows locked so that two rooms ending at once cannot both slip
under a limit, and stores a reason it does not in `rooms.result`. It is idempotent per room:
`rating_history`'s key (player, room) shows it was applied.

A rated room shows each seat's rating beside its name (`seat_ratings`), and once it has
rated them, the change it made ("+12", "−9" on the shown scale).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.rooms.terms import RatedEnd, SeatRatings
from chuko.server.store import rating_rows as rows
from chuko.server.store.database import Connection
from chuko.server.store.writes import Write

log = logging.getLogger("chuko.server")

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
CENTRE, SCALE = 1500, 60  # the shown rating: CENTRE + (mu − MODEL.mu) × SCALE
PROVISIONAL_GAMES = 10  # rated games in a class before a rating is settled …
PROVISIONAL_SIGMA = 6.5  # … and the uncertainty it must be down to (a newcomer's: 8.33)
CLASSES = ("duel", "multi")
MAX_RATED_SEATS = 8  # the model's tested range, and the lobby's largest table
MIN_MOVES = 2  # moves each seat makes in a game that counts
# Two players' rated games together count PAIR_GAMES in any PAIR_WINDOW seconds; later ones
# are not rated (one account farming another, or a string of fresh ones).
PAIR_GAMES, PAIR_WINDOW = 3, 24 * 3600.0
# A provisional rating counts NEWCOMER_GAMES rated games in any NEWCOMER_WINDOW seconds.
NEWCOMER_GAMES, NEWCOMER_WINDOW = 5, 3600.0
# Why a rated game changed no rating (`rooms.result`'s "unrated"), in a sentence.
UNRATED = {
    "aborted": Text("Not rated: the game was aborted."),
    "too_few_moves": Text("Not rated: a game counts once each player has made {moves} moves.",
                          moves=MIN_MOVES),
    "repeated_pairing": Text("Not rated: two players' rated games count {games} in {hours} "
                             "hours.", games=PAIR_GAMES, hours=round(PAIR_WINDOW / 3600)),
    "new_account_limit": Text("Not rated: a provisional rating counts {games} rated games an "
                              "hour.", games=NEWCOMER_GAMES),
}


def class_of(players: int) -> str | None:
    """A game's rating class by its count of seats; None where it is not rated (solo)."""
    if players == 2:
        return "duel"
    if 3 <= players <= MAX_RATED_SEATS:
        return "multi"
    return None


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game and class: openskill's belief and the games behind it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> Shown:
        return Shown.of(self.mu, self.sigma, self.games)


@dataclass(frozen=True)
class Shown:
    """A rating as players read it: a number, its uncertainty (two σ) and whether it is
    provisional."""

    rating: int
    deviation: int
    provisional: bool

    @classmethod
    def of(cls, mu: float, sigma: float, games: int) -> Shown:
        return cls(round(CENTRE + (mu - MODEL.mu) * SCALE), round(2 * sigma * SCALE),
                   games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA)

    @classmethod
    def of_row(cls, row: rows.RatingRow | None) -> Shown:
        """A stored rating as shown (None: a newcomer's)."""
        return (Rating() if row is None else Rating(*row)).shown

    def text(self) -> str:
        """"1500?" while provisional, else "1623"."""
        return f"{self.rating}{'?' if self.provisional else ''}"

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "deviation": self.deviation,
                "provisional": self.provisional, "text": self.text()}


def ranks_of(scores: Sequence[float]) -> list[int]:
    """Places from scores (higher is better): 0 for the best, ties share a place, and the
    next place counts those above it (scores 5, 5, 3 give places 0, 0, 2)."""
    return [sum(other > score for other in scores) for score in scores]


def won(rank: int, ranks: Sequence[int]) -> bool:
    """A win: first place with someone below (a draw of all seats is nobody's win)."""
    return rank == 0 and any(other > 0 for other in ranks)


def rate(before: Sequence[Rating | None], ranks: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a game, from its rating before (None: a newcomer's) and its
    place in that game (0 first; ties share a place). One player per seat; 2 to 8 seats."""
    if len(before) != len(ranks) or not 2 <= len(before) <= MAX_RATED_SEATS:
        raise ValueError(f"A rated game has 2 to {MAX_RATED_SEATS} seats, each with a place.")
    current = [rating or Rating() for rating in before]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma, r.games + 1, r.wins + won(rank, ranks))
            for team, r, rank in zip(after, current, ranks, strict=True)]


# -- the ratings a rated room shows by its seats -----------------------------------------------


def seat_ratings(room_id: str, game: str, seats: int) -> Callable[[Connection], SeatRatings]:
    """The read of each seat's rating in a rated room, as its seats show it (`seat_shown`);
    None for a seat with no player or a bot's own."""
    klass = class_of(seats)

    def read(conn: Connection) -> SeatRatings:
        if klass is None:
            return [None] * seats
        return [None if point is None else seat_shown(point)
                for point in rows.seat_points(conn, room_id, game, klass)]

    return read


def seat_shown(point: rows.SeatPoint) -> Json:
    """A seat's rating in its room: after the room where the room rated it, with the
    change it made (`change`: shown points, + or −), else as it stands (`change` null)."""
    now = Shown.of_row(point.rating)
    change = now.rating - Shown.of_row(point.before).rating if point.rated_here else None
    return {"rating": now.rating, "provisional": now.provisional, "text": now.text(),
            "change": change}


def rated_end(room_id: str, game: str, ranks: Sequence[int], now: float) -> Write:
    """The write a rated room's end carries (`apply_result`), answering a `RatedEnd`: why
    it changed no rating, and the seats' ratings after it, read in its transaction."""
    apply = apply_result(room_id, game, ranks, now)

    def write(conn: Connection) -> RatedEnd:
        unrated = apply(conn)
        return RatedEnd(unrated, seat_ratings(room_id, game, len(ranks))(conn))

    return write


# -- the write that applies a finished room's result -------------------------------------------


def unrated_sentence(result: Json | None) -> str | None:
    """"Not rated: …" for a rated room that ended without changing ratings; else None."""
    reason = (result or {}).get("unrated")
    return UNRATED.get(reason) if isinstance(reason, str) else None


def apply_result(room_id: str, game: str, ranks: Sequence[int], now: float) -> Write:
    """The write that rates a finished room, in the transaction that stores its end: read
    its seats' players, lock them (on PostgreSQL, so two rooms ending at once for one player
    are rated one after the other), decide whether the game counts (`UNRATED`), rate and
    store each new rating and its history point, dated when the room ended (else `now`).
    Returns the reason it stored in `rooms.result` when the game does not count; None when
    it rated, or changed nothing: the room is not rated, was rated or judged already, or
    cannot be rated (a bot's own seat, a seat without a player, one player in two seats)."""

    def write(conn: Connection) -> str | None:
        header = rows.room_header(conn, room_id)
        if header is None or not header.rated or "unrated" in header.result:
            return None
        if rows.rated_already(conn, room_id):
            return None
        found = rows.seat_holders(conn, room_id)
        holders = [row.player for row in found]
        klass = class_of(len(found))
        if (klass is None or len(ranks) != len(found) or None in holders
                or len(set(holders)) != len(holders)
                or any(row.kind == "bot" and row.gone is None for row in found)):
            log.error("Room %s is marked rated but cannot be rated (a bot's seat, a seat "
                      "without a player, or a player in two seats): its ratings stay.",
                      room_id)
            return None
        at, ids = header.ended or now, [str(p) for p in holders]
        held = {player: Rating(*row)
                for player, row in rows.lock_ratings(conn, game, klass, ids).items()}
        reason = _unrated(conn, room_id, header.result, game, klass, ids, held, at)
        if reason is None:
            _store(conn, game, klass, room_id, ids, held, ranks, at)
            return None
        rows.mark_unrated(conn, room_id, {**header.result, "unrated": reason})
        return reason

    return write


def _unrated(conn: Connection, room_id: str, result: Json, game: str, klass: str,
             holders: list[str], held: dict[str, Rating], at: float) -> str | None:
    """Why the finished room does not count (a key of UNRATED), or None when it does."""
    if result.get("kind") == "aborted":
        return "aborted"
    made = rows.moves_by_seat(conn, room_id)
    if any(made.get(seat, 0) < MIN_MOVES for seat in range(len(holders))):
        return "too_few_moves"
    if any(count >= PAIR_GAMES for count in rows.pair_counts(conn, holders, at - PAIR_WINDOW)):
        return "repeated_pairing"
    newcomers = [p for p in holders if (held.get(p) or Rating()).shown.provisional]
    recent = rows.recent_counts(conn, newcomers, game, klass, at - NEWCOMER_WINDOW)
    if any(count >= NEWCOMER_GAMES for count in recent):
        return "new_account_limit"
    return None


def _store(conn: Connection, game: str, klass: str, room_id: str, holders: list[str],
           held: dict[str, Rating], ranks: Sequence[int], at: float) -> None:
    """Rate `holders` (by seat; `held`: their ratings before, locked) by `ranks` and store
    their ratings and history points."""
    after = rate([held.get(player) for player in holders], ranks)
    for player, rating in zip(holders, after, strict=True):
        rows.store_rating(conn, player, game, klass, room_id,
                          rows.RatingRow(rating.mu, rating.sigma, rating.games, rating.wins),
                          at, first=player not in held)
