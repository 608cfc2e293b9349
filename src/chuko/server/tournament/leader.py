"""The tournaments' loop (`Leader`), run by the worker holding the cluster's lease (or the
only worker): every `every` seconds it makes the schedule's next tournaments, starts those
due, and for each running one makes any recorded game whose room is not made yet, then
- an arena: pairs the players waiting (entered, not paused, not in an unfinished game of
  it) by the arena's wave, pauses a player who lost a game without making a move, and ends
  at its end time (games still running finish and count);
- a Swiss: once every game of the round is over, pairs the next round (a bye scores a win;
  tables by score for games of more than two) until its rounds are played.

A pairing is recorded first, its rooms' ids chosen then, in the one transaction that moves
the round on (`tournament_rows.record_round`); only then are its rooms made. A leader killed
in between loses nothing: whoever leads next makes every recorded game whose room does not
exist, and a room made twice is refused by the database, so no game is made twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from chuko.core.errors import ChukoError
from chuko.server.rooms.opening import new_room_id
from chuko.server.shared.bus import GameOver
from chuko.server.store import tournament_rows as rows
from chuko.server.store.tournament_rows import EntrantRow, GameRow, TournamentRow
from chuko.server.tournament.director import Director
from chuko.server.tournament.opener import OpenGame
from chuko.server.tournament.pages import ends_at
from chuko.server.tournament.rounds import Contender, NoRound, Played, Rules
from chuko.server.tournament.schedule import Entry, due

log = logging.getLogger("chuko.server")

EVERY = 2.0  # seconds between the leader's passes (an arena's waves)
AT_ONCE = 64  # rooms made at once
Pairing = tuple[str, ...]  # players by seat; one alone is a bye


class Leader:
    """The tournaments `director` keeps, led while `leading()`; rooms made by `open_game`;
    `schedule`: the operator's recurring tournaments."""

    def __init__(self, director: Director, open_game: OpenGame, *,
                 leading: Callable[[], bool] = lambda: True, every: float = EVERY,
                 schedule: Sequence[Entry] = (), rng: random.Random | None = None) -> None:
        self.director, self.open_game, self.leading = director, open_game, leading
        self.store, self.clock = director.store, director.clock
        self.every, self.schedule = every, tuple(schedule)
        self.rng = rng or random.SystemRandom()
        self._seen: dict[str, set[str]] = {}  # by arena: the finished rooms looked at
        self._scheduled: set[str] = set()  # the schedule's keys made already
        self._playing: set[str] = set()  # the rooms in play at the last pass
        self._woken = asyncio.Event()

    @property
    def rules(self) -> Rules:
        return self.director.rules

    def game_over(self, event: GameOver) -> None:
        """A game ended on this worker (`shared/bus.py`): when it was a tournament's, the
        next pass comes at once, so its players are paired again without waiting."""
        if event.room_id in self._playing:
            self._woken.set()

    async def run(self) -> None:
        """The passes, while the app runs: on the leader only, every `every` seconds, or at
        once after a tournament's game ended here."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.every)
            self._woken.clear()
            if not self.leading():
                self._seen.clear()  # another leads: what it did is not looked at here
                continue
            try:
                await self.tick()
            except ChukoError as error:
                log.warning("The tournaments' pass stopped: %s", error)
            except Exception:
                log.exception("The tournaments' pass failed")

    async def tick(self) -> None:
        """One pass over every tournament with work to do."""
        self._playing.clear()
        await self.make_scheduled()
        now = self.clock()
        for tournament in await self.store.fetch(lambda conn: rows.to_lead(conn, now)):
            try:
                await self._lead(tournament, now)
            except ChukoError as error:
                log.warning("Tournament %s: %s", tournament.id, error)
            except Exception:  # one tournament's failure leaves the others led
                log.exception("Tournament %s could not be led", tournament.id)

    async def make_scheduled(self) -> int:
        """Make the schedule's next tournaments not made yet; how many were."""
        made = 0
        for key, settings in due(self.schedule, self.clock()):
            if key in self._scheduled:
                continue
            row = self.director.new_row(settings, created_by=None, schedule_key=key)
            made += bool(await self.store.submit(rows.create(row, None)))
            self._scheduled.add(key)
        return made

    async def _lead(self, tournament: TournamentRow, now: float) -> None:
        if tournament.status == "upcoming":
            if not await self.store.submit(rows.start(tournament.id, now)):
                return
            tournament = replace(tournament, status="running", started=now)
        entrants, games = await self.store.fetch(
            lambda conn: (rows.entrants(conn, tournament.id), rows.games(conn, tournament.id)))
        self._playing.update(g.room_id for g in games if g.room_id is not None
                             and g.status != "over")
        await self.make_unmade(tournament, entrants, games)
        if tournament.system == "arena":
            await self._arena(tournament, entrants, games, now)
        else:
            await self._swiss(tournament, entrants, games, now)

    # -- making the games recorded --------------------------------------------------------

    async def make_unmade(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                          games: Sequence[GameRow]) -> int:
        """Make every recorded game of the tournament whose room does not exist yet; how
        many this call made."""
        return await self._open_all(tournament, [(g.room_id, g.players) for g in games
                                                 if g.room_id is not None and g.status is None],
                                    entrants)

    async def _open_all(self, tournament: TournamentRow, games: Sequence[tuple[str, Pairing]],
                        entrants: Sequence[EntrantRow]) -> int:
        """Make the rooms of `games` (room id, players), AT_ONCE at a time (the store
        commits them together); how many this call made."""
        names = {e.player: e.name for e in entrants}
        made = 0
        for start in range(0, len(games), AT_ONCE):
            made += sum(await asyncio.gather(*(
                self._open(tournament, room_id, players, names)
                for room_id, players in games[start:start + AT_ONCE])))
        return made

    async def _open(self, tournament: TournamentRow, room_id: str, players: Pairing,
                    names: dict[str, str]) -> bool:
        try:
            return await self.open_game(tournament, room_id, players, names)
        except ChukoError as error:
            log.warning("A tournament game's room could not be made (%s); it is tried "
                        "again.", error)
        except Exception:
            log.exception("A tournament game's room could not be made; it is tried again.")
        return False

    async def record(self, tournament: TournamentRow, pairings: Sequence[Pairing],
                     entrants: Sequence[EntrantRow], now: float) -> None:
        """Record a round of pairings (its rooms' ids chosen now) with the round's advance,
        then make their rooms."""
        recorded = [(None if len(players) == 1 else new_room_id(now), players)
                    for players in pairings]
        await self.store.submit(rows.record_round(tournament.id, tournament.round,
                                                  recorded, now))
        games = [(room_id, players) for room_id, players in recorded if room_id is not None]
        self._playing.update(room_id for room_id, _ in games)
        await self._open_all(tournament, games, entrants)

    async def _finish(self, tournament: TournamentRow, now: float) -> None:
        await self.store.submit(rows.finish(tournament.id, now))
        self._seen.pop(tournament.id, None)

    # -- a Swiss ------------------------------------------------------------------------------

    async def _swiss(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                     games: Sequence[GameRow], now: float) -> None:
        if any(g.room_id is not None and g.status != "over" for g in games):
            return  # the round goes on
        if tournament.round >= (tournament.rounds or 0):
            await self._finish(tournament, now)
            return
        contenders = await self._contenders(tournament, entrants, games,
                                            [e for e in entrants if not e.withdrawn])
        if len(contenders) < 2:
            await self._finish(tournament, now)
            return
        if tournament.table_size == 2:
            try:
                pairs, bye = await asyncio.to_thread(self.rules.pair_swiss, contenders)
            except NoRound as error:
                log.info("Tournament %s ends early: %s", tournament.id, error)
                await self._finish(tournament, now)
                return
            pairings: list[Pairing] = [self._seated(pair) for pair in pairs]
            pairings += [(bye,)] if bye is not None else []
        else:
            pairings = await asyncio.to_thread(self.rules.seat_tables, contenders,
                                               tournament.table_size)
        await self.record(tournament, pairings, entrants, now)

    def _seated(self, pair: tuple[str, str]) -> Pairing:
        """A heads-up pairing in seat order, drawn (who sits first is chance's)."""
        seated = list(pair)
        self.rng.shuffle(seated)
        return tuple(seated)

    async def _contenders(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                          games: Sequence[GameRow],
                          pairing: Sequence[EntrantRow]) -> list[Contender]:
        """Those of `pairing` as the pairing sees them: points from the standings, whom
        each has played, byes, and (an arena) the latest opponent and since when each
        waits."""
        standings = await self.director.standings(tournament, list(entrants), list(games))
        points = {line.player: line.points for line in standings}
        played = await self.director.results.played(games)
        opponents, byes = _meetings(played)
        latest = _latest_games(games)
        contenders = []
        for entry in pairing:
            last = latest.get(entry.player)
            since = max(entry.joined_at, tournament.started or 0.0)
            if last is not None and last.ended is not None:
                since = max(since, last.ended)
            others = [] if last is None else [p for p in last.players if p != entry.player]
            contenders.append(Contender(
                entry.player, points.get(entry.player, 0.0), entry.rating,
                frozenset(opponents.get(entry.player, ())), entry.player in byes,
                others[0] if len(others) == 1 else None, since))
        return contenders

    # -- an arena -----------------------------------------------------------------------------

    async def _arena(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                     games: Sequence[GameRow], now: float) -> None:
        end = ends_at(tournament)
        if end is not None and now >= end:
            await self._finish(tournament, now)
            return
        absent = await self._absent(tournament, games)
        if absent:
            await self.store.submit(rows.mark(tournament.id, sorted(absent), paused=True))
        busy = {p for g in games if g.room_id is not None and g.status != "over"
                for p in g.players}
        waiting = [e for e in entrants if not (e.withdrawn or e.paused)
                   and e.player not in busy and e.player not in absent]
        if len(waiting) < 2:
            return
        contenders = await self._contenders(tournament, entrants, games, waiting)
        pairs = await asyncio.to_thread(self.rules.pair_arena, contenders)
        if pairs:
            await self.record(tournament, [self._seated(pair) for pair in pairs],
                              entrants, now)

    async def _absent(self, tournament: TournamentRow, games: Sequence[GameRow]) -> set[str]:
        """The players who lost a game of the arena that ended since the last pass without
        making a move in it. The games over when this worker first looks are only noted:
        what happened before it led is not judged again."""
        over = {g.room_id: g for g in games if g.room_id is not None and g.status == "over"}
        seen = self._seen.get(tournament.id)
        self._seen[tournament.id] = set(over)
        if seen is None:
            return set()
        absent = set()
        for room_id in set(over) - seen:
            game = over[room_id]
            ending = await self.director.results.ending(game)
            if ending is None:
                continue
            best = min(ending.places)
            for seat, player in enumerate(game.players):
                if ending.places[seat] > best and not ending.moved[seat]:
                    absent.add(player)
        return absent


def _meetings(played: Sequence[Played]) -> tuple[dict[str, set[str]], set[str]]:
    """Whom each player has met in the finished games, and who has had a bye."""
    opponents: dict[str, set[str]] = {}
    byes: set[str] = set()
    for game in played:
        if game.bye:
            byes.add(game.players[0])
        for player in game.players:
            opponents.setdefault(player, set()).update(p for p in game.players if p != player)
    return opponents, byes


def _latest_games(games: Sequence[GameRow]) -> dict[str, GameRow]:
    """Each player's latest game with a room."""
    latest: dict[str, GameRow] = {}
    for game in games:  # in order of rounds
        if game.room_id is not None:
            for player in game.players:
                latest[player] = game
    return latest


