"""Token buckets that every worker of a cluster shares, in its Redis (`SharedBuckets`): the
log-in limits (`club/login_limits.py`) count each password check once, whichever worker gets it,
so the 11th wrong password in a minute is refused on any of them.

A bucket is one small hash `{name}:bucket:{kind}:{key's digest}` ({tokens, stamp}) worked
out and written by one Lua script, as `limits.Bucket` does in memory, and expiring once it
would be full again. One round trip a check: log-ins are rare, and each costs an Argon2
hash anyway. While Redis cannot say, the caller counts on its own worker.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import Any

from redis.exceptions import RedisError

from chuko.server.shared.limits import Clock, Rate

log = logging.getLogger("chuko.server")

# KEYS[1] the bucket; ARGV: refill per second, burst, now (seconds). 1 if a token was taken.
_TAKE = """
local held = redis.call('hmget', KEYS[1], 't', 's')
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tokens = tonumber(held[1]) or burst
local stamp = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('hset', KEYS[1], 't', tostring(tokens), 's', tostring(now))
redis.call('pexpire', KEYS[1], ARGV[4])
return taken
"""


class SharedBuckets:
    """Buckets in `redis` under the cluster's `prefix`, on `clock` (seconds since the epoch:
    every worker's clock alike)."""

    def __init__(self, redis: Any, prefix: str, clock: Clock = time.time) -> None:
        self.redis, self.prefix, self.clock = redis, prefix, clock

    async def take(self, kind: str, key: str, rate: Rate) -> bool | None:
        """Take a token from the bucket of `key` for `kind` at `rate`: whether there was one;
        None when Redis cannot say."""
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]  # no name or address kept
        full_in = math.ceil(rate.burst / rate.per_second * 1000) + 1000
        try:
            taken = await self.redis.eval(  # type: ignore[misc]
                _TAKE, 1, f"{self.prefix}:bucket:{kind}:{digest}", rate.per_second,
                rate.burst, repr(self.clock()), full_in)
        except (RedisError, OSError) as error:
            log.warning("The shared limits cannot be counted in Redis: %s", error)
            return None
        return bool(taken)
