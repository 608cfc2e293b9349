"""Passwords, hashed with Argon2id (`argon2-cffi`, at the library's default parameters:
memory-hard, 64 MiB a hash and a time docs/performance.md measures) and checked in a pool
of their own, so a flood of log-ins waits there or is refused (503) rather than stalling moves.

A log-in for a name that has no account is checked against a dummy hash of the same
parameters, so it takes as long as a wrong password: the time of the answer does not say
which names exist. Passwords are never logged nor kept beyond the request.
"""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from chuko.server.shared.work import Pool

# At most this many hashes at once (each holds 64 MiB) and this many waiting for them.
HASHING, WAITING = 2, 16


class Passwords:
    """Hashing and checking passwords off the event loop."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self.pool = Pool(HASHING, WAITING)
        self._dummy: str | None = None  # made at the first check (a hash's time at start-up)

    async def hash(self, password: str) -> str:
        """The PHC string to store for `password`."""
        return await self.pool.run(self.hasher.hash, password)

    async def check(self, password: str, stored: str | None) -> bool:
        """Whether `password` matches the `stored` hash; with None (no such account), the
        dummy hash is checked all the same and the answer is False."""
        return await self.pool.run(self._check, password, stored)

    def _check(self, password: str, stored: str | None) -> bool:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        try:
            return self.hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    def outdated(self, stored: str) -> bool:
        """Whether a hash that just matched was made with other parameters than the
        hasher's (then it is made again, at log-in)."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return False

    def close(self) -> None:
        self.pool.close()
