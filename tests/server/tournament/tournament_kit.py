"""What the tournament tests share: plain pairing and scoring that stand in for the pure
modules (`FakeRules`: a Swiss by backtracking, an arena wave in order, 1/½/0 or 2/1/0
points), a club on a real store and hub with a clock that stands still (`club`), and games
ended through the rooms' own moves and resignations (`decide`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from random import Random

from chuko.server.rooms.hub import Hub
from chuko.server.shared.players import Player
from chuko.server.store import tournament_rows as rows
from chuko.server.store.database import Store
from chuko.server.tournament.director import Director
from chuko.server.tournament.leader import Leader
from chuko.server.tournament.opener import game_opener
from chuko.server.tournament.rounds import Contender, Field, NoRound, Played, Standing
from chuko.server.web.app import CLUB_TERMS
from club_seed import add_player

NOW = 1_800_000_000.0
CLOCK = {"kind": "move", "seconds": 60, "reserve": 120}


class Wall:
    """A wall clock that stands still until a test moves it."""

    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def settings(system: str = "swiss", **changes) -> dict:
    """A tournament's settings as a page sends them: chükö heads-up, starting now."""
    base = {"name": "Friday night", "system": system, "game": "chuko",
            "options": {"players": 2}, "clock": CLOCK, "rated": False, "starts_at": NOW}
    base.update({"rounds": 4} if system == "swiss" else {"minutes": 30})
    base.update(changes)
    return {key: value for key, value in base.items() if value is not None}


class FakeRules:
    """Plain, exact pairing and scoring for tests (the pure modules are tested on their
    own): a Swiss by backtracking (the lowest-ranked player without a bye sits out), an
    arena's wave in order of points then id, never the latest opponent again."""

    def standings(self, system: str, entered: Field,
                  played: Sequence[Played]) -> list[Standing]:
        players = list(entered.ratings)
        points = {player: 0.0 for player in players}
        sheets: dict[str, list[float]] = {player: [] for player in players}
        worth = 2.0 if system == "arena" else 1.0
        for game in played:
            best = min(game.places)
            firsts = game.places.count(best)
            for seat, player in enumerate(game.players):
                won = game.places[seat] == best
                got = 1.0 if game.bye else worth * (0.0 if not won else 1 / firsts)
                points[player] = points.get(player, 0.0) + got
                sheets.setdefault(player, []).append(got)
        order = sorted(players, key=lambda player: (-points[player], player))
        return [Standing(player, rank, points[player], tuple(sheets[player]))
                for rank, player in enumerate(order, 1)]

    def pair_swiss(self, contenders: Sequence[Contender]):
        ordered = sorted(contenders, key=lambda c: (-c.score, -c.rating, c.id))
        if len(ordered) % 2 == 0:
            pairs = _match(ordered)
            if pairs is not None:
                return pairs, None
        for bye in reversed(ordered):
            if len(ordered) % 2 and not bye.had_bye:
                pairs = _match([c for c in ordered if c is not bye])
                if pairs is not None:
                    return pairs, bye.id
        raise NoRound("No pairing without a repeat.")

    def seat_tables(self, contenders: Sequence[Contender], size: int):
        ordered = sorted(contenders, key=lambda c: (-c.score, c.id))
        return [tuple(c.id for c in ordered[at:at + size])
                for at in range(0, len(ordered), size)]

    def pair_arena(self, waiting: Sequence[Contender]):
        left = sorted(waiting, key=lambda c: (-c.score, c.id))
        pairs = []
        while len(left) >= 2:
            first = left.pop(0)
            other = next((c for c in left if c.id != first.last_opponent), None)
            if other is not None:
                left.remove(other)
                pairs.append((first.id, other.id))
        return pairs


def _match(left: list[Contender]) -> list[tuple[str, str]] | None:
    if not left:
        return []
    first, rest = left[0], left[1:]
    for other in rest:
        if other.id not in first.opponents:
            found = _match([c for c in rest if c is not other])
            if found is not None:
                return [(first.id, other.id), *found]
    return None


async def rated_1500(player: str, game: str, table_size: int) -> float:
    return 1500.0


@dataclass
class Club:
    """A store, a hub on it, and tournaments directed and led on them."""

    store: Store
    hub: Hub
    wall: Wall
    director: Director
    leader: Leader

    def people(self, count: int, *, accounts: bool = True) -> list[Player]:
        made = []
        for number in range(count):
            name = f"player{number}"
            player = add_player(self.store.engine, name if accounts else None, name)
            made.append(Player(player, name, name if accounts else None))
        return made

    def leader_again(self, **options) -> Leader:
        """A new director and leader on the same store (another worker, or a restart)."""
        director = Director(self.store, rated_1500, rules=self.director.rules, clock=self.wall)
        options.setdefault("open_game", game_opener(self.hub))
        return Leader(director, rng=Random(1), **options)

    async def games(self, tournament_id: str) -> list[rows.GameRow]:
        return await self.store.fetch(lambda conn: rows.games(conn, tournament_id))

    async def row(self, tournament_id: str) -> rows.TournamentRow:
        return await self.director.tournament(tournament_id)


@contextlib.asynccontextmanager
async def club(db_url: str, rating_of=rated_1500, rules=None) -> AsyncIterator[Club]:
    """A club on `db_url` whose tournaments pair and score by `rules` (`FakeRules` unless
    given: the service's tests stand apart from the pure modules')."""
    store = Store(db_url)
    store.start()
    wall = Wall()
    hub = Hub(store, CLUB_TERMS, bot_delay=3600, rng=Random(7), clock=wall)
    director = Director(store, rating_of, rules=rules or FakeRules(), clock=wall)
    leader = Leader(director, game_opener(hub), rng=Random(1))
    try:
        yield Club(store, hub, wall, director, leader)
    finally:
        await hub.close()
        store.close()


async def opening(hub: Hub, room_id: str, moves: int = 2) -> None:
    """The game's first `moves` moves, the first legal move each time."""
    room = await hub.room(room_id)
    for _ in range(moves):
        seat = room.state.to_move[0]
        await hub.play(room, seat, str(room.state.legal_moves(seat)[0]))


async def decide(hub: Hub, room_id: str, loser: int, moves: int = 2) -> None:
    """End a heads-up game: `moves` first moves played, then seat `loser` resigns (before two
    moves in all the game is aborted instead, its resigner having played no game)."""
    await opening(hub, room_id, moves)
    room = await hub.room(room_id)
    await hub.resign(room, loser)
    assert room.status == "over"
