"""How often a password may be checked (docs/web-protocol.md, "Accounts"), so that guessing
is slow from one address and from many, without locking an account's owner out.

Each check counts against three buckets (`Limits.logins_*`):
- its address's, for guesses at many accounts from one place;
- its address's at the account, for guesses at one account from one place: the tight one;
- the account's, for guesses at it from everywhere: looser, and not counted for a browser
  the account is known to (one that carries its `device_proof`), so guesses from elsewhere
  never shut its owner out of the browsers they use. From a browser it has never logged in from, the
  owner waits as a guesser would, only while the account is under a flood of guesses.

Counted in the cluster's Redis when there is one (`shared_buckets.py`), else by this worker.
"""

from __future__ import annotations

import hashlib
import hmac

from chuko.core.text import Text
from chuko.server.shared.limits import (
    Buckets,
    Clock,
    Limits,
    Shared,
    TooMany,
    refill_seconds,
    take_shared,
)

FROM_ADDRESS = Text("Too many log-in attempts from your address: wait a minute and try again.")
AT_ACCOUNT = Text("Too many log-in attempts for this account from your address: wait a minute "
                  "and try again.")
FOR_ACCOUNT = Text("Too many log-in attempts for this account: wait a minute and try again.")


def device_proof(player_id: str, stored: str) -> str:
    """A browser's proof that an account logged in from it (the web keeps it in a cookie):
    an HMAC of the account's id keyed by its password's stored hash. Nothing is kept on the
    server, nobody without the hash can make one, and a new password makes every older
    proof worthless (the browser that set it gets a new one)."""
    return hmac.new(stored.encode(), f"device {player_id}".encode(),
                    hashlib.sha256).hexdigest()


def proves(given: str | None, player_id: str, stored: str) -> bool:
    """Whether `given` (a browser's proof, if any) is the account's."""
    return given is not None and hmac.compare_digest(given, device_proof(player_id, stored))


class LoginLimits:
    """The buckets of password checks, at `limits`'s rates on `clock`, or those the
    workers of a cluster `shared`."""

    def __init__(self, limits: Limits, clock: Clock, shared: Shared | None = None) -> None:
        self.shared = shared
        self.by_address = Buckets(limits.logins_per_address, clock)
        self.at_account = Buckets(limits.logins_per_address_and_account, clock)
        self.by_account = Buckets(limits.logins_per_account, clock)

    async def admit(self, address: str, key: str) -> None:
        """Count a check of the account `key` (a username's key) from `address`; TooMany
        with a sentence over the address's or the pair's bucket."""
        await self._take("login-address", address, self.by_address, FROM_ADDRESS)
        await self._take("login-pair", f"{address} {key}", self.at_account, AT_ACCOUNT)

    async def admit_at_account(self, key: str, known: bool) -> None:
        """Count a check against the account's own bucket, unless the request comes from a
        browser the account is `known` to, or unless `key` is empty (a name that cannot be
        one: no account's bucket); TooMany with a sentence over it."""
        if not key or known:
            return  # no name that could be an account's, or its owner's browser
        await self._take("login-account", key, self.by_account, FOR_ACCOUNT)

    async def _take(self, kind: str, key: str, local: Buckets, refused: str) -> None:
        if not await take_shared(self.shared, kind, key, local):
            raise TooMany(refused, refill_seconds(local.rate))
