"""The challenges' rules (`Challenges`): who may challenge whom to what, each refusal in one
sentence, and what is told to both players at each step.

A challenge names a game of two players, its options (read as a room's are), a clock (any
a room may have; a rated challenge needs one) and rated or casual (rated needs two
accounts). It is refused to oneself, to a name nobody holds, between players one of whom
blocks the other, to an account that takes challenges from nobody (or only from those it
follows, and does not follow the challenger), to a player challenged by the same challenger
already, and past `MOST_PENDING` pending challenges of one challenger (counted in the write
that stores it, so two workers cannot both pass it).

A pending challenge expires after `TTL` seconds: it can no longer be accepted from then,
and the worker holding the cluster's lease marks it so and tells both (`sweep`).
Accepting it marks it accepted with its room's id in one conditional write, then makes the
room (its id the challenge's: made again, after a worker died between the two, it is
found, not made twice) and tells both players to go there.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.games import descriptor, game_class
from chuko.server.rooms.clocks import read_control
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.room import Forbidden, NotFound, Seat
from chuko.server.shared.players import Player
from chuko.server.store import challenge_rows as rows
from chuko.server.store import people_rows, standing_rows
from chuko.server.store.challenge_rows import Challenge
from chuko.server.store.writes import Conflict

Json = dict[str, Any]
Tell = Callable[[str, Json], None]
TTL = 600.0  # seconds a challenge waits for its answer
MOST_PENDING = 5  # pending challenges one player may have sent
LISTED = 50  # pending challenges listed, each way
SWEPT = 200  # expired challenges marked in one sweep's write
# Why a challenge is declined, by code: what both players read.
REASONS = {"generic": Text("Not now, thanks."), "later": Text("Later, please."),
           "game": Text("Not this game, please."), "clock": Text("Not this clock, please."),
           "casual": Text("A casual game, please."), "rated": Text("A rated game, please.")}
# Why a challenge can no longer be answered, by its status.
_CLOSED = {"accepted": Text("This challenge was accepted already."),
           "declined": Text("This challenge was declined."),
           "cancelled": Text("This challenge was cancelled."),
           "expired": Text("This challenge has expired.")}


def read_terms(data: Json) -> tuple[str, Json, Json | None, bool]:
    """A challenge's game, options, clock and rated as a request gives them; ConfigError in
    one sentence for anything wrong."""
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ConfigError(Text("Say which game the challenge is for."))
    described = descriptor(game_id)
    values = described.read_online(data.get("options"), bots_only=False)
    players = game_class(game_id).configure(values, bots_only=False).players
    if players != 2:
        raise ConfigError(Text("A challenge is a game of two: {title} with these "
                               "options has {players} players.",
                               title=described.title, players=players))
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ConfigError(Text("Say whether the challenge is rated with true or false."))
    clock = read_control(data.get("clock"))
    if rated and clock is None:
        raise ConfigError(Text("A rated challenge needs a clock, so that no game can be stalled: "
                               "choose one."))
    return game_id, values, clock, rated


def public(challenge: Challenge) -> Json:
    """A challenge as both players' pages show it: names, never a player's id."""
    return {"id": challenge.id, "game": challenge.game, "title": title_of(challenge.game),
            "options": challenge.options, "clock": challenge.clock, "rated": challenge.rated,
            "from": {"name": challenge.names[0], "username": challenge.usernames[0]},
            "to": {"name": challenge.names[1], "username": challenge.usernames[1]},
            "created": challenge.created, "expires": challenge.expires,
            "status": challenge.status, "reason": challenge.reason,
            "reason_text": REASONS.get(challenge.reason or ""), "room": challenge.room}


def title_of(game_id: str) -> str:
    """A game's title, or its id where the game is not installed any more."""
    try:
        return descriptor(game_id).title
    except ConfigError:
        return game_id


class Challenges:
    """The challenges kept in `hub`'s store; rooms made on `hub`; notices told on `tell`;
    `clock` is seconds since the epoch."""

    def __init__(self, hub: Hub, tell: Tell, clock: Callable[[], float]) -> None:
        self.hub, self.store, self.tell, self.clock = hub, hub.store, tell, clock
        self.shuffle = random.SystemRandom().shuffle if hub.rng is None else hub.rng.shuffle

    async def send(self, player: Player, data: Json) -> Json:
        """`player` challenges the account `data["to"]` (its username) to the game `data`
        describes, or the opponent of the finished game `data["room"]` to another like it;
        the challenge as shown."""
        if "room" in data:
            data = {**data, **await self._again(player, data["room"])}
        game_id, options, clock, rated = read_terms(data)
        to = await self._challenged(player, data.get("to"), rated)
        now = self.clock()
        made = Challenge(secrets.token_urlsafe(9), player.id, to.id, game_id, options, clock,
                         rated, now, now + TTL, "pending", names=(player.name, to.name or ""),
                         usernames=(player.username, to.username))
        if not await self.store.submit(rows.send(made, MOST_PENDING)):
            raise Forbidden(Text("You have {most} challenges waiting for an answer "
                                 "already: cancel one, or wait for the answers.",
                                 most=MOST_PENDING))
        shown = public(made)
        self.tell(to.id, {"type": "challenge", "event": "received", "challenge": shown})
        self.tell(player.id, {"type": "challenge", "event": "sent", "challenge": shown})
        return shown

    async def _again(self, player: Player, room_id: Any) -> Json:
        """The terms of a challenge to the opponent of `player`'s finished heads-up game
        `room_id`: the same game, options, clock and rated."""
        row = None
        if isinstance(room_id, str) and 0 < len(room_id) <= 32:
            row = await self.store.fetch_room(room_id, with_moves=False)
        if row is None or player.id not in (seat.player for seat in row.seats):
            raise NotFound(Text("You played no such game."))
        if row.status != "over" or len(row.seats) != 2:
            raise ConfigError(Text("Challenge from a finished game of two."))
        other = next(seat.player for seat in row.seats if seat.player != player.id)
        username = None if other is None else await self.store.fetch(
            lambda conn: people_rows.username_of(conn, other))
        if username is None:
            raise ConfigError(Text("Your opponent has no account, so no challenge can reach them: "
                                   "play them again with a rematch or an invite."))
        return {"to": username, "game": row.game, "options": row.options,
                "clock": row.clock, "rated": row.rated}

    async def _challenged(self, player: Player, username: Any,
                          rated: bool) -> standing_rows.Account:
        """The account challenged, once every rule between the two holds."""
        if not isinstance(username, str) or not username:
            raise ConfigError(Text("Say whom you challenge by their username."))
        to = await self.store.fetch(lambda conn: standing_rows.account(conn, username))
        if to is None:
            raise NotFound(Text("Nobody plays here as {username!r}.",
                                username=username[:standing_rows.MAX_USERNAME]))
        if to.id == player.id:
            raise ConfigError(Text("You cannot challenge yourself: find an opponent in the lobby "
                                   "(/lobby)."))
        if rated and player.is_guest:
            raise Forbidden(Text("Rated challenges are between accounts: sign up on the Account "
                                 "page (/account), or make this one casual."))
        # How the challenged stands with the challenger: follows them, blocks them, or is
        # blocked by them.
        between, choice, waiting = await self.store.fetch(lambda conn: (
            people_rows.between(conn, to.id, player.id), people_rows.preference(conn, to.id),
            rows.pending_of(conn, player.id, self.clock(), LISTED)[1]))
        if between.blocked_by:
            raise Forbidden(Text("You block {username}: unblock them first to challenge them.",
                                 username=to.username))
        if between.blocks or choice == "nobody":
            raise Forbidden(Text("{username} does not take challenges from you.",
                                 username=to.username))
        if choice == "follows" and not between.follows:
            raise Forbidden(Text("{username} takes challenges only from the players they "
                                 "follow.", username=to.username))
        if any(sent.challenged == to.id for sent in waiting):
            raise Conflict(Text("You have challenged {username} already: wait for their "
                                "answer, or cancel it.", username=to.username))
        return to

    async def _pending(self, player: Player, challenge_id: Any, side: int) -> Challenge:
        """The challenge `challenge_id` of `player` (0: its challenger, 1: the challenged),
        still pending; NotFound or Conflict in one sentence otherwise."""
        found = None
        if isinstance(challenge_id, str) and len(challenge_id) <= 16:
            found = await self.store.fetch(lambda conn: rows.challenge(conn, challenge_id))
        if found is None or (found.challenger, found.challenged)[side] != player.id:
            raise NotFound(Text("You have no such challenge."))
        if found.status == "pending" and found.expires <= self.clock():
            raise Conflict(Text("This challenge has expired."))
        if found.status != "pending" and not (side == 1 and found.status == "accepted"):
            raise Conflict(_CLOSED[found.status])
        return found

    async def accept(self, player: Player, challenge_id: Any) -> str:
        """The challenged `player` accepts: the room is made for both, and both are told to
        go there; its id."""
        found = await self._pending(player, challenge_id, 1)
        room_id = found.room or f"{int(found.created):08x}{found.id}"
        if found.status == "pending" and not await self.store.submit(
                rows.answer(found.id, "accepted", self.clock(), room=room_id)):
            found = await self._pending(player, challenge_id, 1)  # an answer came first
            room_id = found.room or room_id
        await self._open(found, room_id)
        shown = {**public(found), "status": "accepted", "room": room_id}
        for who in (found.challenger, found.challenged):
            self.tell(who, {"type": "challenge", "event": "accepted", "challenge": shown,
                            "room": room_id})
        return room_id

    async def _open(self, found: Challenge, room_id: str) -> None:
        """The challenge's room, both players seated in a random order (made once)."""
        values = descriptor(found.game).read_online(found.options, bots_only=False)
        game = game_class(found.game).configure(values, bots_only=False)
        people = [(found.challenger, found.names[0]), (found.challenged, found.names[1])]
        self.shuffle(people)
        seats = [Seat(n, "human", None, None, None, True, name, player=who)
                 for n, (who, name) in enumerate(people)]
        extra: Json = {"rated": True} if found.rated else {}
        try:
            await self.hub.open_room(found.game, game, values, seats, room_id=room_id,
                                     clock=found.clock, **extra)
        except self.store.key_taken:  # made already
            await self.hub.room(room_id)

    async def decline(self, player: Player, challenge_id: Any, reason: Any) -> None:
        reason = "generic" if reason is None else reason
        if not isinstance(reason, str) or reason not in REASONS:
            raise ConfigError(Text("A challenge is declined for one of these reasons: "
                                   "{reasons}.",
                                   reasons=", ".join(f'"{code}"' for code in REASONS)))
        await self._end(player, challenge_id, 1, "declined", reason)

    async def cancel(self, player: Player, challenge_id: Any) -> None:
        await self._end(player, challenge_id, 0, "cancelled", None)

    async def _end(self, player: Player, challenge_id: Any, side: int, status: str,
                   reason: str | None) -> None:
        found = await self._pending(player, challenge_id, side)
        if found.status != "pending" or not await self.store.submit(
                rows.answer(found.id, status, self.clock(), reason=reason)):
            await self._pending(player, challenge_id, side)  # raises: what came first
            raise Conflict(_CLOSED["accepted"])
        shown = {**public(found), "status": status, "reason": reason,
                 "reason_text": REASONS.get(reason or "")}
        for who in (found.challenger, found.challenged):
            self.tell(who, {"type": "challenge", "event": status, "challenge": shown})

    async def pending(self, player: str) -> Json:
        """The player's pending challenges, received and sent, newest first."""
        received, sent = await self.store.fetch(
            lambda conn: rows.pending_of(conn, player, self.clock(), LISTED))
        return {"received": [public(c) for c in received], "sent": [public(c) for c in sent]}

    async def sweep(self) -> int:
        """Mark the challenges past their time expired and tell both players; how many."""
        due = await self.store.submit(rows.expire_due(self.clock(), SWEPT))
        for challenge_id, challenger, challenged in due:
            for who in (challenger, challenged):
                self.tell(who, {"type": "challenge", "event": "expired",
                                "challenge": {"id": challenge_id, "status": "expired"}})
        return len(due)
