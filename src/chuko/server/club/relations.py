"""Follows and blocks between players, and whom an account takes challenges from (lila's
`relation`): the rules, each refusal in one sentence, over `store/people_rows.py`.

Only accounts follow and block (a guest's relations would die with their cookie), and only
accounts are followed or blocked (their username names them). Blocking someone ends each
one's follow of the other; a blocked player's quick messages are hidden from the blocker
(`web/room_socket.py`) and their challenges refused (`challenge/challenges.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.rooms.room import Forbidden, NotFound
from chuko.server.shared.players import Player
from chuko.server.store import people_rows as rows
from chuko.server.store import standing_rows as standings
from chuko.server.store.database import Store

MOST_FOLLOWED = 500  # accounts one account may follow
MOST_BLOCKED = 500  # accounts one account may block
# Whom an account takes challenges from, as a client names it → as stored.
CHALLENGES_FROM = {"everyone": None, "follows": "follows", "nobody": "nobody"}
ACCOUNTS_ONLY = Text("Following and blocking are for players with an account: sign up on the "
                     "Account page (/account).")


class Relations:
    """The follows and blocks kept in `store`, timed by `clock` (seconds since the epoch)."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store, self.clock = store, clock

    async def account(self, username: Any) -> standings.Account:
        """The account named `username`; NotFound in one sentence otherwise."""
        if not isinstance(username, str) or not username:
            raise ConfigError(Text("Name the player by their username."))
        found = await self.store.fetch(lambda conn: standings.account(conn, username))
        if found is None:
            raise NotFound(Text("Nobody plays here as {username!r}.",
                                username=username[:standings.MAX_USERNAME]))
        return found

    async def _other(self, player: Player, username: Any, yourself: Text) -> standings.Account:
        """The account `username` names, not `player`'s own (`yourself` says why not)."""
        if player.is_guest:
            raise Forbidden(ACCOUNTS_ONLY)
        other = await self.account(username)
        if other.id == player.id:
            raise ConfigError(yourself)
        return other

    async def follow(self, player: Player, username: Any) -> bool:
        """`player` follows the account `username` from now on; whether they did not yet."""
        other = await self._other(player, username, Text("You cannot follow yourself."))
        between = await self.between(player.id, other.id)
        if between.blocks:
            raise Forbidden(Text("You block {username}: unblock them first to follow them.",
                                 username=other.username))
        if between.blocked_by:
            raise Forbidden(Text("{username} does not take follows from you.",
                                 username=other.username))
        done = await self.store.submit(rows.follow(player.id, other.id, self.clock(),
                                                   MOST_FOLLOWED))
        if done == "full":
            raise Forbidden(Text("You follow {most} players already: unfollow one "
                                 "first.", most=MOST_FOLLOWED))
        return bool(done == "new")

    async def unfollow(self, player: Player, username: Any) -> None:
        other = await self._other(player, username, Text("You cannot unfollow yourself."))
        await self.store.submit(rows.unfollow(player.id, other.id))

    async def block(self, player: Player, username: Any) -> bool:
        """`player` blocks the account `username` (and neither follows the other any
        more); whether they did not yet."""
        other = await self._other(player, username, Text("You cannot block yourself."))
        done = await self.store.submit(rows.block(player.id, other.id, self.clock(),
                                                  MOST_BLOCKED))
        if done == "full":
            raise Forbidden(Text("You block {most} players already: unblock one first.",
                                 most=MOST_BLOCKED))
        return bool(done == "new")

    async def unblock(self, player: Player, username: Any) -> None:
        other = await self._other(player, username, Text("You cannot unblock yourself."))
        await self.store.submit(rows.unblock(player.id, other.id))

    async def between(self, player: str, other: str) -> rows.Between:
        return await self.store.fetch(lambda conn: rows.between(conn, player, other))

    async def followed(self, player: str) -> list[rows.Person]:
        return await self.store.fetch(lambda conn: rows.followed(conn, player, MOST_FOLLOWED))

    async def blocked(self, player: str) -> list[rows.Person]:
        return await self.store.fetch(lambda conn: rows.blocked(conn, player, MOST_BLOCKED))

    async def blocked_ids(self, player: str) -> frozenset[str]:
        return await self.store.fetch(lambda conn: rows.blocked_ids(conn, player))

    async def challenges_from(self, player: str) -> str:
        """Whom the player takes challenges from, as a client names it."""
        stored = await self.store.fetch(lambda conn: rows.preference(conn, player))
        return next(name for name, held in CHALLENGES_FROM.items() if held == stored)

    async def choose(self, player: Player, choice: Any) -> str:
        """Set whom `player` takes challenges from; the choice."""
        if player.is_guest:
            raise Forbidden(Text("Challenges come to accounts: sign up on the Account page "
                                 "(/account) to choose whom you take them from."))
        if not isinstance(choice, str) or choice not in CHALLENGES_FROM:
            raise ConfigError(Text('Take challenges from "everyone", "follows" (those you follow) '
                                   'or "nobody".'))
        await self.store.submit(rows.set_preference(player.id, CHALLENGES_FROM[choice]))
        return choice

    async def playing(self, ids: list[str]) -> dict[str, list[tuple[str, str]]]:
        """The rooms in play of each of `ids` (`people_rows.playing`)."""
        return await self.store.fetch(lambda conn: rows.playing(conn, ids))

    async def recent_games(self, player: str, count: int) -> list[rows.Finished]:
        return await self.store.fetch(lambda conn: rows.recent_games(conn, player, count))
