"""Who a request is (`Accounts.player`): the player of its session cookie, a guest made on
the spot when a request needs one (its cookie set on the response), and the cookie renewed,
replaced and cleared as the club's sessions are (`club/sessions.py`: what a session is, how
long it lasts, and the sockets closed as it ends).

A cookie sent from another site's page (a socket opened there) is no session
(`origin.same_site`).
"""

from __future__ import annotations

import time

from starlette.types import Scope

from chuko.server.club.sessions import Sessions, lifetime
from chuko.server.club.sign_outs import SignOuts
from chuko.server.shared.limits import Clock, Limits
from chuko.server.shared.players import Player
from chuko.server.store.database import Store
from chuko.server.store.schema import secret_hash
from chuko.server.web.cookies import clear_session, session_secret, set_session
from chuko.server.web.origin import same_site
from chuko.server.web.router import client_host


class Accounts:
    """The players of the requests, by the sessions on `store`; new guests per address
    within `limits`, measured on `clock`."""

    def __init__(self, store: Store, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.store = store
        self.sessions = Sessions(store, limits, clock)

    @property
    def sign_outs(self) -> SignOuts:
        """The sockets opened in a session, closed as it ends."""
        return self.sessions.sign_outs

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
        found = await self.sessions.of_secret(secret)
        if found is None:
            return None
        if found.renewed:
            set_session(scope, secret, lifetime(found.player))
        return found.player

    async def session(self, scope: Scope) -> tuple[Player, str] | None:
        """The request's player and the id hash of its session, if it has one."""
        id_hash = self.session_hash(scope)
        found = None if id_hash is None else await self._known(scope)
        return None if found is None or id_hash is None else (found, id_hash)

    @staticmethod
    def session_hash(scope: Scope) -> str | None:
        """The id hash of the request's session cookie, if it carries one."""
        secret = session_secret(scope)
        return None if secret is None else secret_hash(secret)

    async def _new_guest(self, scope: Scope) -> Player:
        player, secret = await self.sessions.new_guest(client_host(scope))
        set_session(scope, secret, lifetime(player))
        return player

    async def open_session(self, scope: Scope, player: Player, *, others: bool = False) -> None:
        """A new session for `player` on the response's cookie, ending the one the request
        had (and with `others`, every other session of the player's, their sockets closed:
        the request's browser goes on in the new one)."""
        secret = await self.sessions.open(player, self.session_hash(scope), others=others)
        set_session(scope, secret, lifetime(player))

    async def end_session(self, scope: Scope) -> None:
        """End the request's session (log-out): its row deleted, its sockets closed, its
        cookie cleared."""
        id_hash = self.session_hash(scope)
        if id_hash is not None:
            await self.sessions.end(id_hash, await self._known(scope))
        clear_session(scope)

    def deleted(self, player_id: str) -> None:
        """Forget a deleted account's sessions, and close their sockets."""
        self.sessions.deleted(player_id)

    def renamed(self, player: Player) -> None:
        self.sessions.renamed(player)
