"""Quick pairing and open seeks (`Matchmaker`): what the lobby socket asks, and the waves.

Pools come from the games' descriptors (`Descriptor.pools`), so a plug-in game has pools
with no change here. Every `LobbyLimits.wave` seconds the pairing leader (the worker holding
the cluster's lease, or the only worker) runs one wave per pool: heads-up pools through
`pairing.pair_wave`, larger tables through `pairing.fill_tables` (bots complete a table
for players who allowed it after their chosen wait), each clock's players apart and guests
apart from accounts (`plan.py`). A player found gone just before a pairing is
recorded is taken out of the pool instead, and the others wait on. Each pair or table is
claimed on the board all at once or not at all (`Board.claim`), then its room is made and
`PlayerPaired` is published for each of its players (`shared/bus.py`): the board, which
subscribes, tells them on the worker holding their sockets. A pairing recorded and not told
(its worker died between the two) is made by the leader after `LobbyLimits.keep_making`
seconds, so no player waiting is lost.

A wave reads its pool, pairs it in a thread of its own (a wave of thousands takes tens of
milliseconds to compute, and a hard part up to a few hundred: the event loop must not wait
for it), records all its pairings in a few commits, and only then makes their rooms,
`AT_ONCE` at a time. A heads-up wave that is not the best pairing is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from chuko.core.descriptor import Pool
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.text import Text
from chuko.games import descriptors
from chuko.server.lobby.board import Board
from chuko.server.lobby.pairing import waves as pairing
from chuko.server.lobby.plan import FillTables, PairHeadsUp, plan
from chuko.server.lobby.seeks import (
    SEEK_CLOCKS,
    LobbyLimits,
    Standing,
    lapsed,
    may_play,
    new_seek,
    public_seek,
    rating_class,
    read_choice,
    read_seek,
    seek_page,
    waits_away,
)
from chuko.server.rooms.room import NotFound
from chuko.server.shared.bus import Bus, PlayerPaired
from chuko.server.shared.messages import loads

log = logging.getLogger("chuko.server")

Json = dict[str, Any]
AT_ONCE = 64  # rooms of one wave made at once (the store commits them together)
LAPSES_EVERY = 60.0  # seconds between two looks for slow waits and seeks that have lapsed
# A recorded pairing → its new room's id, and the player at each of its seats (None: a bot).
OpenRoom = Callable[[Json], Awaitable[tuple[str, list[str | None]]]]
RatingOf = Callable[[str, str, str], Awaitable[Standing]]  # (player, game, class) → rating
Alive = Callable[[str], Awaitable[bool]]  # whether a worker (`me`) still runs


class Player(Protocol):
    """Who asks (`players.Player`: a guest, with no username, or an account)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def username(self) -> str | None: ...


def pool_catalog() -> dict[str, tuple[str, Pool]]:
    """Every registered game's pools by their lobby id ("game/pool")."""
    return {f"{d.id}/{pool.id}": (d.id, pool) for d in descriptors() for pool in d.pools}


class Matchmaker:
    """The lobby's pools and seeks on `board`; `open_room` makes a pairing's room,
    `rating_of` reads a player's rating, `leading()` says whether this worker runs the
    waves, `alive(worker)` whether the worker that recorded a pairing still runs; `pair`
    and `fill` are the pairing's waves (tests pass their own). Each player seated is
    published on `bus` (the app's), which the board hears to tell them."""

    def __init__(self, board: Board, open_room: OpenRoom, rating_of: RatingOf, *,
                 limits: LobbyLimits | None = None, leading: Callable[[], bool] = lambda: True,
                 me: str = "alone", pair: PairHeadsUp | None = None,
                 fill: FillTables | None = None, alive: Alive | None = None,
                 bus: Bus | None = None) -> None:
        self.board, self.open_room, self.rating_of = board, open_room, rating_of
        self.bus = bus or Bus()
        self.bus.subscribe(PlayerPaired, board.tell_paired)
        self.limits = limits or LobbyLimits()
        self.leading, self.me = leading, me
        self.alive = alive or _always
        self.pair = pair or (lambda pool, now: pairing.pair_wave(pool, now))
        self.fill = fill or (lambda pool, now, n: pairing.fill_tables(pool, now, n))
        self.pools = pool_catalog()
        self._making: set[str] = set()  # pairings this worker is making a room for
        self._lapses_at = 0.0  # when `tidy` next looks for slow waits and seeks lapsed
        self._loop: asyncio.Task | None = None

    # -- what a player asks -------------------------------------------------------------------

    async def toggle(self, player: Player, pool_id: Any, bots_after: Any,
                     clock: Any = None) -> Json:
        """Join the pool with one of its clocks (its first when none is named), or leave it
        when already waiting there; the player's waiting state as the socket tells it. An
        account waits to play rated, a guest casual: each is paired with their own."""
        if not isinstance(pool_id, str) or pool_id not in self.pools:
            raise ConfigError(Text("There is no pool {pool_id!r}; the pools are "
                                   "{pools}.",
                                   pool_id=pool_id, pools=", ".join(self.pools) or "none"))
        game_id, pool = self.pools[pool_id]
        menu = tuple(dict(choice) for choice in pool.clocks)
        chosen = menu[0] if clock is None else read_choice(clock, menu, Text("this pool"))
        waits = self._bots_after(bots_after)
        standing = await self.rating_of(player.id, game_id, rating_class(pool.players))
        entry = {"player": player.id, "name": player.name, "pool": pool_id,
                 "rating": standing.rating,
                 "since": self.board.clock(), "bots_after": waits, "clock": chosen,
                 "rated": player.username is not None}
        await self.board.toggle(entry)
        return await self.you(player.id)

    def _bots_after(self, given: Any) -> float | None:
        if given is None:
            return None
        low, high = self.limits.bots_after
        if isinstance(given, bool) or not isinstance(given, int | float) \
                or not low <= given <= high:
            raise ConfigError(Text("Bots may complete a table after {low:g} to {high:g} seconds "
                                   "of waiting, or never (null).", low=low, high=high))
        return float(given)

    async def you(self, player: str) -> Json:
        """The player's own state in the lobby: the pool they wait in and since when, their
        seeks."""
        entry = await self.board.waiting_in(player)
        return {"type": "you", "pool": None if entry is None else entry["pool"],
                "since": None if entry is None else entry["since"],
                "bots_after": None if entry is None else entry["bots_after"],
                "clock": None if entry is None else entry.get("clock"),
                "rated": None if entry is None else entry.get("rated", False),
                "seeks": await self.board.mine_of(player)}

    async def post(self, player: Player, data: Json, address: str) -> Json:
        """Open a seek from the player's message, sent from `address`: rated ones for
        accounts only; within the caps on a player's, an address's and all open seeks."""
        read = read_seek(data)
        may_play(read["rated"], player.username)
        standing = await self.rating_of(player.id, read["game"], rating_class(read["players"]))
        seek = new_seek(read, player.id, player.name, standing, self.board.clock(), address)
        limits = self.limits
        await self.board.post(seek, limits.seeks_per_player, limits.seeks_per_address,
                              limits.seeks_in_all)
        return await self.you(player.id)

    async def cancel(self, player: Player, seek_id: Any) -> Json:
        await self.board.cancel(player.id, seek_id)
        return await self.you(player.id)

    async def accept(self, player: Player, seek_id: Any) -> Json | None:
        """Join a seek; once its seats are filled its room is made and its players told
        (None), else the taker is told it waits for more."""
        if not isinstance(seek_id, str):
            raise ConfigError(Text("Say which seek to join by its id."))
        raw = await self.board.kv.hget(self.board.seeks, seek_id)
        seek: Json = json.loads(raw) if raw else {"game": "", "players": 2, "rated": False}
        may_play(seek["rated"], player.username)
        if raw:
            await self._still_here(seek)
        standing = await self.rating_of(player.id, seek["game"],
                                        rating_class(seek["players"])) if raw else Standing()
        taker = {"player": player.id, "name": player.name, "rating": standing.rating}
        record = await self.board.accept(seek_id, taker, self._record_base())
        if record is None:
            return {"type": "joined", "seek": seek_id}
        await self._make(record)
        await self._withdraw({p["player"] for p in record["players"]})
        return None

    async def _still_here(self, seek: Json) -> None:
        """Before a seek is joined, whoever of it left the lobby is out of it: a taker gone
        leaves it; its poster gone takes it down (NotFound). A seek with days a move waits
        for its players away (`waits_away`)."""
        if waits_away(seek.get("clock")):
            return
        gone = await self.board.absent([seek["player"], *(t["player"] for t in seek["takers"])])
        for player in [seek["player"]] if seek["player"] in gone else gone:
            with contextlib.suppress(ChukoError):  # taken or changed meanwhile
                await self.board.cancel(player, seek["id"])
        if seek["player"] in gone:
            raise NotFound(Text("That seek is gone: its player has left the lobby."))

    async def listing(self, before: Any = None) -> Json:
        """The pools with how many wait in each, the clocks a seek may have, and a page of
        the open seeks: the newest, or those before the cursor `before` (`GET /api/lobby`)."""
        counts, seeks = await self.board.snapshot(list(self.pools))
        page = seek_page([public_seek(json.loads(raw)) for raw in seeks.values()], before,
                         self.limits.first_seeks)
        return {"pools": [{**pool.to_json(game_id), "waiting": counts[pool_id]}
                          for pool_id, (game_id, pool) in self.pools.items()],
                "clocks": list(SEEK_CLOCKS), **page}

    # -- the waves ------------------------------------------------------------------------------

    def _record_base(self) -> Json:
        return {"id": secrets.token_urlsafe(9), "maker": self.me, "at": self.board.clock()}

    async def wave(self) -> int:
        """One wave over every pool; the rooms made."""
        made = 0
        for pool_id, (game_id, pool) in self.pools.items():
            try:
                made += await self._wave_pool(pool_id, game_id, pool)
            except ChukoError as error:
                log.warning("The lobby's wave of %s stopped: %s", pool_id, error)
        return made

    async def _wave_pool(self, pool_id: str, game_id: str, pool: Pool) -> int:
        claimed = await self.claim_wave(pool_id, game_id, pool)
        made = 0
        for start in range(0, len(claimed), AT_ONCE):  # a big wave's rooms, a batch at a time
            made += sum(await asyncio.gather(*(
                self._make(record) for record in claimed[start:start + AT_ONCE])))
        await self._withdraw({seat["player"] for record in claimed for seat in record["players"]})
        return made

    async def claim_wave(self, pool_id: str, game_id: str, pool: Pool) -> list[Json]:
        """A wave's first half: read the pool, pair it (`_plan`, in a thread of its own, so
        the event loop goes on meanwhile) and record its pairings on the board; the
        pairings recorded, their rooms to make. A pairing one of whose players changed
        meanwhile (left, or joined again) is not recorded: they are in the next wave."""
        stored = await self._present(pool_id, await self.board.waiting(pool_id))
        if not stored:
            return []
        tables = await asyncio.to_thread(plan, pool_id, game_id, pool, stored,
                                         self.board.clock(), pair=self.pair, fill=self.fill,
                                         maker=self.me)
        # Confirmed again once the wave is worked out (it may take a while): a table with
        # a player gone since is not recorded; its others wait for the next wave.
        seated = {seat["player"] for table in tables for seat in table["players"]}
        gone = await self._gone(pool_id, {p: stored[p] for p in seated})
        tables = [table for table in tables
                  if gone.isdisjoint(seat["player"] for seat in table["players"])]
        held = await self.board.claim(pool_id, stored, tables)
        return [record for record, ok in zip(tables, held, strict=True) if ok]

    async def _present(self, pool_id: str, stored: dict[str, str]) -> dict[str, str]:
        """The pool's entries of players with a lobby socket open; the others out of it."""
        gone = await self._gone(pool_id, stored)
        return {p: raw for p, raw in stored.items() if p not in gone}

    async def _gone(self, pool_id: str, stored: dict[str, str]) -> set[str]:
        """Those of the pool's `stored` entries whose player has no lobby socket open (but
        for a wait with days a move: `waits_away`), taken out of the pool."""
        gone = await self.board.absent(list(stored)) if stored else set()
        gone = {p for p in gone if not waits_away(loads(stored[p]).get("clock"))}
        if gone:
            await self.board.drop(pool_id, {player: stored[player] for player in gone})
        return gone

    async def _withdraw(self, players: set[str]) -> None:
        """Take players just paired off the seeks of others they had joined (their own are
        down already), so a seek filling later does not seat them twice."""
        if not players:
            return
        _, seeks = await self.board.snapshot([])
        for raw in seeks.values():
            seek = json.loads(raw)
            for taker in seek["takers"]:
                if taker["player"] in players:
                    with contextlib.suppress(ChukoError):  # taken or changed meanwhile
                        await self.board.cancel(taker["player"], seek["id"])

    async def _make(self, record: Json) -> int:
        """Make a recorded pairing's room and publish its players seated; 1 if it was made.
        A room that cannot be made now stays recorded, made again later."""
        self._making.add(record["id"])
        try:
            room_id, seated = await self.open_room(record)
        except ChukoError as error:
            log.warning("A pairing's room could not be made (%s); it is tried again.", error)
            return 0
        except Exception:
            log.exception("A pairing's room could not be made; it is tried again.")
            return 0
        finally:
            self._making.discard(record["id"])
        await self.board.settle(record, room_id)
        for seat, player in enumerate(seated):
            if player is not None:
                self.bus.publish(PlayerPaired(player, room_id, seat))
        return 1

    async def recover(self) -> int:
        """Make the rooms of pairings recorded and left unmade (their worker died, or the
        database was away): at once when their worker is gone, else once it has had
        `keep_making` seconds; the rooms made. Making one twice is harmless: a pairing's
        room has an id of its own (`wiring.room_opener`)."""
        before = self.board.clock() - self.limits.keep_making
        made = 0
        for record in await self.board.records():
            if record["id"] in self._making:
                continue
            if float(record["at"]) < before or not await self.alive(str(record["maker"])):
                made += await self._make(record)
        return made

    async def tidy(self) -> None:
        """Take down the seeks of players gone (no lobby socket past the grace) but those
        with days a move, which wait for them (`waits_away`); every LAPSES_EVERY seconds,
        the waits and seeks with days a move that have lapsed too; forget the addresses
        with no seek open."""
        await self.board.prune_addresses()
        gone = set(await self.board.forget_absent(self.limits.grace))
        now = self.board.clock()
        lapsing = now >= self._lapses_at
        if lapsing:
            self._lapses_at = now + LAPSES_EVERY
            await self._drop_lapsed_waits(now)
        elif not gone:
            return
        _, seeks = await self.board.snapshot([])
        for raw in seeks.values():
            seek = json.loads(raw)
            clock = seek.get("clock")
            away = set() if waits_away(clock) else gone
            if lapsed(clock, float(seek["created"]), now, self.limits):
                away = {seek["player"]}
            for player in [seek["player"], *(t["player"] for t in seek["takers"])]:
                if player in away:
                    with contextlib.suppress(ChukoError):  # taken or changed meanwhile
                        await self.board.cancel(player, seek["id"])
                    break

    async def _drop_lapsed_waits(self, now: float) -> None:
        """Take out of their pools the waits with days a move begun `slow_wait` ago."""
        for pool_id in self.pools:
            stored = await self.board.waiting(pool_id)
            over = {player: raw for player, raw in stored.items()
                    if lapsed((entry := loads(raw)).get("clock"), float(entry["since"]), now,
                              self.limits)}
            if over:
                await self.board.drop(pool_id, over)

    async def run(self) -> None:
        """The waves, while the app runs: on the leader only."""
        while True:
            await asyncio.sleep(self.limits.wave)
            if not self.leading():
                continue
            try:
                await self.wave()
                await self.recover()
                await self.tidy()
            except ChukoError as error:
                log.warning("The lobby's wave stopped: %s", error)
            except Exception:
                log.exception("The lobby's wave failed")


async def _always(worker: str) -> bool:
    return True
