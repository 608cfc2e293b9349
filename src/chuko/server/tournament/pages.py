"""Tournaments as the pages read them (docs/web-protocol.md, "Tournaments"): the list, and a
tournament's page with its settings, its rules in words, the standings, the pairings by
round, the games in progress to watch, the podium once over, and the asking player's part.
Players are shown by name; no player's id leaves the server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chuko.core.errors import ConfigError
from chuko.games import descriptor
from chuko.server.store.tournament_rows import EntrantRow, GameRow, TournamentRow
from chuko.server.tournament.rounds import TIEBREAKS, Standing
from chuko.server.tournament.settings import rules_in_words

Json = dict[str, Any]
ROUNDS_SHOWN = 30  # an arena's latest waves on its page (a Swiss shows every round)
PODIUM = 3  # the places on the podium: everyone sharing one of them stands there


def _title(game_id: str) -> str:
    try:
        return descriptor(game_id).title
    except ConfigError:
        return game_id


def ends_at(tournament: TournamentRow) -> float | None:
    """When an arena ends: its minutes from its start (from when it was due, before)."""
    if tournament.minutes is None:
        return None
    return (tournament.started or tournament.starts_at) + tournament.minutes * 60


def summary(tournament: TournamentRow, players: int) -> Json:
    """A tournament as the list shows it."""
    return {"id": tournament.id, "name": tournament.name, "game": tournament.game,
            "title": _title(tournament.game), "system": tournament.system,
            "table_size": tournament.table_size, "rated": tournament.rated,
            "clock": tournament.clock, "starts_at": tournament.starts_at,
            "ends_at": ends_at(tournament), "minutes": tournament.minutes,
            "rounds": tournament.rounds, "round": tournament.round,
            "status": tournament.status, "players": players,
            "password": tournament.password_hash is not None,
            "rating_min": tournament.rating_min, "rating_max": tournament.rating_max,
            "scheduled": tournament.schedule_key is not None,
            "url": f"/tournament/{tournament.id}"}


def listing(listed: Sequence[TournamentRow], counts: dict[str, int]) -> Json:
    """`GET /api/tournaments`: upcoming (soonest first), running, finished (latest first)."""
    shown: Json = {"upcoming": [], "running": [], "finished": []}
    for tournament in listed:
        kind = "finished" if tournament.status == "over" else tournament.status
        shown[kind].append(summary(tournament, counts.get(tournament.id, 0)))
    return shown


def page(tournament: TournamentRow, entrants: Sequence[EntrantRow], games: Sequence[GameRow],
         standings: Sequence[Standing], asking: str | None) -> Json:
    """`GET /api/tournaments/{id}`."""
    names = {e.player: e.name for e in entrants}
    active = sum(not e.withdrawn for e in entrants)
    lines = _standings(standings, {e.player: e for e in entrants})
    in_play = [g for g in games if g.room_id is not None and g.status in ("waiting", "playing")]
    over = tournament.status == "over" and not any(g.status != "over" for g in games
                                                   if g.room_id is not None)
    return {**summary(tournament, active),
            "options": tournament.options,
            "rules": rules_in_words(tournament.system, tournament.table_size,
                                    tournament.minutes, tournament.rounds),
            "tiebreaks": list(TIEBREAKS) if tournament.system == "swiss"
            and tournament.table_size == 2 else [],
            "standings": lines,
            "pairings": _pairings(tournament, games, names),
            "playing": [{"room": g.room_id, "round": g.round,
                         "players": [names.get(p, "?") for p in g.players],
                         "watch": f"/room/{g.room_id}"} for g in in_play],
            "final": over,
            "podium": [line for line in lines if line["rank"] <= PODIUM] if over else None,
            "you": None if asking is None else _you(asking, entrants, games)}


def _standings(standings: Sequence[Standing], entrants: dict[str, EntrantRow]) -> list[Json]:
    lines = []
    for line in standings:
        entry = entrants.get(line.player)
        if entry is None:
            continue
        lines.append({"rank": line.rank, "name": entry.name, "rating": round(entry.rating),
                      "points": line.points, "sheet": list(line.sheet),
                      "tiebreaks": dict(line.tiebreaks), "on_fire": line.on_fire,
                      "withdrawn": entry.withdrawn, "paused": entry.paused})
    return lines


def _pairings(tournament: TournamentRow, games: Sequence[GameRow],
              names: dict[str, str]) -> list[Json]:
    """The games by round, each with its players' names and, once over, the room to
    replay; a bye has no room. An arena shows its latest waves."""
    by_round: dict[int, list[Json]] = {}
    for game in games:
        by_round.setdefault(game.round, []).append({
            "room": game.room_id, "players": [names.get(p, "?") for p in game.players],
            "bye": game.room_id is None, "status": "over" if game.room_id is None
            else game.status or "starting"})
    shown = sorted(by_round.items())
    if tournament.system == "arena":
        shown = shown[-ROUNDS_SHOWN:]
    return [{"round": number, "games": listed} for number, listed in shown]


def _you(player: str, entrants: Sequence[EntrantRow], games: Sequence[GameRow]) -> Json:
    """The asking player's part: whether they joined, withdrew or paused, and the room of
    their game in progress (to be sent to it)."""
    entry = next((e for e in entrants if e.player == player), None)
    room = next((g.room_id for g in reversed(games)
                 if player in g.players and g.status in ("waiting", "playing")), None)
    return {"joined": entry is not None and not entry.withdrawn,
            "withdrawn": entry is not None and entry.withdrawn,
            "paused": entry is not None and entry.paused, "room": room}
