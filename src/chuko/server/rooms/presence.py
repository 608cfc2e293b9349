"""Who is at which table, across the workers of a cluster (docs/deploy.md): so that a player
who left counts as gone whichever worker held their sockets, and one connected to another
worker does not.

- **What each worker shares.** For each room where it holds a seat's socket, the number of
  sockets of each of the room's people (-1 for a seat nobody needs there: a bot, a seat not
  taken yet, a room over, or one on a correspondence clock), as a field of its hash
  `{name}:presence:{worker}`. Changes are gathered and written every `FLUSH` seconds in one
  round trip, with one message on `{name}:presence` naming the rooms that changed. The hash
  lives as long as the worker's heartbeat (`{name}:worker:{worker}`): a worker killed stops
  counting within `lease_seconds`.
- **Who decides.** The lease holder, which runs the timers, keeps every other worker's
  counts (`view`) from those messages, read whole when it takes the lease or its listening
  is cut, and drops a worker's once its heartbeat has lapsed. A person's seat is away when
  no worker holds a socket of it; the holder notes since when (`Room.away`), holding the
  room for its timer, and ends the grace as one worker would (`timer.py`).
- **Who else needs it.** A player may claim a game on any worker, so every worker holding
  the room learns its absences from the holder: a message `away` on the room's channel,
  and the key `{name}:away:{room}` for a worker that loads the room later.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any, Protocol

from redis.exceptions import RedisError

from chuko.server.rooms.clocks import realtime

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from chuko.server.rooms.hub import Hub
    from chuko.server.rooms.room import Room


class Cluster(Protocol):
    """What presence asks of this worker's part in the cluster (`cluster.Cluster`), named
    here because the cluster is built on presence."""

    hub: Hub
    redis: aioredis.Redis
    name: str  # the prefix of the cluster's keys and channels
    me: str  # this worker's id
    leader: bool  # this worker runs the timers
    lease_ms: int

    def adopt(self, room_id: str) -> None: ...

    def publish_away(self, room: Room) -> None: ...

log = logging.getLogger("chuko.server")

FLUSH = 0.25  # seconds between two writes of this worker's changes
CHUNK = 256  # rooms named in one message at most
AWAY_KEEP = 86_400  # seconds a room's shared absences are kept, at most


def counts(room: Room) -> list[int]:
    """This worker's sockets on each person's seat of `room` (waiting or in play: a room
    that starts is not a change of its sockets); -1 where none count."""
    timed = room.status in ("waiting", "playing") and realtime(
        None if room.clocks is None else room.clocks.control)
    return [s.connections if timed and s.kind == "human" and s.joined else -1
            for s in room.seats]


class Presence:
    """This worker's part in sharing presence, in `cluster`."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster, self.hub, self.redis = cluster, cluster.hub, cluster.redis
        name, self.me = cluster.name, cluster.me
        self.name = name
        self.key = f"{name}:presence:{self.me}"
        self.workers_key = f"{name}:workers"
        self.channel = f"{name}:presence"
        self._dirty: dict[str, Room] = {}  # rooms whose sockets here changed, to write
        self._told: dict[str, Room] = {}  # rooms whose absences changed, to keep (holder)
        self.view: dict[str, dict[str, list[int]]] = {}  # room → other worker → counts

    # -- every worker -----------------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """A seat of `room` gained its first socket here or lost its last."""
        self._dirty[room.id] = room
        if self.cluster.leader:
            self.judge(room.id, room)

    async def run(self) -> None:
        """Write the changes every `FLUSH` seconds, while the worker runs."""
        while True:
            await asyncio.sleep(FLUSH)
            if self._dirty or self._told:
                try:
                    await self.flush()
                except (RedisError, OSError) as error:
                    log.warning("Could not share the seats' presence: %s", error)
                    await asyncio.sleep(1)  # tried again, without a warning a flush

    async def flush(self) -> None:
        """Write and announce the rooms changed since the last time (they are written again
        if it fails)."""
        rooms, self._dirty = self._dirty, {}
        told, self._told = self._told, {}
        try:
            now = {room_id: counts(room) for room_id, room in rooms.items()}
            items = list(now.items())
            async with self.redis.pipeline(transaction=False) as pipe:
                for room_id, room in told.items():
                    away = {str(seat): since for seat, since in room.away.items()}
                    if away:
                        pipe.set(f"{self.name}:away:{room_id}", json.dumps(away),
                                 ex=AWAY_KEEP)
                    else:
                        pipe.delete(f"{self.name}:away:{room_id}")
                for start in range(0, len(items), CHUNK):
                    part = dict(items[start:start + CHUNK])
                    for room_id, held in part.items():
                        if max(held, default=-1) > 0:
                            pipe.hset(self.key, room_id, json.dumps(held))
                        else:
                            pipe.hdel(self.key, room_id)
                    pipe.publish(self.channel, json.dumps({"worker": self.me, "rooms": part}))
                pipe.pexpire(self.key, self.cluster.lease_ms)
                await pipe.execute()
        except BaseException:
            self._dirty, self._told = {**rooms, **self._dirty}, {**told, **self._told}
            raise

    def beat(self, pipe: Any) -> None:
        """The heartbeat's part (in the cluster's pipeline): this worker's counts live on."""
        pipe.sadd(self.workers_key, self.me)
        pipe.pexpire(self.key, self.cluster.lease_ms)

    # -- the lease holder -------------------------------------------------------------------

    def heard(self, message: dict[str, Any]) -> None:
        """Another worker's changes (only the lease holder keeps them)."""
        worker, rooms = message.get("worker"), message.get("rooms")
        if worker == self.me or not self.cluster.leader or not isinstance(rooms, dict):
            return
        for room_id, held in rooms.items():
            self._note(str(room_id), str(worker), held)
            self.judge(str(room_id))

    def _note(self, room_id: str, worker: str, held: Any) -> None:
        by_worker = self.view.setdefault(room_id, {})
        if isinstance(held, list) and max(held, default=-1) >= 0:
            by_worker[worker] = [int(n) for n in held]
        else:
            by_worker.pop(worker, None)
        if not by_worker:
            self.view.pop(room_id, None)

    async def sync(self) -> None:
        """Read every live worker's counts whole (on taking the lease, or after the bus was
        cut), forgetting the workers whose heartbeat lapsed; then judge every room."""
        workers = [w.decode() if isinstance(w, bytes) else str(w)
                   for w in await self.redis.smembers(self.workers_key) if w]
        others = [w for w in workers if w != self.me]
        live = await self._live(others)
        async with self.redis.pipeline(transaction=False) as pipe:
            for worker in live:
                pipe.hgetall(f"{self.name}:presence:{worker}")
            held = await pipe.execute()
        self.view = {}
        for worker, fields in zip(live, held, strict=True):
            for room_id, text in fields.items():
                self._note(_text(room_id), worker, json.loads(text))
        for room_id in {*self.view, *self.hub.rooms}:
            self.judge(room_id)

    async def reap(self) -> None:
        """Forget the workers whose heartbeat lapsed (each second, on the lease holder)."""
        workers = {w for by_worker in self.view.values() for w in by_worker}
        if not workers:
            return
        live = set(await self._live(sorted(workers)))
        for room_id in [r for r, by_worker in self.view.items() if set(by_worker) - live]:
            for worker in set(self.view[room_id]) - live:
                self._note(room_id, worker, None)
            self.judge(room_id)

    async def _live(self, workers: list[str]) -> list[str]:
        """Those of `workers` whose heartbeat has not lapsed; the others leave the set."""
        if not workers:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for worker in workers:
                pipe.exists(f"{self.name}:worker:{worker}")
            found = await pipe.execute()
        dead = [w for w, there in zip(workers, found, strict=True) if not there]
        if dead:
            await self.redis.srem(self.workers_key, *dead)
        return [w for w, there in zip(workers, found, strict=True) if there]

    def connected(self, room: Room, seat: int) -> bool:
        """Whether any worker holds a socket of the seat."""
        return room.seats[seat].connections > 0 or any(
            len(held) > seat and held[seat] > 0
            for held in self.view.get(room.id, {}).values())

    def judge(self, room_id: str, room: Room | None = None) -> None:
        """The lease holder works out who is away from `room_id` (`room`, when it is being
        loaded; loading it when a seat of it is away, so its timer runs); when that changed,
        every worker is told."""
        room = room or self.hub.rooms.get(room_id)
        if room is None:
            if any(_absent(self.view.get(room_id, {}))):
                self.cluster.adopt(room_id)
            return
        now = self.hub.clock()
        away = {seat: room.away.get(seat, now) for seat, n in enumerate(counts(room))
                if n >= 0 and not self.connected(room, seat)}
        if away != room.away:
            room.away = away
            self.hub.schedule(room)
            self.tell(room)

    def tell(self, room: Room) -> None:
        """Share `room`'s absences with the other workers: now, and kept for a worker that
        loads the room later (with the next write of the changes)."""
        self.cluster.publish_away(room)
        self._told[room.id] = room

    async def read_away(self, room: Room) -> None:
        """A room loaded by a worker that does not decide: its absences as shared."""
        with contextlib.suppress(RedisError, OSError):
            text = await self.redis.get(f"{self.name}:away:{room.id}")
            if text and not self.cluster.leader:
                apply_away(room, json.loads(text))


def apply_away(room: Room, away: Any) -> None:
    """Take the lease holder's absences for `room` and show them (a claim may be possible
    now)."""
    if not isinstance(away, dict):
        return
    room.away = {int(seat): float(since) for seat, since in away.items()
                 if str(seat).isdigit() and int(seat) < len(room.seats)}
    room.broadcast()


def _absent(by_worker: dict[str, list[int]]) -> list[int]:
    """The people's seats no worker holds a socket of, as the counts say."""
    if not by_worker:
        return []
    width = min(len(held) for held in by_worker.values())
    return [seat for seat in range(width)
            if all(held[seat] == 0 for held in by_worker.values())]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
