"""Several workers serving the same rooms (docs/deploy.md): they share one PostgreSQL database,
which decides every move, and one Redis, which tells them what changed and which of them runs
the bots and timers.

- **The bus.** Each committed change to a room (a move, a seat taken, a rematch linked, an
  expiry) is heard on the app's event bus (`RoomChanged`, `shared/bus.py`) and published on the
  room's channel `{name}:room:{id}` as `{"worker", "kind", "version", "reload", "bots"}`. Every
  worker listens to all rooms' channels (one pattern subscription) and acts only for the rooms
  it holds in memory: it reads the moves it lacks (`Store.moves(room, after=version)`), plays
  them through the engine one by one and sends each version to its own sockets, as if it had
  accepted them itself (`Hub.catch_up`). Its header is read again when `reload` says so. The
  message carries no move: the database is the one truth, and a message lost while Redis was
  away is made up for by catching up every room held when the bus is back.
- **One writer per move.** The store's version-checked append lets one of two workers that
  accept a move for the same version commit it; the other gets `Conflict`, catches up, and
  checks the move again against the new state (`Hub.play`): accepted if it still holds (seats
  that move at once), refused with the engine's sentence otherwise (the same move sent twice).
- **The lease.** One worker at a time runs the bots and the timers (the sweep for expired
  rooms; the round pauses, which only hold bots back): the one holding `{name}:lease` in Redis
  (`SET NX PX`, renewed every third of its time by compare-and-set). On taking it, a worker
  rebuilds the rooms in play with bots (`Hub.restore`); a room that later needs its bots is
  announced with `bots` true, and the holder loads it. When the holder dies its lease runs out
  and another worker takes it within `lease_seconds` and a third; a holder that cannot renew
  stops its bots before its lease can have run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from chuko.core.errors import ChukoError, ConfigError
from chuko.server.cluster.shared_buckets import SharedBuckets
from chuko.server.cluster.unheld import Unheld
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.presence import Presence, apply_away
from chuko.server.rooms.quick_messages import PHRASES, tell
from chuko.server.rooms.room import Room
from chuko.server.shared.bus import RoomChanged
from chuko.server.store.writer import Unavailable

log = logging.getLogger("chuko.server")

NAME = "chuko-server"  # the default prefix of the cluster's keys and channels in Redis
LEASE_SECONDS = 3.0  # how long a dead worker's lease keeps the bots waiting, at most
CATCH_UP_AGAIN = 0.5  # seconds before a catch-up the database refused is tried again
STOP_STEP = 2.0  # seconds each step of a stop may take
# Compare-and-set on the lease: only its holder renews or releases it.
_RENEW = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
          "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end")
_RELEASE = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end")


def connect(url: str) -> aioredis.Redis:
    """An asyncio Redis client for `redis://host:port/db` (or `rediss://`, `unix://`)."""
    try:
        return aioredis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5,
                                       health_check_interval=10)
    except ValueError:
        raise ConfigError(f"{url!r} is not a Redis URL: use redis://host:6379/0.") from None


class Cluster:
    """This worker's part in a cluster: its bus, its lease, and catching rooms up."""

    def __init__(self, hub: Hub, url: str, *, name: str = NAME,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.hub = hub
        self.redis = connect(url)
        self.name = name
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_key = f"{name}:lease"
        self.alive_key = f"{name}:worker:{self.me}"  # this worker's heartbeat
        self.lease_ms = max(300, int(lease_seconds * 1000))
        self.leader = False  # holds the lease: runs the bots and timers
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._pending: dict[str, tuple[int, bool]] = {}  # room → (version wanted, reload)
        self.unheld = Unheld(lambda: hub.store.reader.timeout + 1.0)
        self._tasks: set[asyncio.Task] = set()
        self._loops: list[asyncio.Task] = []
        self._adopting: set[str] = set()  # rooms the lease holder is loading
        self.presence = Presence(self)  # who is at which table, on every worker
        self.buckets = SharedBuckets(self.redis, name)  # limits every worker counts alike
        # Sessions ended on a worker, whose sockets every worker closes (`sign_outs.py`).
        self.signed_out = f"{name}:signed-out"
        self.on_signed_out: Callable[[dict[str, Any]], None] | None = None
        hub.bus.subscribe(RoomChanged, self.relay)

    def channel(self, room_id: str) -> str:
        return f"{self.name}:room:{room_id}"

    # -- lifecycle --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen to the rooms' channels first (so nothing published after a room is loaded
        is missed), then publish and contend for the lease."""
        subscribed = asyncio.Event()
        self._loops = [asyncio.create_task(self._listen(subscribed)),
                       asyncio.create_task(self._publish()),
                       asyncio.create_task(self.presence.run())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(subscribed.wait(), 10)
        self._loops.append(asyncio.create_task(self._hold_lease()))

    async def stop(self) -> None:
        """Publish what is queued, hand the lease back at once, stop listening: each step
        within STOP_STEP seconds, so a Redis call that never answers cannot hold the stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), STOP_STEP)
        leader, self.leader = self.leader, False
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            if leader:
                await asyncio.wait_for(self.redis.eval(  # type: ignore[misc]
                    _RELEASE, 1, self.lease_key, self.me), STOP_STEP)
        tasks = [*self._loops, *self._tasks]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=STOP_STEP)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self.redis.delete(self.alive_key), STOP_STEP)
            await asyncio.wait_for(self.redis.aclose(), STOP_STEP)

    async def _drain(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the bus ------------------------------------------------------------------------------

    def relay(self, changed: RoomChanged) -> None:
        """Pass a room's change, heard on this worker's event bus, on to the other workers."""
        message = json.dumps({"worker": self.me, "kind": changed.kind,
                              "version": changed.version, "reload": changed.reload,
                              "bots": changed.bots})
        self._outbox.put_nowait((self.channel(changed.room_id), message))

    def publish_said(self, room_id: str, seat: int, phrase: str) -> None:
        """Pass a quick message on to the room's sockets on the other workers."""
        message = json.dumps({"worker": self.me, "kind": "said", "seat": seat,
                              "phrase": phrase})
        self._outbox.put_nowait((self.channel(room_id), message))

    def publish_away(self, room: Room) -> None:
        """Tell the other workers the room's absences, as the lease holder decided them."""
        message = json.dumps({"worker": self.me, "kind": "away", "version": room.version,
                              "away": {str(seat): since for seat, since in room.away.items()}})
        self._outbox.put_nowait((self.channel(room.id), message))

    def publish_signed_out(self, event: dict[str, Any]) -> None:
        """Tell the other workers that sessions ended (`SignOuts.end`)."""
        self._outbox.put_nowait((self.signed_out, json.dumps({"worker": self.me, **event})))

    async def _publish(self) -> None:
        """Send the outbox in order, whatever has piled up in one round trip."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, message in batch:
                        pipe.publish(channel, message)
                    await pipe.execute()
            except (RedisError, OSError) as error:
                # The moves are stored; the other workers catch up when the bus is back.
                log.warning("Could not publish %d room event(s) to Redis: %s", len(batch),
                            error)

    async def _listen(self, subscribed: asyncio.Event) -> None:
        prefix = len(self.channel(""))
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(self.channel("*"))
                await pubsub.subscribe(self.presence.channel, self.signed_out)
                subscribed.set()
                if not first:  # messages may have been lost meanwhile
                    for room in list(self.hub.rooms.values()):
                        self._refresh(room, 0, reload=True)
                    if self.leader:
                        self.spawn(self._sync())
                first = False
                async for message in pubsub.listen():
                    self._heard(message, prefix)
            except (RedisError, OSError) as error:
                log.warning("Lost the Redis bus (%s); listening again in a second.", error)
                await asyncio.sleep(1)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    def _heard(self, message: dict[str, Any], prefix: int) -> None:
        """One message from the bus. One that cannot be handled is logged and passed over:
        were it to end the listener, this worker would hear nothing more of other workers."""
        try:
            if message["type"] == "pmessage":
                self._on_event(message["channel"].decode()[prefix:],
                               json.loads(message["data"]))
            elif message["type"] == "message":
                self._on_message(message["channel"].decode(), json.loads(message["data"]))
        except Exception:
            log.exception("A message of the cluster's bus could not be handled: %r",
                          message.get("data"))

    def _on_message(self, channel: str, event: dict[str, Any]) -> None:
        """A message on one of the cluster's own channels (not a room's)."""
        if channel != self.signed_out:
            self.presence.heard(event)
        elif event.get("worker") != self.me and self.on_signed_out is not None:
            self.on_signed_out(event)

    def _on_event(self, room_id: str, event: dict[str, Any]) -> None:
        if event.get("worker") == self.me:
            return
        version = int(event.get("version", 0))
        room = self.hub.rooms.get(room_id)
        if room is None:
            self.unheld.heard(room_id, event)
            if self.leader and event.get("bots") and event.get("kind") != "said":
                self.spawn(self._adopt(room_id))
            return
        kind = event.get("kind")
        if kind == "said":
            tell_said(room, event)
            return
        if kind == "away":
            if not self.leader:
                apply_away(room, event.get("away"))
            return
        if kind in ("next", "state"):
            pause = room.pause
            if pause is not None and pause.version == version:
                pause.over.set()
                if kind == "state":
                    room.pause = None
                    room.broadcast()
            return
        keep = (room.clients or room.lock.locked()
                or (self.leader and (any(s.kind == "bot" for s in room.seats) or room.away
                                     or self.hub.deadlines.has_deadline(room.id))))
        if not keep:
            # Nobody here needs it: forgotten rather than kept up to date, read again when
            # asked for.
            self.hub.rooms.pop(room_id, None)
            return
        self._refresh(room, version, bool(event.get("reload")))

    async def _adopt(self, room_id: str) -> None:
        """The lease holder takes up a room whose bots must move (loading it starts them),
        or whose clocks run, or a seat of which is away."""
        try:
            await self.hub.room(room_id)
        except ChukoError as error:
            log.error("Room %s cannot be loaded for its timers: %s", room_id, error)
        finally:
            self._adopting.discard(room_id)

    def adopt(self, room_id: str) -> None:
        """Load a room for its timers (once at a time)."""
        if self.leader and room_id not in self._adopting and room_id not in self.hub.rooms:
            self._adopting.add(room_id)
            self.spawn(self._adopt(room_id))

    # -- presence -----------------------------------------------------------------------------

    def attend(self, room: Room) -> None:
        """A room comes into memory (caught up on what changed as it was read: `unheld.py`):
        its sockets here are shared; the lease holder works out its absences, any other
        worker reads them as shared."""
        self.unheld.catch_up(room, self._refresh)
        if self.leader:
            self.presence.judge(room.id, room)
        else:
            self.spawn(self.presence.read_away(room))

    def judge(self, room: Room) -> None:
        """The lease holder works out `room`'s absences again."""
        self.presence.judge(room.id, room)

    async def _sync(self) -> None:
        try:
            await self.presence.sync()
        except (RedisError, OSError) as error:
            log.warning("Could not read the workers' presence: %s", error)

    def _refresh(self, room: Room, version: int, reload: bool) -> None:
        """Catch `room` up to `version` (and read its header again when `reload`), once at
        a time per room: events arriving meanwhile fold into the next round."""
        wanted, again = self._pending.get(room.id, (0, False))
        running = room.id in self._pending
        self._pending[room.id] = (max(wanted, version), again or reload)
        if not running:
            self.spawn(self._refreshing(room))

    async def _refreshing(self, room: Room) -> None:
        try:
            while True:
                wanted, reload = self._pending[room.id]
                self._pending[room.id] = (0, False)
                if reload or room.version < wanted:
                    try:
                        async with room.lock:
                            await self.hub.catch_up(room, reload)
                    except Unavailable:
                        # The database cannot be read just now: again in a moment, or this
                        # worker's sockets would stay behind the room until its next move.
                        later, again = self._pending[room.id]
                        self._pending[room.id] = (max(wanted, later), reload or again)
                        await asyncio.sleep(CATCH_UP_AGAIN)
                        if self.hub.rooms.get(room.id) is not room:
                            return
                        continue
                    self.hub.kick(room)
                if self._pending[room.id] == (0, False):
                    return
        except Exception:
            log.exception("Room %s could not catch up; it is read again when asked for.",
                          room.id)
            if self.hub.rooms.get(room.id) is room and not room.clients:
                self.hub.rooms.pop(room.id, None)
        finally:
            self._pending.pop(room.id, None)

    # -- the lease ----------------------------------------------------------------------------

    async def alive(self, worker: str) -> bool:
        """Whether `worker` (a `me`) still runs: its heartbeat has not lapsed (and, while
        Redis cannot say, yes)."""
        if worker == self.me:
            return True
        try:
            return bool(await self.redis.exists(f"{self.name}:worker:{worker}"))
        except (RedisError, OSError):
            return True

    async def _hold_lease(self) -> None:
        every = self.lease_ms / 3000
        renewed = 0.0
        while True:
            try:
                # The heartbeat: lapses `lease_seconds` after this worker stops, and this
                # worker's sockets stop counting with it.
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.set(self.alive_key, "1", px=self.lease_ms)
                    self.presence.beat(pipe)
                    await pipe.execute()
                if self.leader:
                    held = await self.redis.eval(  # type: ignore[misc]
                        _RENEW, 1, self.lease_key, self.me, self.lease_ms)
                else:
                    held = await self.redis.set(self.lease_key, self.me, nx=True,
                                                px=self.lease_ms)
                if held:
                    renewed = time.monotonic()
                    if not self.leader:
                        self.leader = True
                        log.info("This worker (%s) runs the bots and timers now.", self.me)
                        await self.hub.lead()
                        self.spawn(self._sync())
                    else:
                        await self.presence.reap()
                elif self.leader:
                    self._step_down("another worker holds the lease")
            except (RedisError, OSError) as error:
                log.warning("Could not reach Redis for the lease: %s", error)
            # Stop before the lease can have run out, so two workers never run bots at once.
            if self.leader and time.monotonic() - renewed > self.lease_ms / 1000 * 0.8:
                self._step_down("its lease could not be renewed")
            await asyncio.sleep(every)

    def _step_down(self, why: str) -> None:
        self.leader = False
        self.presence.view.clear()
        log.warning("This worker (%s) stops running bots and timers: %s.", self.me, why)
        self.hub.step_down()


def tell_said(room: Room, event: dict[str, Any]) -> None:
    """A quick message said on another worker, to this worker's sockets on the room."""
    seat, phrase = event.get("seat"), event.get("phrase")
    if isinstance(seat, int) and 0 <= seat < len(room.seats) and phrase in PHRASES:
        tell(room, seat, str(phrase))
