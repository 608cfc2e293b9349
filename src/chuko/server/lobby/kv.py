"""Where the lobby keeps its pools and seeks: a few hashes of JSON text, in this worker's
memory (`MemoryKv`) or, for a cluster of workers, in Redis under the cluster's prefix
(`RedisKv`). The lobby's logic (`board.py`) is written once over this small interface.

Every change is a `commit(checks, ops)`: it applies its writes only if each hash field
checked still holds the text read before (compare-and-set), all at once. In Redis that is
one Lua script, so a worker killed at any moment leaves either the whole change or none of
it: a pool entry is never gone without the pairing that took it being recorded. A commit
that finds a field changed writes nothing and returns False; the caller reads again.
`commit_each(groups)` is many such changes at once (a wave's pairings): each group applies
or not on its own checks, in one round trip.

Messages for one player (`tell`) reach that player's lobby sockets on whichever worker
holds them: directly in memory, over the channel `{prefix}:lobby:tell` in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from redis.exceptions import RedisError

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.shared.messages import wire_dumps, wire_loads

log = logging.getLogger("chuko.server")

# (hash, field, the text it must hold, or None: absent)
Check = tuple[str, str, str | None]
# ("hset", hash, field, text) | ("hdel", hash, field, "") | ("setex", key, seconds, text)
Op = tuple[str, str, Any, str]
Group = tuple[list[Check], list[Op]]  # one change of many committed at once
Deliver = Callable[[str, dict[str, Any]], None]


class LobbyAway(ChukoError):
    """The lobby's shared store cannot be reached."""

    def __init__(self) -> None:
        super().__init__(Text("The lobby cannot be reached right now: try again in a moment."))


class Kv(Protocol):
    """The store's operations, each on text values."""

    async def hget(self, key: str, field: str) -> str | None: ...
    async def hmget(self, key: str, fields: list[str]) -> list[str | None]: ...
    async def hgetall(self, key: str) -> dict[str, str]: ...
    async def hlens(self, keys: list[str]) -> list[int]: ...
    async def get(self, key: str) -> str | None: ...
    async def commit(self, checks: list[Check], ops: list[Op]) -> bool: ...
    async def commit_each(self, groups: list[tuple[list[Check], list[Op]]]) -> list[bool]: ...
    def tell(self, player: str, message: dict[str, Any]) -> None: ...
    async def start(self, deliver: Deliver) -> None: ...
    async def stop(self) -> None: ...


class MemoryKv:
    """The store in this worker's memory: every call is atomic, since nothing awaits."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.hashes: dict[str, dict[str, str]] = {}
        self.strings: dict[str, tuple[str, float]] = {}  # key → (value, expiry)
        self.deliver: Deliver | None = None

    async def hget(self, key: str, field: str) -> str | None:
        return self.hashes.get(key, {}).get(field)

    async def hmget(self, key: str, fields: list[str]) -> list[str | None]:
        held = self.hashes.get(key, {})
        return [held.get(field) for field in fields]

    async def hgetall(self, key: str) -> dict[str, str]:
        return dict(self.hashes.get(key, {}))

    async def hlens(self, keys: list[str]) -> list[int]:
        return [len(self.hashes.get(key, {})) for key in keys]

    async def get(self, key: str) -> str | None:
        value, until = self.strings.get(key, ("", 0.0))
        if until <= self.clock():
            self.strings.pop(key, None)
            return None
        return value

    async def commit(self, checks: list[Check], ops: list[Op]) -> bool:
        return self._commit(checks, ops)

    async def commit_each(self, groups: list[tuple[list[Check], list[Op]]]) -> list[bool]:
        return [self._commit(checks, ops) for checks, ops in groups]

    def _commit(self, checks: list[Check], ops: list[Op]) -> bool:
        hashes = self.hashes
        none: dict[str, str] = {}  # one empty hash for every absent key: no dict made each
        for key, field, held in checks:
            if hashes.get(key, none).get(field) != held:
                return False
        for op, key, field, value in ops:
            if op == "hset":
                hashes.setdefault(key, {})[field] = value
            elif op == "hdel":
                fields = hashes.get(key, {})
                fields.pop(field, None)
                if not fields:
                    hashes.pop(key, None)
            else:
                self.strings[key] = (value, self.clock() + float(field))
        return True

    def tell(self, player: str, message: dict[str, Any]) -> None:
        if self.deliver is not None:
            self.deliver(player, message)

    async def start(self, deliver: Deliver) -> None:
        self.deliver = deliver

    async def stop(self) -> None:
        self.deliver = None


# The commits in Redis, in one script (atomic): for each group of (checks, writes), every
# check, then every write if they all held; 1 or 0 for each group.
_COMMIT_EACH = """
local done = {}
for i, t in ipairs(cjson.decode(ARGV[1])) do
  local held = 1
  for _, c in ipairs(t[1]) do
    local v = redis.call('hget', c[1], c[2])
    if (c[3] == cjson.null and v) or (c[3] ~= cjson.null and v ~= c[3]) then
      held = 0
      break
    end
  end
  if held == 1 then
    for _, o in ipairs(t[2]) do
      if o[1] == 'hset' then redis.call('hset', o[2], o[3], o[4])
      elseif o[1] == 'hdel' then redis.call('hdel', o[2], o[3])
      else redis.call('set', o[2], o[4], 'EX', math.max(1, math.floor(o[3]))) end
    end
  end
  done[i] = held
end
return done
"""


class RedisKv:
    """The store in Redis, shared by the cluster's workers (`redis` is the cluster's
    client, `prefix` its name); its messages for players go over `{prefix}:{topic}:tell`
    (the players' own channel, `notify/channel.py`, has a topic of its own)."""

    def __init__(self, redis: Any, prefix: str, topic: str = "lobby") -> None:
        self.redis = redis
        self.channel = f"{prefix}:{topic}:tell"
        self._listener: asyncio.Task | None = None
        self._outbox: set[asyncio.Task] = set()

    async def _call(self, method: str, *args: Any) -> Any:
        try:
            return await getattr(self.redis, method)(*args)
        except (RedisError, OSError) as error:
            log.warning("The lobby could not reach Redis: %s", error)
            raise LobbyAway() from None

    async def hget(self, key: str, field: str) -> str | None:
        return _text(await self._call("hget", key, field))

    async def hmget(self, key: str, fields: list[str]) -> list[str | None]:
        if not fields:
            return []
        return [_text(value) for value in await self._call("hmget", key, fields)]

    async def hgetall(self, key: str) -> dict[str, str]:
        held = await self._call("hgetall", key)
        return {_text(k) or "": _text(v) or "" for k, v in held.items()}

    async def hlens(self, keys: list[str]) -> list[int]:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.hlen(key)
                return [int(n) for n in await pipe.execute()]
        except (RedisError, OSError) as error:
            log.warning("The lobby could not reach Redis: %s", error)
            raise LobbyAway() from None

    async def get(self, key: str) -> str | None:
        return _text(await self._call("get", key))

    async def commit(self, checks: list[Check], ops: list[Op]) -> bool:
        return (await self.commit_each([(checks, ops)]))[0]

    async def commit_each(self, groups: list[tuple[list[Check], list[Op]]]) -> list[bool]:
        if not groups:
            return []
        script = json.dumps([[checks, ops] for checks, ops in groups])
        return [bool(held) for held in await self._call("eval", _COMMIT_EACH, 0, script)]

    def tell(self, player: str, message: dict[str, Any]) -> None:
        text = wire_dumps({"player": player, "message": message})  # its Texts kept
        task = asyncio.get_running_loop().create_task(self._publish(text))
        self._outbox.add(task)
        task.add_done_callback(self._outbox.discard)

    async def _publish(self, text: str) -> None:
        with contextlib.suppress(LobbyAway):
            await self._call("publish", self.channel, text)

    async def start(self, deliver: Deliver) -> None:
        subscribed = asyncio.Event()
        self._listener = asyncio.create_task(self._listen(deliver, subscribed))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(subscribed.wait(), 10)

    async def _listen(self, deliver: Deliver, subscribed: asyncio.Event) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                subscribed.set()
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        told = wire_loads(message["data"])
                        deliver(str(told["player"]), told["message"])
            except (RedisError, OSError) as error:
                log.warning("Lost the lobby's Redis channel (%s); listening again.", error)
                await asyncio.sleep(1)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    async def stop(self) -> None:
        for task in [*self._outbox, *([self._listener] if self._listener else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
