"""The club's sessions: the player of a session's secret, a guest made with their first
session, and the sessions opened and ended as players sign up, log in and out
(docs/web-protocol.md, "Accounts"); the web's `accounts.py` carries their secrets in the
session cookie.

The database keeps only a secret's SHA-256 (`sessions`), so neither a copy of the database
nor a log lets anyone in, and ending a session (log-out, a new password, a deleted account)
deletes its row: a copy of the secret is then worth nothing, and the sockets opened in it
are closed at once (`sign_outs.py`). Every log-in and sign-up opens a new session and ends
the one the browser had, so a secret planted in a browser beforehand never becomes an
account's (no session fixation).

Sessions found are kept here for `CACHE_SECONDS` (bounded), so a page's few requests and
its socket read the database once. A session this worker ends leaves the cache at once;
one ended by another worker of a cluster (or by `chuko accounts delete`) is honoured here
for at most those few seconds more.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections import OrderedDict
from typing import NamedTuple

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.club.sign_outs import SignOuts
from chuko.server.shared.limits import Buckets, Clock, Limits, TooMany
from chuko.server.shared.players import Player
from chuko.server.store import player_rows as rows
from chuko.server.store.database import Store
from chuko.server.store.schema import secret_hash

# A session unused this long is over: a guest's identity lasts 400 days (as long as a
# browser keeps a cookie) unless used again (each use renews it), an account's a month.
GUEST_AGE = 400 * 86400
ACCOUNT_AGE = 30 * 86400
CACHE_SECONDS = 3.0
CACHE_SIZE = 4096
RENEW = 86400.0  # seconds between two renewals of a session in use (its row and cookie)
SWEEP = 3600.0  # seconds between two sweeps of the sessions over (at a new guest's making)
TOO_MANY_GUESTS = Text("Too many new players from your address: wait a moment and try again.")


def new_player_id() -> str:
    return secrets.token_hex(16)


def guest_name() -> str:
    """A guest's name until they choose one: "Guest 4821"."""
    return f"Guest {1000 + secrets.randbelow(9000)}"


def lifetime(player: Player) -> int:
    """The seconds the player's session lasts unused."""
    return GUEST_AGE if player.is_guest else ACCOUNT_AGE


class Found(NamedTuple):
    """A session's player, and whether its use renewed it (so its cookie is sent again)."""

    player: Player
    renewed: bool


class Sessions:
    """The sessions on `store`; new guests per address within `limits`, measured on
    `clock`."""

    def __init__(self, store: Store, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.store, self.clock = store, clock
        self.guests = Buckets(limits.guests, clock)  # per address
        # id hash → (when read, its player), least recently used first.
        self._cache: OrderedDict[str, tuple[float, Player]] = OrderedDict()
        self._swept: float | None = None  # when sessions over were last deleted
        self.sign_outs = SignOuts()  # the sockets opened in a session, closed as it ends

    async def of_secret(self, secret: str) -> Found | None:
        """The player of the session whose secret is `secret`; None for no session, or one
        unused for longer than it lasts (then ended). Unavailable while the database is
        away."""
        id_hash = secret_hash(secret)
        now = self.clock()
        cached = self._cache.get(id_hash)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            self._cache.move_to_end(id_hash)
            return Found(cached[1], False)
        found = await self.store.fetch(rows.session_of(id_hash))
        if found is None:
            self._cache.pop(id_hash, None)
            return None
        player, seen = found.player, found.seen
        wall = time.time()
        renewed = False
        if wall - seen > lifetime(player):  # unused for longer than it lasts: over
            with contextlib.suppress(ChukoError):
                await self.store.submit(rows.end_session(id_hash))
            return None
        if wall - seen > RENEW:
            with contextlib.suppress(ChukoError):  # the renewal may wait for a later request
                await self.store.submit(rows.seen(id_hash, wall))
                renewed = True
        self._remember(id_hash, player)
        return Found(player, renewed)

    def _remember(self, id_hash: str, player: Player) -> None:
        self._cache[id_hash] = (self.clock(), player)
        self._cache.move_to_end(id_hash)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def forget(self, player_id: str | None = None, id_hash: str | None = None) -> None:
        """Drop a session (`id_hash`), or every session of a player, from the cache."""
        if id_hash is not None:
            self._cache.pop(id_hash, None)
        if player_id is not None:
            for key in [k for k, (_, p) in self._cache.items() if p.id == player_id]:
                del self._cache[key]

    async def new_guest(self, address: str) -> tuple[Player, str]:
        """A new guest from `address` and the secret of their first session; TooMany past
        the guests an address may make."""
        if not self.guests.take(address):
            raise TooMany(TOO_MANY_GUESTS)
        player = Player(new_player_id(), guest_name(), None)
        secret = secrets.token_urlsafe(32)
        id_hash = secret_hash(secret)
        wall = time.time()
        await self.store.submit(rows.new_guest(player, id_hash, wall))
        self._remember(id_hash, player)
        if self._swept is None or self.clock() - self._swept > SWEEP:
            # Sessions never presented again would pile up: those unused for longer than
            # any session lasts go, now and then, as guests come.
            self._swept = self.clock()
            with contextlib.suppress(ChukoError):
                await self.store.submit(rows.sweep(wall - GUEST_AGE))
        return player, secret

    async def open(self, player: Player, ending: str | None, *, others: bool = False) -> str:
        """A new session for `player` and its secret, ending the session `ending` (the id
        hash of the one the browser had, if any) and, with `others`, every other session
        of the player's, their sockets closed: the browser goes on in the new one."""
        secret = secrets.token_urlsafe(32)
        id_hash = secret_hash(secret)
        await self.store.submit(rows.open_session(player.id, id_hash, time.time(), ending,
                                                  others))
        self.forget(player.id if others else None, ending)
        if others:
            self.sign_outs.end(player.id, but=ending)
        if ending is not None:
            self.sign_outs.replaced(player.id, ending, id_hash)
        self._remember(id_hash, player)
        return secret

    async def end(self, id_hash: str, player: Player | None) -> None:
        """End the session `id_hash` (a log-out): its row deleted, and the sockets of its
        player (if it has one) opened in it closed."""
        await self.store.submit(rows.end_session(id_hash))
        self.forget(id_hash=id_hash)
        if player is not None:
            self.sign_outs.end(player.id, id_hash=id_hash)

    def deleted(self, player_id: str) -> None:
        """Forget a deleted account's sessions (their rows went with it), and close their
        sockets."""
        self.forget(player_id)
        self.sign_outs.end(player_id)

    def renamed(self, player: Player) -> None:
        """Keep the cache's copy of `player` up to date after a change of theirs."""
        for key, (read, cached) in list(self._cache.items()):
            if cached.id == player.id:
                self._cache[key] = (read, player)
