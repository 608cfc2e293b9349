"""The lobby's shared state, as every worker sees it (`Board`): who waits in which pool,
the open seeks, the pairings being made, who has a lobby socket open. It lives in a `Kv`
(`kv.py`): this worker's memory, or Redis for a cluster.

Keys, under the cluster's prefix `{p}:lobby:`: `where` (player → the pool they wait in),
`pool:{id}` (player → their entry), `seeks` (id → seek), `mine` (player → the ids of the
seeks they posted), `addresses` (a client's address → the ids of the seeks posted from it,
some maybe gone), `making` (id → a pairing recorded, its room not yet told), `here` (player
→ {worker: until when a socket of theirs there counts as open}) and `paired:{player}` (the
room a player was last paired into, kept a short while for a socket that reconnects).

A player is here while some worker's word for them holds: a worker holding a socket of
theirs renews it every few seconds, and the moment their last socket there closes it says
so, and takes them out of their pool if no other worker holds one (`closed`), unless they
wait with days a move (`seeks.waits_away`). A worker that dies stops renewing: its word
lapses within `LobbyLimits.grace`.

A player waits in one pool at most (membership is the player's, not a socket's), and a
pairing takes its players out of their pool, takes down their seeks and records itself in
`making`, all in one commit that holds only if none of them changed meanwhile: two workers,
two tabs or a wave racing a seek never pair one player twice, and a worker dying mid-wave
leaves each player either waiting or in a recorded pairing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.lobby.kv import Check, Group, Kv, Op
from chuko.server.lobby.seeks import waits_away
from chuko.server.rooms.room import Forbidden, NotFound
from chuko.server.shared.bus import PlayerPaired
from chuko.server.shared.limits import Full, TooMany
from chuko.server.shared.messages import dumps, loads
from chuko.server.store.writes import Conflict

Json = dict[str, Any]
PAIRED_KEEP = 15  # seconds a pairing is told again to a socket of its player reconnecting
_TRIES = 8  # commits tried before a change gives up (others changing the same fields)
CLAIMS_AT_ONCE = 500  # pairings in one commit: one Redis script of a few hundred kB
_LAPSED = 60.0  # seconds after which a worker's lapsed word on a player is forgotten


class Busy(ChukoError):
    """The lobby changed under a change too many times in a row."""

    def __init__(self) -> None:
        super().__init__(Text("The lobby is busy: try that again in a moment."))


Attempt = Callable[[], Awaitable[tuple[list[Check], list[Op], Any]]]


class Board:
    """The pools, seeks and pairings in `kv`, under the keys of cluster `prefix`."""

    def __init__(self, kv: Kv, prefix: str = "local", clock: Callable[[], float] = time.time):
        self.kv, self.clock = kv, clock
        base = f"{prefix}:lobby:"
        self.where, self.seeks, self.mine = base + "where", base + "seeks", base + "mine"
        self.making, self.here, self._base = base + "making", base + "here", base
        self.addresses = base + "addresses"

    def pool_key(self, pool_id: str) -> str:
        return f"{self._base}pool:{pool_id}"

    def paired_key(self, player: str) -> str:
        return f"{self._base}paired:{player}"

    async def _change(self, attempt: Attempt) -> Any:
        """Read, then commit what the reading decided, again while others changed it."""
        for _ in range(_TRIES):
            checks, ops, result = await attempt()
            if not ops or await self.kv.commit(checks, ops):
                return result
        raise Busy()

    # -- pools --------------------------------------------------------------------------------

    async def toggle(self, entry: Json) -> bool:
        """Put the player of `entry` in its pool with its clock, out of any other pool or
        clock; out of it if they waited there with that clock already. Whether they wait."""
        player = entry["player"]

        async def attempt() -> tuple[list[Check], list[Op], Any]:
            old = await self.kv.hget(self.where, player)
            held = None if old is None else await self.kv.hget(self.pool_key(old), player)
            ops = _out_of_pool(self, player, old)
            joined = old != entry["pool"] or held is None \
                or json.loads(held).get("clock") != entry.get("clock")
            if joined:
                ops += [("hset", self.pool_key(entry["pool"]), player, json.dumps(entry)),
                        ("hset", self.where, player, entry["pool"])]
            checks: list[Check] = [(self.where, player, old)]
            if old is not None:
                checks.append((self.pool_key(old), player, held))
            return checks, ops, joined

        return bool(await self._change(attempt))

    async def leave(self, player: str) -> None:
        async def attempt() -> tuple[list[Check], list[Op], Any]:
            old = await self.kv.hget(self.where, player)
            return [(self.where, player, old)], _out_of_pool(self, player, old), None

        await self._change(attempt)

    async def waiting_in(self, player: str) -> Json | None:
        """The player's entry in the pool they wait in, or None."""
        pool = await self.kv.hget(self.where, player)
        raw = None if pool is None else await self.kv.hget(self.pool_key(pool), player)
        return None if raw is None else json.loads(raw)

    async def waiting(self, pool_id: str) -> dict[str, str]:
        """The pool's entries as stored: player → entry text."""
        return await self.kv.hgetall(self.pool_key(pool_id))

    async def drop(self, pool_id: str, entries: dict[str, str]) -> None:
        """Take these entries out of the pool unless they changed (players gone)."""
        key = self.pool_key(pool_id)
        checks: list[Check] = [(key, player, raw) for player, raw in entries.items()]
        ops: list[Op] = [op for player in entries
                         for op in (("hdel", key, player, ""), ("hdel", self.where, player, ""))]
        if ops:
            await self.kv.commit(checks, ops)

    async def claim(self, pool_id: str, read: dict[str, str], records: list[Json]) -> list[bool]:
        """Record pairings of the pool's entries as `read` (player → entry): each record's
        players out of the pool and their seeks down, each pairing at once or not at all
        (False: one of its entries or seek lists changed meanwhile). A wave's thousands of
        pairings go `CLAIMS_AT_ONCE` to a commit, the event loop free between two (a few
        milliseconds each), their seek lists read in one call."""
        seated = [[seat["player"] for seat in record["players"]] for record in records]
        everyone = [player for players in seated for player in players]
        posted = dict(zip(everyone, await self.kv.hmget(self.mine, everyone), strict=True))
        held: list[bool] = []
        for start in range(0, len(records), CLAIMS_AT_ONCE):
            cut = slice(start, start + CLAIMS_AT_ONCE)
            groups = [self._claim_one(pool_id, read, posted, players, record)
                      for players, record in zip(seated[cut], records[cut], strict=True)]
            held += await self.kv.commit_each(groups)
            await asyncio.sleep(0)  # others' turn: the memory store never waits
        return held

    def _claim_one(self, pool_id: str, read: dict[str, str], posted: dict[str, str | None],
                   players: list[str], record: Json) -> tuple[list[Check], list[Op]]:
        """The checks and writes that record one pairing (`claim`)."""
        key = self.pool_key(pool_id)
        checks: list[Check] = [(key, player, read[player]) for player in players]
        checks += [(self.mine, player, posted[player]) for player in players]
        ops: list[Op] = [op for player in players
                         for op in (("hdel", key, player, ""), ("hdel", self.where, player, ""))]
        ops += _seeks_down(self, {player: posted[player] for player in players})
        ops.append(("hset", self.making, record["id"], dumps(record)))  # orjson: a tenth
        return checks, ops

    async def settle(self, record: Json, room_id: str) -> None:
        """A recorded pairing's room is made: forget the record, remember each player's room
        for a while."""
        players = [seat["player"] for seat in record["players"]]
        ops: list[Op] = [("hdel", self.making, record["id"], "")]
        ops += [("setex", self.paired_key(player), PAIRED_KEEP, room_id) for player in players]
        await self.kv.commit([], ops)

    def tell_paired(self, paired: PlayerPaired) -> None:
        """Tell a player seated by the lobby their room, on whichever worker holds their
        lobby sockets (the store's channel, in a cluster)."""
        self.kv.tell(paired.player, {"type": "paired", "room": paired.room_id})

    async def records(self) -> list[Json]:
        """The pairings recorded and not settled."""
        return [json.loads(raw) for raw in (await self.kv.hgetall(self.making)).values()]

    async def paired_room(self, player: str) -> str | None:
        return await self.kv.get(self.paired_key(player))

    # -- presence -----------------------------------------------------------------------------

    async def touch(self, players: list[str], until: float, worker: str) -> None:
        """These players have a lobby socket open on `worker`, counted until `until`."""
        for _ in range(_TRIES):
            if not players:
                return
            held = dict(zip(players, await self.kv.hmget(self.here, players), strict=True))
            kept = self.clock() - _LAPSED
            groups: list[Group] = [
                ([(self.here, player, raw)],
                 [("hset", self.here, player, json.dumps(
                     {**{w: u for w, u in _workers(raw).items() if u >= kept},
                      worker: until}))])
                for player, raw in held.items()]
            done = await self.kv.commit_each(groups)
            players = [player for player, ok in zip(held, done, strict=True) if not ok]
        raise Busy()

    async def closed(self, player: str, worker: str) -> bool:
        """The player's last lobby socket on `worker` closed: they are out of their pool
        unless a socket of theirs is open on another worker, or they wait with days a move
        (`seeks.waits_away`). Whether they left it."""
        now = self.clock()

        async def attempt() -> tuple[list[Check], list[Op], Any]:
            raw, pool = await self.kv.hget(self.here, player), await self.kv.hget(self.where,
                                                                                  player)
            entry = None if pool is None else await self.kv.hget(self.pool_key(pool), player)
            workers = {**_workers(raw), worker: now}
            gone = all(until <= now for until in workers.values()) and not (
                entry is not None and waits_away(json.loads(entry).get("clock")))
            ops: list[Op] = [("hset", self.here, player, json.dumps(workers))]
            ops += _out_of_pool(self, player, pool) if gone else []
            checks: list[Check] = [(self.here, player, raw), (self.where, player, pool)]
            if pool is not None:
                checks.append((self.pool_key(pool), player, entry))
            return checks, ops, gone and pool is not None

        return bool(await self._change(attempt))

    async def absent(self, players: list[str]) -> set[str]:
        """Those of `players` with no lobby socket open anywhere."""
        now = self.clock()
        seen = await self.kv.hmget(self.here, players)
        return {p for p, until in zip(players, _latest(seen), strict=True) if until <= now}

    async def forget_absent(self, grace: float) -> list[str]:
        """Forget the presence of players gone for `grace` seconds; the players forgotten."""
        before = self.clock() - grace
        held = await self.kv.hgetall(self.here)
        gone = {p: raw for (p, raw), until in zip(held.items(), _latest(list(held.values())),
                                                  strict=True) if until < before}
        done = await self.kv.commit_each([([(self.here, p, raw)], [("hdel", self.here, p, "")])
                                          for p, raw in gone.items()])
        return [player for player, ok in zip(gone, done, strict=True) if ok]

    # -- seeks --------------------------------------------------------------------------------

    async def post(self, seek: Json, per_player: int, per_address: int, in_all: int) -> None:
        """Open a seek, within the caps on a player's seeks, on those of their address
        (every player of it together) and on all of them."""
        player, address = seek["player"], seek["address"]

        async def attempt() -> tuple[list[Check], list[Op], Any]:
            raw = await self.kv.hget(self.mine, player)
            ids = [] if raw is None else json.loads(raw)
            if len(ids) >= per_player:
                raise TooMany(Text("You have {count} open seeks already: cancel one first.",
                                   count=len(ids)))
            listed = await self.kv.hget(self.addresses, address)
            from_there = await self._open_seeks(listed)
            if len(from_there) >= per_address:
                raise TooMany(Text("Your address has {count} open seeks already, the "
                                   "most one address may have: wait for one to be taken or "
                                   "cancelled.", count=len(from_there)))
            if (await self.kv.hlens([self.seeks]))[0] >= in_all:
                raise Full(Text("The lobby holds as many seeks as it can: try again later."))
            return [(self.mine, player, raw), (self.addresses, address, listed)], [
                ("hset", self.seeks, seek["id"], json.dumps(seek)),
                ("hset", self.mine, player, json.dumps([*ids, seek["id"]])),
                ("hset", self.addresses, address, json.dumps([*from_there, seek["id"]]))], None

        await self._change(attempt)

    async def _open_seeks(self, listed: str | None) -> list[str]:
        """Those of the seek ids `listed` (as stored, or None) still open."""
        ids = [] if listed is None else json.loads(listed)
        held = await self.kv.hmget(self.seeks, ids)
        return [seek for seek, raw in zip(ids, held, strict=True) if raw is not None]

    async def prune_addresses(self) -> None:
        """Forget the addresses none of whose seeks is open any more."""
        listed = await self.kv.hgetall(self.addresses)
        seeks = {address: json.loads(raw) for address, raw in listed.items()}
        ids = [seek for held in seeks.values() for seek in held]
        still = {seek for seek, raw in zip(ids, await self.kv.hmget(self.seeks, ids),
                                           strict=True) if raw is not None}
        await self.kv.commit_each([([(self.addresses, address, listed[address])],
                                    [("hdel", self.addresses, address, "")])
                                   for address, held in seeks.items()
                                   if still.isdisjoint(held)])

    async def mine_of(self, player: str) -> list[str]:
        raw = await self.kv.hget(self.mine, player)
        return [] if raw is None else list(json.loads(raw))

    async def cancel(self, player: str, seek_id: str) -> None:
        """The poster takes their seek down; a player who joined it leaves it."""

        async def attempt() -> tuple[list[Check], list[Op], Any]:
            raw, seek = await self._seek(seek_id)
            checks: list[Check] = [(self.seeks, seek_id, raw)]
            if seek["player"] == player:
                mine = await self.kv.hget(self.mine, player)
                left = [s for s in json.loads(mine or "[]") if s != seek_id]
                return checks + [(self.mine, player, mine)], [
                    ("hdel", self.seeks, seek_id, ""),
                    ("hset", self.mine, player, json.dumps(left)) if left
                    else ("hdel", self.mine, player, "")], None
            takers = [t for t in seek["takers"] if t["player"] != player]
            if len(takers) == len(seek["takers"]):
                raise Forbidden(Text("Only the player who posted a seek can cancel it."))
            return checks, [("hset", self.seeks, seek_id,
                             json.dumps({**seek, "takers": takers}))], None

        await self._change(attempt)

    async def _seek(self, seek_id: Any) -> tuple[str, Json]:
        raw = await self.kv.hget(self.seeks, seek_id) if isinstance(seek_id, str) else None
        if raw is None:
            raise NotFound(Text("That seek is gone: it was taken or cancelled."))
        return raw, json.loads(raw)

    async def accept(self, seek_id: Any, taker: Json, record: Json) -> Json | None:
        """Join a seek as `taker` ({player, name, rating}): once its seats are filled, the
        pairing it makes (`record` with its players), taking them out of pools and their
        seeks down at once; None while it waits for more players."""

        async def attempt() -> tuple[list[Check], list[Op], Any]:
            raw, seek = await self._seek(seek_id)
            takers = _taken_by(seek, taker)
            checks: list[Check] = [(self.seeks, seek_id, raw)]
            if len(takers) + 1 < seek["players"]:
                return checks, [("hset", self.seeks, seek_id,
                                 json.dumps({**seek, "takers": takers}))], None
            seated = [{"player": seek["player"], "name": seek["name"]},
                      *({"player": t["player"], "name": t["name"]} for t in takers)]
            players = [s["player"] for s in seated]
            pools = await self.kv.hmget(self.where, players)
            checks += list(zip([self.where] * len(players), players, pools, strict=True))
            ops: list[Op] = [("hdel", self.seeks, seek_id, "")]
            for player, pool in zip(players, pools, strict=True):
                ops += _out_of_pool(self, player, pool)
            held = await self.kv.hmget(self.mine, players)
            seek_checks = list(zip([self.mine] * len(players), players, held, strict=True))
            seek_ops = _seeks_down(self, dict(zip(players, held, strict=True)))
            made = {**record, "game": seek["game"], "options": seek["options"],
                    "rated": seek["rated"], "clock": seek.get("clock"), "players": seated,
                    "bots": 0}
            ops += [*seek_ops, ("hset", self.making, made["id"], json.dumps(made))]
            return checks + seek_checks, ops, made

        result = await self._change(attempt)
        return None if result is None else dict(result)

    async def snapshot(self, pool_ids: list[str]) -> tuple[dict[str, int], dict[str, str]]:
        """How many wait in each pool, and every open seek as stored (id → text)."""
        counts = await self.kv.hlens([self.pool_key(pool) for pool in pool_ids])
        return dict(zip(pool_ids, counts, strict=True)), await self.kv.hgetall(self.seeks)


def _workers(raw: str | None) -> dict[str, float]:
    """A player's presence as stored: worker → until when its word holds."""
    return _as_workers(None if raw is None else json.loads(raw))


def _as_workers(held: Any) -> dict[str, float]:
    # A bare time is a worker's of the version before, which kept one for all workers.
    return {} if held is None else held if isinstance(held, dict) else {"": float(held)}


def _latest(raws: list[str | None]) -> list[float]:
    """Until when each player's presence as stored holds (-inf: none); thousands of them
    parsed at once (one parse of them all costs several times less)."""
    held = loads(f"[{','.join(raw or 'null' for raw in raws)}]")
    return [max(_as_workers(one).values(), default=float("-inf")) for one in held]


def _seeks_down(board: Board, posted: dict[str, str | None]) -> list[Op]:
    """The writes that take down every seek of these players (player → their seek ids as
    stored, or None)."""
    ops: list[Op] = []
    for player, raw in posted.items():
        if raw is not None:
            ops += [("hdel", board.seeks, seek, "") for seek in json.loads(raw)]
            ops.append(("hdel", board.mine, player, ""))
    return ops


def _out_of_pool(board: Board, player: str, pool: str | None) -> list[Op]:
    if pool is None:
        return []
    return [("hdel", board.pool_key(pool), player, ""), ("hdel", board.where, player, "")]


def _taken_by(seek: Json, taker: Json) -> list[Json]:
    """The seek's takers with `taker` added; a refusal in one sentence if they may not."""
    if seek["player"] == taker["player"]:
        raise Conflict(Text("That seek is yours: wait for another player to join it."))
    if any(t["player"] == taker["player"] for t in seek["takers"]):
        raise Conflict(Text("You have joined that seek already: wait for its other seats."))
    low, high = seek.get("range") or (None, None)
    rating = round(taker["rating"])
    if low is not None and not low <= rating <= high:
        raise Forbidden(Text("That seek is for players rated {low} to {high}; yours is {rating}.",
                             low=low, high=high, rating=rating))
    return [*seek["takers"], taker]
