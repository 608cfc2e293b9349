"""The store's reads and writes of tournaments (`schema.tournaments`, `tournament_players`,
`tournament_games`): reads are functions of a connection for `Store.fetch`, writes are
`Write`s for `Store.submit`. What the rows mean (who is paired, the standings) is
`tournament/`'s.

A pairing is recorded with its room's id before the room is made, in the one transaction
that moves the tournament's round on (checked against the round it was worked out for), so
two leaders never record a round twice; a game's result is read from its room.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection

from chuko.core.text import Text
from chuko.server.shared.limits import TooMany
from chuko.server.store.schema import rooms, tournament_games, tournament_players, tournaments
from chuko.server.store.writes import Conflict, Write

FINISHED_LISTED = 20  # the finished tournaments a listing shows, the latest


@dataclass(frozen=True)
class TournamentRow:
    """A tournament's row, its JSON read."""

    id: str
    name: str
    game: str
    options: dict[str, Any]
    clock: dict[str, Any]
    rated: bool
    system: str
    table_size: int
    starts_at: float
    minutes: int | None
    rounds: int | None
    rating_min: int | None
    rating_max: int | None
    password_hash: str | None
    created_by: str | None
    created: float
    schedule_key: str | None
    status: str
    round: int
    started: float | None = None
    ended: float | None = None

    def values(self) -> dict[str, Any]:
        """The row as the table takes it."""
        values = dict(vars(self))
        values.update(options=json.dumps(self.options), clock=json.dumps(self.clock))
        return values


@dataclass(frozen=True)
class EntrantRow:
    """A player who entered a tournament."""

    player: str
    name: str
    rating: float
    joined_at: float
    withdrawn: bool
    paused: bool


@dataclass(frozen=True)
class GameRow:
    """A recorded pairing and its room as stored: `status` None while the room is not made
    (a bye has no room), `result` the room's stored end when the engine did not say."""

    round: int
    slot: int
    room_id: str | None
    players: tuple[str, ...]
    created: float
    status: str | None
    ended: float | None
    result: dict[str, Any] | None


def _tournament(row: Any) -> TournamentRow:
    values = dict(row._mapping)
    values.update(options=json.loads(values["options"]), clock=json.loads(values["clock"]))
    return TournamentRow(**values)


def tournament(conn: Connection, tournament_id: str) -> TournamentRow | None:
    row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    return None if row is None else _tournament(row)


def listing(conn: Connection) -> list[TournamentRow]:
    """Every upcoming and running tournament, soonest first, then the latest finished."""
    live = conn.execute(select(tournaments).where(tournaments.c.status != "over")
                        .order_by(tournaments.c.starts_at)).all()
    over = conn.execute(select(tournaments).where(tournaments.c.status == "over")
                        .order_by(tournaments.c.ended.desc()).limit(FINISHED_LISTED)).all()
    return [_tournament(row) for row in [*live, *over]]


def to_lead(conn: Connection, now: float) -> list[TournamentRow]:
    """The tournaments the leader has work on: those running, and those due to start."""
    rows = conn.execute(select(tournaments).where(
        (tournaments.c.status == "running")
        | and_(tournaments.c.status == "upcoming", tournaments.c.starts_at <= now))).all()
    return [_tournament(row) for row in rows]


def entrants(conn: Connection, tournament_id: str) -> list[EntrantRow]:
    """Who entered the tournament, in the order they did."""
    c = tournament_players.c
    rows = conn.execute(select(c.player, c.name, c.rating, c.joined_at, c.withdrawn, c.paused)
                        .where(c.tournament == tournament_id).order_by(c.joined_at)).all()
    return [EntrantRow(*row) for row in rows]


def games(conn: Connection, tournament_id: str) -> list[GameRow]:
    """The tournament's pairings in order, each with its room's status and stored end."""
    g = tournament_games.c
    rows = conn.execute(
        select(g.round, g.slot, g.room_id, g.players, g.created, rooms.c.status,
               rooms.c.ended, rooms.c.result)
        .select_from(tournament_games.outerjoin(rooms, rooms.c.id == g.room_id))
        .where(g.tournament == tournament_id).order_by(g.round, g.slot)).all()
    return [GameRow(row.round, row.slot, row.room_id, tuple(json.loads(row.players)),
                    row.created, row.status, row.ended,
                    None if row.result is None else json.loads(row.result)) for row in rows]


def upcoming_made_by(conn: Connection, player: str) -> int:
    """How many upcoming tournaments the player made."""
    return int(conn.execute(select(func.count()).select_from(tournaments).where(and_(
        tournaments.c.created_by == player, tournaments.c.status == "upcoming"))).scalar_one())


def create(row: TournamentRow, cap: int | None) -> Write:
    """The write that stores a new tournament: TooMany when its maker has `cap` upcoming
    already (None: no cap, the schedule's); False, nothing stored, when its schedule key is
    taken."""

    def write(conn: Connection) -> bool:
        if row.schedule_key is not None and conn.execute(
                select(tournaments.c.id).where(
                    tournaments.c.schedule_key == row.schedule_key)).first() is not None:
            return False
        if cap is not None and row.created_by is not None \
                and upcoming_made_by(conn, row.created_by) >= cap:
            raise TooMany(Text("You have {cap} upcoming tournaments already: wait until one "
                               "starts to make another.", cap=cap))
        conn.execute(insert(tournaments).values(**row.values()))
        return True

    return write


def join(tournament_id: str, player: str, name: str, rating: float, now: float) -> Write:
    """The write that enters a player, or takes a withdrawn one back (unpaused); Conflict
    once the tournament is over."""

    def write(conn: Connection) -> None:
        status = conn.execute(select(tournaments.c.status).where(
            tournaments.c.id == tournament_id)).scalar()
        if status is None or status == "over":
            raise Conflict(Text("That tournament is over: it takes no more players."))
        c = tournament_players.c
        entered = and_(c.tournament == tournament_id, c.player == player)
        if conn.execute(select(c.player).where(entered)).first() is None:
            conn.execute(insert(tournament_players).values(
                tournament=tournament_id, player=player, name=name, rating=rating,
                joined_at=now, withdrawn=False, paused=False))
        else:
            conn.execute(update(tournament_players).where(entered).values(
                withdrawn=False, paused=False))

    return write


def mark(tournament_id: str, players: list[str], **flags: bool) -> Write:
    """The write that sets `withdrawn` or `paused` of the players; how many it changed."""

    def write(conn: Connection) -> int:
        c = tournament_players.c
        changed = conn.execute(update(tournament_players).where(and_(
            c.tournament == tournament_id, c.player.in_(players))).values(**flags))
        return int(changed.rowcount)

    return write


def start(tournament_id: str, now: float) -> Write:
    """The write that starts an upcoming tournament; whether it did (another leader may)."""

    def write(conn: Connection) -> bool:
        done = conn.execute(update(tournaments).where(and_(
            tournaments.c.id == tournament_id, tournaments.c.status == "upcoming"))
            .values(status="running", started=now))
        return bool(done.rowcount)

    return write


def finish(tournament_id: str, now: float) -> Write:
    """The write that ends a running tournament; whether it did."""

    def write(conn: Connection) -> bool:
        done = conn.execute(update(tournaments).where(and_(
            tournaments.c.id == tournament_id, tournaments.c.status == "running"))
            .values(status="over", ended=now))
        return bool(done.rowcount)

    return write


def record_round(tournament_id: str, after: int,
                 pairings: list[tuple[str | None, tuple[str, ...]]], now: float) -> Write:
    """The write that records a round (an arena's wave) of pairings, each its room's id
    (None: a bye) and its players by seat, as round `after + 1`: Conflict when the
    tournament has moved past `after` or is not running (another leader recorded it)."""

    def write(conn: Connection) -> None:
        moved = conn.execute(update(tournaments).where(and_(
            tournaments.c.id == tournament_id, tournaments.c.round == after,
            tournaments.c.status == "running")).values(round=after + 1))
        if not moved.rowcount:
            raise Conflict(Text("The tournament's round was recorded already."))
        if pairings:
            conn.execute(insert(tournament_games), [
                {"tournament": tournament_id, "round": after + 1, "slot": slot,
                 "room_id": room_id, "players": json.dumps(list(players)), "created": now}
                for slot, (room_id, players) in enumerate(pairings)])

    return write


def counts(conn: Connection, tournament_ids: list[str]) -> dict[str, int]:
    """How many players are in each of the tournaments (those withdrawn left out)."""
    c = tournament_players.c
    rows = conn.execute(select(c.tournament, func.count()).where(and_(
        c.tournament.in_(tournament_ids), c.withdrawn.is_(False))).group_by(c.tournament))
    return {tournament: int(count) for tournament, count in rows}


def entered_by(conn: Connection, player: str, count: int) -> list[TournamentRow]:
    """The latest `count` tournaments the player entered, the latest to start first."""
    found = conn.execute(
        select(tournaments).join(tournament_players,
                                 tournament_players.c.tournament == tournaments.c.id)
        .where(tournament_players.c.player == player)
        .order_by(tournaments.c.starts_at.desc()).limit(count)).all()
    return [_tournament(row) for row in found]
