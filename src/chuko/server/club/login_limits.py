"""How often a password may be checked (docs/web-protocol.md, "Accounts"), so that guessing
is slow from one address and from many, without locking an account's owner out.

Each check counts against three buckets (`Limits.logins_*`):
- its address's, for guesses at many accounts from one place;
- its address's at the account, for guesses at one account from one place: the tight one;
- the account's, for guesses at it from everywhere: looser, and not counted for a browser
  the account is known to (`KnownBrowsers`), so guesses from elsewhere never shut its
  owner out of the browsers they use. From a browser it has never logged in from, the
  owner waits as a guesser would, only while the account is under a flood of guesses.

Counted in the cluster's Redis when there is one (`shared_buckets.py`), else by this worker.
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.types import Scope

from chuko.server.shared.limits import (
    Buckets,
    Clock,
    Limits,
    Shared,
    TooMany,
    refill_seconds,
    take_shared,
)
from chuko.server.web.cookies import DEVICE, DEVICE_AGE, cookie_value, set_cookie
from chuko.server.web.router import client_host

FROM_ADDRESS = "Too many log-in attempts from your address: wait a minute and try again."
AT_ACCOUNT = ("Too many log-in attempts for this account from your address: wait a minute "
              "and try again.")
FOR_ACCOUNT = "Too many log-in attempts for this account: wait a minute and try again."


class KnownBrowsers:
    """A browser's proof that an account logged in from it: the cookie `chuko_device`,
    an HMAC of the account's id keyed by its password's stored hash. Nothing is kept on the
    server, nobody without the hash can make one, and a new password makes every older
    proof worthless (the browser that set it gets a new one)."""

    @staticmethod
    def proof(player_id: str, stored: str) -> str:
        return hmac.new(stored.encode(), f"device {player_id}".encode(),
                        hashlib.sha256).hexdigest()

    def remember(self, scope: Scope, player_id: str, stored: str) -> None:
        """Queue the proof on the response to a check that succeeded."""
        set_cookie(scope, DEVICE, self.proof(player_id, stored), DEVICE_AGE)

    def knows(self, scope: Scope, player_id: str, stored: str) -> bool:
        given = cookie_value(scope, DEVICE)
        return given is not None and hmac.compare_digest(given,
                                                         self.proof(player_id, stored))


class LoginLimits:
    """The buckets of password checks, at `limits`'s rates on `clock`, or those the
    workers of a cluster `shared`."""

    def __init__(self, limits: Limits, clock: Clock, shared: Shared | None = None) -> None:
        self.shared = shared
        self.by_address = Buckets(limits.logins_per_address, clock)
        self.at_account = Buckets(limits.logins_per_address_and_account, clock)
        self.by_account = Buckets(limits.logins_per_account, clock)
        self.browsers = KnownBrowsers()

    async def admit(self, scope: Scope, key: str) -> None:
        """Count a check of the account `key` (a username's key) from the request's
        address; TooMany with a sentence over the address's or the pair's bucket."""
        address = client_host(scope)
        await self._take("login-address", address, self.by_address, FROM_ADDRESS)
        await self._take("login-pair", f"{address} {key}", self.at_account, AT_ACCOUNT)

    async def admit_at_account(self, scope: Scope, key: str,
                               found: tuple[str, str] | None) -> None:
        """Count a check against the account's own bucket, unless the request comes from a
        browser the account (`found`: its id and stored hash, None for no account) is known
        to, or unless `key` is empty (a name that cannot be one: no account's bucket);
        TooMany with a sentence over it."""
        if not key or (found is not None and self.browsers.knows(scope, *found)):
            return  # no name that could be an account's, or its owner's browser
        await self._take("login-account", key, self.by_account, FOR_ACCOUNT)

    async def _take(self, kind: str, key: str, local: Buckets, refused: str) -> None:
        if not await take_shared(self.shared, kind, key, local):
            raise TooMany(refused, refill_seconds(local.rate))
