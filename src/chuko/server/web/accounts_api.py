"""The accounts' requests (docs/web-protocol.md, "Accounts"): who I am (`GET /api/me`),
becoming a guest and naming oneself (`POST /api/me`, `/api/me/name`), and an account's
sign-up, log-in, log-out, new password and deletion (`POST /api/account/…`).

Password checks are limited per address, per address at an account, and per account
except from a browser the account logged in from (`club/login_limits.py`; its proof is the
cookie `chuko_device`); an unknown username and a wrong password get the same answer (401,
one sentence) after the same work (an Argon2 check either way, `club/passwords.py`), so
neither the answer nor its time says which names exist. A password is never logged nor
sent back. The POST requests are answered as bare ASGI by the router (`AccountApi.paths`).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from starlette.types import Scope

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.i18n import LANGUAGES
from chuko.server.club.login_limits import LoginLimits, device_proof, proves
from chuko.server.club.passwords import Passwords
from chuko.server.club.usernames import (
    BadCredentials,
    given_password,
    login_key,
    read_display_name,
    read_password,
    read_username,
    username_key,
)
from chuko.server.rooms.room import Forbidden
from chuko.server.shared.limits import Buckets, Clock, Limits, Shared, TooMany
from chuko.server.shared.players import GUEST_LABEL, Player
from chuko.server.store import player_rows as rows
from chuko.server.store.writes import Conflict, Duplicate
from chuko.server.web.accounts import Accounts
from chuko.server.web.cookies import DEVICE, DEVICE_AGE, clear_session, cookie_value, set_cookie
from chuko.server.web.language import read_language, remember_language
from chuko.server.web.router import Post, ReadBody, client_host

NO_MATCH = Text("That username and password do not match an account.")
CLOSED = Text("This server takes no new accounts; you can go on playing as a guest.")
NOT_LOGGED_IN = Text("You are not logged in to an account.")


def me(player: Player | None) -> Json:
    """What a player is told of themself (never their id)."""
    if player is None:
        return {"player": None}
    return {"player": {"name": player.name, "username": player.username,
                       "guest": player.is_guest}}


def _remember_browser(scope: Scope, player_id: str, stored: str) -> None:
    """Queue the account's proof that it logged in from this browser (`device_proof`) on
    the response to a password check that succeeded."""
    set_cookie(scope, DEVICE, device_proof(player_id, stored), DEVICE_AGE)


class AccountApi:
    """The accounts' requests on `accounts`; password checks within `limits` on `clock`
    (or in the buckets a cluster's workers `shared`). With `open_registration` False,
    sign-ups are refused (guests still play)."""

    def __init__(self, accounts: Accounts, limits: Limits, clock: Clock, *,
                 open_registration: bool = True, passwords: Passwords | None = None,
                 shared: Shared | None = None) -> None:
        self.accounts, self.store = accounts, accounts.store
        self.open_registration = open_registration
        self.passwords = passwords or Passwords()
        self.logins = LoginLimits(limits, clock, shared)
        self.signups = Buckets(limits.signups, clock)  # per address

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {"/api/me": self.become, "/api/me/name": self.name,
                "/api/me/language": self.language, "/api/account/signup": self.signup,
                "/api/account/login": self.login,
                "/api/account/logout": self.logout, "/api/account/password": self.password,
                "/api/account/delete": self.delete}

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/me")(self.who)

    async def who(self, request: Request) -> dict[str, Any]:
        """Who the session is, and whether this server takes new accounts (the account
        page offers no sign-up when it does not)."""
        return {**me(await self.accounts.player(request.scope, create=False)),
                "signups": self.open_registration}

    async def become(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The request's player, made a guest if it is nobody yet."""
        return 200, me(await self.accounts.someone(scope))

    async def name(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        chosen = read_display_name((await body()).get("name"))
        player = await self.accounts.someone(scope)
        await self.store.submit(rows.set_name(player.id, chosen))
        renamed = Player(player.id, chosen, player.username)
        self.accounts.renamed(renamed)
        return 200, me(renamed)

    async def language(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The visitor's language, kept in their browser and, for an account, on it."""
        chosen = read_language((await body()).get("lang"))
        if chosen is None:
            raise ConfigError(Text("Choose one of the languages: {codes}.",
                                  codes=", ".join(LANGUAGES)))
        remember_language(scope, chosen)
        player = await self.accounts.player(scope, create=False)
        if player is not None and not player.is_guest:
            await self.store.submit(rows.set_language(player.id, chosen))
        return 200, {"lang": chosen}

    async def signup(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """An account for the request's player: a guest keeps their id, so their games and
        ratings become the account's."""
        if not self.open_registration:
            raise Forbidden(CLOSED)
        data = await body()
        username = read_username(data.get("username"))
        password = read_password(data.get("password"))
        if not self.signups.take(client_host(scope)):
            raise TooMany(Text("Too many accounts made from your address: wait a few minutes."))
        player = await self.accounts.someone(scope)
        if not player.is_guest:
            raise Conflict(Text("You have an account already: log out to make another."))
        hashed = await self.passwords.hash(password)
        # A guest who never chose a name is shown by their username from now on.
        name = username if GUEST_LABEL.fullmatch(player.name) else player.name
        try:
            await self.store.submit(rows.make_account(player.id, username,
                                                      username_key(username), hashed, name))
        except Duplicate:  # another worker gave the name away meanwhile
            raise Conflict(rows.TAKEN) from None
        account = Player(player.id, name, username)
        await self.accounts.open_session(scope, account)
        _remember_browser(scope, account.id, hashed)
        return 201, me(account)

    async def login(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        data = await body()
        key = login_key(data.get("username"))
        password = given_password(data.get("password"))
        await self.logins.admit(client_host(scope), key)
        found = await self.store.fetch(rows.login_of(key)) if key else None
        known = found is not None and proves(cookie_value(scope, DEVICE), found[0].id,
                                             found[1])
        await self.logins.admit_at_account(key, known)
        if not await self.passwords.check(password, None if found is None else found[1]):
            raise BadCredentials(NO_MATCH)
        if found is None:  # (checked above: the dummy hash never matches)
            raise BadCredentials(NO_MATCH)
        player, stored = found
        if self.passwords.outdated(stored):
            stored = await self.passwords.hash(password)
            await self.store.submit(rows.set_password(player.id, stored))
        await self.accounts.open_session(scope, player)
        _remember_browser(scope, player.id, stored)
        chosen = read_language(await self.store.fetch(rows.language_of(player.id)))
        if chosen is not None:  # the account's language follows it to this browser
            remember_language(scope, chosen)
        return 200, me(player)

    async def logout(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        await self.accounts.end_session(scope)
        return 200, me(None)

    async def _account(self, scope: Scope, password: Any) -> Player:
        """The request's account, its current `password` checked (counted as a log-in from a
        browser the account is known to: its session's); Forbidden for no account,
        BadCredentials for a wrong password."""
        given = given_password(password)
        player = await self.accounts.player(scope, create=False)
        if player is None or player.username is None:
            raise Forbidden(NOT_LOGGED_IN)
        await self.logins.admit(client_host(scope), username_key(player.username))
        stored = await self.store.fetch(rows.password_of(player.id))
        if not await self.passwords.check(given, stored):
            raise BadCredentials(Text("That is not your password."))
        return player

    async def password(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """A new password; every other session of the account ends."""
        data = await body()
        fresh = read_password(data.get("new_password"), Text("The new password"))
        player = await self._account(scope, data.get("password"))
        hashed = await self.passwords.hash(fresh)
        await self.store.submit(rows.set_password(player.id, hashed))
        await self.accounts.open_session(scope, player, others=True)
        _remember_browser(scope, player.id, hashed)
        return 200, me(player)

    async def delete(self, scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        """The account deleted (its games stay, shown as a deleted player's)."""
        player = await self._account(scope, (await body()).get("password"))
        await self.store.submit(rows.delete_account(player.id))  # its sessions too
        self.accounts.deleted(player.id)
        clear_session(scope)
        return 200, me(None)

    def close(self) -> None:
        self.passwords.close()
