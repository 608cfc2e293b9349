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
seat of its own, or a seat with no known player, is never rated. Applying a room's result
is one write (`apply_result`), idempotent per room: `rating_history`'s key (player, room)
shows it was applied, so a second worker, or the same callback twice, changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from .schema import rating_history, ratings, rooms, seats
from .writes import Write

log = logging.getLogger("chuko.server")

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
CENTRE, SCALE = 1500, 60  # the shown rating: CENTRE + (mu − MODEL.mu) × SCALE
PROVISIONAL_GAMES = 10  # rated games in a class before a rating is settled …
PROVISIONAL_SIGMA = 6.5  # … and the uncertainty it must be down to (a newcomer's: 8.33)
CLASSES = ("duel", "multi")
MAX_RATED_SEATS = 8  # the model's tested range, and the lobby's largest table


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


# -- the write that applies a finished room's result -------------------------------------------


def apply_result(room_id: str, game: str, ranks: Sequence[int], now: float) -> Write:
    """The write that rates a finished room: read its seats' players, their ratings in the
    room's game and class (locked on PostgreSQL, so two rooms ending at once for one player
    do not lose an update), rate, and store each new rating and its history point, all in
    the writer's one transaction. Does nothing (returns False) when the room is not rated,
    is not rateable (a bot's own seat, a seat without a player, one player in two seats),
    or was rated already; True when it rated."""

    def write(conn: Connection) -> bool:
        header = conn.execute(select(rooms.c.rated, rooms.c.ended)
                              .where(rooms.c.id == room_id)).first()
        if header is None or not header.rated:
            return False
        if conn.execute(select(rating_history.c.player)
                        .where(rating_history.c.room == room_id).limit(1)).first():
            return False  # applied already (another worker, or a second call)
        found = conn.execute(select(seats.c.kind, seats.c.player, seats.c.gone)
                             .where(seats.c.room == room_id).order_by(seats.c.seat)).all()
        players = [row.player for row in found]
        klass = class_of(len(found))
        if (klass is None or len(ranks) != len(found) or None in players
                or len(set(players)) != len(players)
                or any(row.kind == "bot" and row.gone is None for row in found)):
            log.error("Room %s is marked rated but cannot be rated (a bot's seat, a seat "
                      "without a player, or a player in two seats): its ratings stay.",
                      room_id)
            return False
        _store(conn, game, klass, room_id, [str(p) for p in players], ranks,
               header.ended or now)
        return True

    return write


def _store(conn: Connection, game: str, klass: str, room_id: str, players: list[str],
           ranks: Sequence[int], at: float) -> None:
    """Rate `players` (by seat) by `ranks` and store their ratings and history points."""
    held = {row.player: Rating(row.mu, row.sigma, row.games, row.wins) for row in conn.execute(
        select(ratings).where(ratings.c.player.in_(players), ratings.c.game == game,
                              ratings.c["class"] == klass).with_for_update())}
    after = rate([held.get(player) for player in players], ranks)
    for player, rating in zip(players, after, strict=True):
        values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
                  "wins": rating.wins, "updated": at}
        if player in held:
            conn.execute(update(ratings).where(ratings.c.player == player,
                                               ratings.c.game == game,
                                               ratings.c["class"] == klass).values(**values))
        else:
            conn.execute(insert(ratings).values(player=player, game=game, **{"class": klass},
                                                **values))
        conn.execute(insert(rating_history).values(
            player=player, room=room_id, game=game, **{"class": klass}, mu=rating.mu,
            sigma=rating.sigma, at=at))


# -- the hub's callback ---------------------------------------------------------------------


class Finished(Protocol):
    """What the callback reads of a room that is over (`room.Room`)."""

    id: str
    game_id: str
    rated: bool

    def places(self) -> list[int]: ...


class Submit(Protocol):
    def __call__(self, write: Write) -> Any: ...


class Rater:
    """The hub's callback for rooms that end (`hub.on_over`): a rated room's places go to
    the store's writer as one `apply_result`. It never raises: a write that fails (the
    database away, a race between two workers on a new rating's row) is tried again up to
    ATTEMPTS times, a moment apart, then logged. A history point is dated when the room
    ended (`rooms.ended`), else when it is written."""

    ATTEMPTS = 3

    def __init__(self, submit: Submit, clock: Callable[[], float] = time.time,
                 pause: float = 1.0) -> None:
        self.submit = submit
        self.clock = clock  # seconds since the epoch, for a room that does not say it ended
        self.pause = pause  # seconds before a failed write is tried again (times the attempt)
        self.pending: set[Any] = set()  # the tasks still writing (kept so none is collected)

    def __call__(self, room: Finished) -> None:
        try:
            if not room.rated:
                return
            ranks = list(room.places())
            task = asyncio.get_running_loop().create_task(
                self._apply(room.id, room.game_id, ranks))
        except Exception:
            log.exception("The places of room %s cannot be read: its ratings stay.", room.id)
            return
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _apply(self, room_id: str, game: str, ranks: list[int]) -> bool:
        for attempt in range(1, self.ATTEMPTS + 1):
            try:
                return bool(await self.submit(apply_result(room_id, game, ranks,
                                                           self.clock())))
            except Exception as error:
                if attempt == self.ATTEMPTS:
                    log.error("The ratings of room %s could not be stored: %s", room_id,
                              str(error).splitlines()[0] if str(error) else type(error))
                    return False
                await asyncio.sleep(self.pause * attempt)  # the database may come back
        return False
