"""Who a request is (`Accounts.player`): the player of its session cookie, a guest made on
the spot when a request needs one, and the sessions opened and ended as players sign up,
log in and out (docs/web-protocol.md, "Accounts").

The cookie holds a random secret; the database keeps only its SHA-256 (`sessions`), so
neither a copy of the database nor a log lets anyone in, and ending a session (log-out,
a new password, a deleted account) deletes its row: a copy of the cookie is then worth
nothing, and the sockets opened in it are closed at once (`sign_outs.py`). Every log-in
and sign-up opens a new session and ends the one the request had, so a secret planted in
a browser beforehand never becomes an account's (no session fixation).

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

from starlette.types import Scope

from chuko.core.errors import ChukoError
from chuko.server.club.sign_outs import SignOuts
from chuko.server.shared.limits import Buckets, Clock, Limits, TooMany
from chuko.server.shared.players import Player
from chuko.server.store import player_rows as rows
from chuko.server.store.database import Store
from chuko.server.store.schema import secret_hash
from chuko.server.web.cookies import (
    ACCOUNT_AGE,
    GUEST_AGE,
    clear_session,
    session_secret,
    set_session,
)
from chuko.server.web.origin import same_site
from chuko.server.web.router import client_host

CACHE_SECONDS = 3.0
CACHE_SIZE = 4096
RENEW = 86400.0  # seconds between two renewals of a session in use (its row and cookie)
SWEEP = 3600.0  # seconds between two sweeps of the sessions over (at a new guest's making)
TOO_MANY_GUESTS = "Too many new players from your address: wait a moment and try again."


def new_player_id() -> str:
    return secrets.token_hex(16)


def guest_name() -> str:
    """A guest's name until they choose one: "Guest 4821"."""
    return f"Guest {1000 + secrets.randbelow(9000)}"


class Accounts:
    """The players of the requests on `store`; new guests per address within `limits`,
    measured on `clock`."""

    def __init__(self, store: Store, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.store, self.clock = store, clock
        self.guests = Buckets(limits.guests, clock)  # per address
        # id hash → (when read, its player), least recently used first.
        self._cache: OrderedDict[str, tuple[float, Player]] = OrderedDict()
        self._swept: float | None = None  # when sessions over were last deleted
        self.sign_outs = SignOuts()  # the sockets opened in a session, closed as it ends

    async def player(self, scope: Scope, *, create: bool) -> Player | None:
        """The request's player, from its session cookie; with `create`, a new guest (its
        cookie set on the response) when it has none. None for no session without
        `create`, and for a cookie sent from another site's page (a socket opened there).
        `create` is for HTTP requests only: a socket's handshake is answered before it asks,
        so a guest made there would have no cookie. Unavailable while the database is away
        (TooMany past the guests an address may make)."""
        found = await self._known(scope)
        if found is None and create:
            return await self._new_guest(scope)
        return found

    async def someone(self, scope: Scope) -> Player:
        """`player(scope, create=True)`, which is never None."""
        return await self._known(scope) or await self._new_guest(scope)

    async def _known(self, scope: Scope) -> Player | None:
        secret = session_secret(scope)
        if secret is None or same_site(scope) is False:
            return None
        return await self._session(scope, secret)

    async def session(self, scope: Scope) -> tuple[Player, str] | None:
        """The request's player and the id hash of its session, if it has one."""
        id_hash = self.session_hash(scope)
        found = None if id_hash is None else await self._known(scope)
        return None if found is None or id_hash is None else (found, id_hash)

    def session_hash(self, scope: Scope) -> str | None:
        """The id hash of the request's session cookie, if it carries one."""
        secret = session_secret(scope)
        return None if secret is None else secret_hash(secret)

    async def _session(self, scope: Scope, secret: str) -> Player | None:
        id_hash = secret_hash(secret)
        now = self.clock()
        cached = self._cache.get(id_hash)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            self._cache.move_to_end(id_hash)
            return cached[1]
        found = await self.store.fetch(rows.session_of(id_hash))
        if found is None:
            self._cache.pop(id_hash, None)
            return None
        player, seen = found.player, found.seen
        wall = time.time()
        age = GUEST_AGE if player.is_guest else ACCOUNT_AGE
        if wall - seen > age:  # unused for longer than its cookie lasts: over
            with contextlib.suppress(ChukoError):
                await self.store.submit(rows.end_session(id_hash))
            return None
        if wall - seen > RENEW:
            with contextlib.suppress(ChukoError):  # the renewal may wait for a later request
                await self.store.submit(rows.seen(id_hash, wall))
                set_session(scope, secret, age)
        self._remember(id_hash, player)
        return player

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

    async def _new_guest(self, scope: Scope) -> Player:
        if not self.guests.take(client_host(scope)):
            raise TooMany(TOO_MANY_GUESTS)
        player = Player(new_player_id(), guest_name(), None)
        secret = secrets.token_urlsafe(32)
        id_hash = secret_hash(secret)
        wall = time.time()
        await self.store.submit(rows.new_guest(player, id_hash, wall))
        set_session(scope, secret, GUEST_AGE)
        self._remember(id_hash, player)
        if self._swept is None or self.clock() - self._swept > SWEEP:
            # Sessions never presented again would pile up: those unused for longer than
            # any cookie lasts go, now and then, as guests come.
            self._swept = self.clock()
            with contextlib.suppress(ChukoError):
                await self.store.submit(rows.sweep(wall - GUEST_AGE))
        return player

    async def open_session(self, scope: Scope, player: Player, *, others: bool = False) -> None:
        """A new session for `player` on the response's cookie, ending the one the request
        had (and with `others`, every other session of the player's, their sockets closed:
        the request's browser goes on in the new one)."""
        ending = self.session_hash(scope)
        secret = secrets.token_urlsafe(32)
        id_hash = secret_hash(secret)
        await self.store.submit(rows.open_session(player.id, id_hash, time.time(), ending,
                                                  others))
        self.forget(player.id if others else None, ending)
        if others:
            self.sign_outs.end(player.id, but=ending)
        if ending is not None:
            self.sign_outs.replaced(player.id, ending, id_hash)
        set_session(scope, secret, GUEST_AGE if player.is_guest else ACCOUNT_AGE)
        self._remember(id_hash, player)

    async def end_session(self, scope: Scope) -> None:
        """End the request's session (log-out): its row deleted, its sockets closed, its
        cookie cleared."""
        id_hash = self.session_hash(scope)
        player = None if id_hash is None else await self._known(scope)
        if id_hash is not None:
            await self.store.submit(rows.end_session(id_hash))
            self.forget(id_hash=id_hash)
            if player is not None:
                self.sign_outs.end(player.id, id_hash=id_hash)
        clear_session(scope)

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
