"""Making rooms and taking their seats (`Opening`): a new room (`create`, or `open_room` for a
table already seated, such as the lobby's), a seat taken through an invite (`join`), and a
finished room played again with the same seats (`rematch`, `follow`)."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from random import Random
from typing import Any

from chuko.core.descriptor import Descriptor
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json
from chuko.core.text import Plural, Text
from chuko.games import game_class
from chuko.server.rooms.bot_maker import BotMaker
from chuko.server.rooms.bots import Bots
from chuko.server.rooms.clocks import Clocks, read_control
from chuko.server.rooms.commits import stored
from chuko.server.rooms.endings import people
from chuko.server.rooms.lifecycle import Rooms
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.peers import changed
from chuko.server.rooms.room import Forbidden, NotFound, Room, Seat
from chuko.server.rooms.terms import ClubTerms
from chuko.server.shared.bus import Bus
from chuko.server.store import database as db

SEAT_KINDS = ("me", "bot", "friend")
MAX_NAME = 24


def new_secret() -> str:
    return secrets.token_urlsafe(18)


def new_room_id(created: float) -> str:
    """A room's id: the second it was made, as 8 hex digits, then 64 secret bits (an id
    cannot be guessed). Ids sort by age, so the rooms in play and their moves sit together
    at the end of the database's indexes: a commit of many moves writes a few index pages,
    not one for each room (random ids spread them over the whole index)."""
    return f"{int(created):08x}{secrets.token_urlsafe(8)}"


def read_name(value: Any, passes_for_a_label: Callable[[str], bool]) -> str | None:
    """A player's display name as given in a request, trimmed; None when none is given,
    ConfigError (one sentence) when it is not one, or could pass for one of the server's
    own labels (`passes_for_a_label`: the club's `labels.py`)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(Text("A name must be text."))
    name = value.strip()
    if not name:
        raise ConfigError(Text("A name needs at least one character that is not a space."))
    if len(name) > MAX_NAME:
        raise ConfigError(Text("A name can have at most {most} characters, not {count}.",
                               most=MAX_NAME, count=len(name)))
    if not name.isprintable():
        raise ConfigError(Text("A name cannot hold line breaks, tabs or other control characters."))
    if passes_for_a_label(name):
        raise ConfigError(Text('{name!r} could pass for one of the server\'s own labels ("You", a '
                               "guest, a bot, a seat nobody named): choose another name.",
                               name=name))
    return name


class Opening:
    """New rooms, and their seats taken."""

    def __init__(self, store: db.Store, clock: Callable[[], float], rng: Random | None,
                 rooms: Rooms, moves: MovePath, maker: BotMaker, bots: Bots, bus: Bus,
                 terms: ClubTerms) -> None:
        self.store, self.clock, self.rng, self.rooms = store, clock, rng, rooms
        self.moves, self.maker, self.bots, self.bus = moves, maker, bots, bus
        self.terms = terms

    async def create(self, game_id: Any, options: Any, seat_specs: Any,
                     clock: Any = None, player: str | None = None) -> Json:
        """Make a room, with the time control `clock` (None: no clock); the creator (`player`,
        when known) holds the first 'me' seat. ConfigError for bad input."""
        if not isinstance(game_id, str):
            raise ConfigError(Text("Say which game the room plays."))
        control = read_control(clock)
        rules = game_class(game_id)
        specs = self._seat_specs(rules.descriptor, seat_specs)
        bots_only = all(kind == "bot" for kind, _, _ in specs)
        # Stored with defaults filled in, within what a shared server allows.
        values = rules.descriptor.read_online(options, bots_only=bots_only)
        game = rules.configure(values, bots_only=bots_only)
        if len(specs) != game.players:
            raise ConfigError(Plural("This {title} game has {n} seat, but {given} were given.",
                                     "This {title} game has {n} seats, but {given} were "
                                     "given.", n=game.players, title=game.title,
                                     given=len(specs)))
        token, seat_of_creator, invites, seats = None, None, [], []
        for number, (kind, level, name) in enumerate(specs):
            seat = Seat(number, "bot" if kind == "bot" else "human", level, None, None,
                        kind != "friend", name)
            if kind == "me":
                token, seat_of_creator = new_secret(), number
                seat.token_hash, seat.player = db.secret_hash(token), player
            elif kind == "friend":
                invite = new_secret()
                seat.invite_hash = db.secret_hash(invite)
                invites.append({"seat": number, "invite": invite})
            seats.append(seat)
        room = await self.open_room(game_id, game, values, seats, clock=control)
        return {"room": room.id, "seat": seat_of_creator, "token": token,
                "invites": [{"seat": i["seat"], "url": f"/join/{room.id}/{i['invite']}"}
                            for i in invites],
                "watch_url": f"/watch/{room.id}"}

    async def open_room(self, game_id: str, game: Game, values: Json, seats: list[Seat],
                    rematch_of: Room | None = None, *, rated: bool = False,
                    clock: Json | None = None, room_id: str | None = None) -> Room:
        """Deal a new room for `seats`, `rated` or not, with the time control `clock`
        (checked already; None: no clock), store it (and link it to the room it is the
        rematch of), and let its bots start. `room_id` names it (a new id by default): a
        second room under one id is refused by the database. Its later chance is drawn
        from a secret seed, stored with the deal, so the game can be rebuilt as it went."""
        clock = read_control(clock)
        # A deal from 128 secret bits: as unguessable as one drawn card by card from the
        # system's generator (`new(None)`), which costs a system call per card.
        seed = secrets.randbits(128) if self.rng is None else self.rng.getrandbits(64)
        state = game.new(seed)
        dealt = state.record()
        created = self.clock()
        clocks = None if clock is None else Clocks.new(clock, len(seats), people(seats))
        room = Room(room_id or new_room_id(created), game_id, values, state, seats,
                    rematch_of=None if rematch_of is None else rematch_of.id, created=created,
                    rated=rated, clocks=clocks)
        room.status = "playing" if all(s.joined for s in seats) else "waiting"
        self.rooms.attend(room)
        if room.status == "playing":
            self.moves.start_clocks(room, created)
        self.maker.seat_bots(room)
        chance = secrets.randbits(63) if self.rng is None else self.rng.getrandbits(63)
        state.reseed(chance)
        row = db.RoomRow(room.id, game_id, values, room.status, 0, dealt,
                         [s.row() for s in seats], rematch_of=room.rematch_of,
                         created=room.created, seed=chance, rated=rated, clock=clock,
                         started=room.started)
        await self.store.submit(db.insert_room(row))
        self.rooms.held[room.id] = room
        self.bus.publish(changed(room))
        self.bots.kick(room)
        return room

    def _seat_specs(self, described: Descriptor,
                    specs: Any) -> list[tuple[str, str | None, str | None]]:
        """(kind, level, name) per seat from the request's seat specs."""
        if not isinstance(specs, list) or not specs:
            raise ConfigError(Text("List the seats: each is me, a bot of a level, or a friend."))
        levels = described.levels
        kinds: list[tuple[str, str | None, str | None]] = []
        for spec in specs:
            kind = spec.get("kind") if isinstance(spec, dict) else None
            if kind not in SEAT_KINDS:
                raise ConfigError(Text("Each seat must be me, bot or friend, not {kind!r}.",
                                       kind=kind))
            level = spec.get("level") if kind == "bot" else None
            if kind == "bot" and level not in levels:
                raise ConfigError(Text("A {title} bot's level must be one of "
                                       "{levels}, not {level!r}.", title=described.title,
                                       levels=", ".join(levels), level=level))
            name = read_name(spec.get("name"), self.terms.passes_for_a_label)
            if name is not None and kind != "me":
                raise ConfigError(Text("Only your own seat takes a name here: a friend gives "
                                       "theirs when joining, and bots are named by their "
                                       "level."))
            kinds.append((kind, level, name))
        if sum(kind == "me" for kind, _, _ in kinds) > 1:
            raise ConfigError(Text("Only one seat can be yours: give the others to bots or "
                                   "friends."))
        return kinds

    async def join(self, room_id: Any, invite: Any, name: Any = None,
                   player: str | None = None) -> Json:
        """Take the seat an invite opens, under `name` (for `player`, when known); NotFound
        or db.Conflict otherwise."""
        room = await self.rooms.room(room_id)
        if not isinstance(invite, str) or not invite:
            raise NotFound(Text("That invite is not valid for this room."))
        chosen = read_name(name, self.terms.passes_for_a_label)
        digest = db.secret_hash(invite)
        seat = next((s for s in room.seats
                     if s.invite_hash and hmac.compare_digest(s.invite_hash, digest)), None)
        if seat is None:
            raise NotFound(Text("That invite is not valid for this room."))
        token = await self._take(room, seat, chosen, Text("That invite has already been used."),
                                 player)
        return {"seat": seat.seat, "token": token}

    async def _take(self, room: Room, seat: Seat, name: str | None, refusal: str,
                    player: str | None = None) -> str:
        """Give an open seat to its player under `name`: store it, start the game once every
        seat is taken, tell everyone; the seat's new token. The seat is `player`'s unless
        they hold another of the room's (one playing both sides keeps a token per seat).
        db.Conflict (saying `refusal`) when the seat is taken already."""
        async with room.lock:
            if room.closed is not None:
                raise db.Conflict(room.closed)
            if seat.joined:
                raise db.Conflict(refusal)
            token = new_secret()
            token_hash = db.secret_hash(token)
            full = all(s.joined or s is seat for s in room.seats)
            status = "playing" if full and room.status == "waiting" else room.status
            holder = seat.player if player is None or any(
                s.player == player and s is not seat for s in room.seats) else player
            started = self.clock() if status == "playing" and room.started is None else None
            joining = self.store.submit(db.join_seat(
                room.id, seat.seat, token_hash, name, status, refusal,
                self.rooms.expiry.sentence, holder, started))
            try:
                await joining
            finally:
                if stored(joining):
                    seat.joined, seat.token_hash, seat.name = True, token_hash, name
                    seat.player = holder
                    room.status = status
                    if started is not None:
                        self.moves.start_clocks(room, started)
        room.broadcast()
        self.bus.publish(changed(room, reload=True))
        self.bots.kick(room)
        return token

    @staticmethod
    def _player(room: Room, token: Any) -> int:
        """The seat of `room` that `token` holds; Forbidden for anyone else."""
        seat = room.holder(token) if isinstance(token, str) and token else None
        if seat is None:
            raise Forbidden(Text("Only a player of the finished game can do that, with their "
                                 "seat's token."))
        return seat

    async def rematch(self, room_id: Any, token: Any, player: str | None = None) -> Json:
        """A new room with the finished room's game, options and seats, the asker in their
        seat (as `player`, when known, else as the seat's player before); the others' seats
        wait for them to follow, each kept for the player who held it. Once a rematch
        exists, asking again follows it."""
        room = await self.rooms.room(room_id)
        seat = self._player(room, token)
        if room.status != "over":
            raise db.Conflict(Text("A rematch can be asked for once the game is over."))
        async with room.lock:
            if room.rematch is None:
                fresh = new_secret()
                # A seat a bot took over is its player's again.
                seats = [Seat(s.seat, "human" if s.gone else s.kind,
                              None if s.gone else s.level, None, None,
                              s.kind == "bot" and not s.gone,
                              None if s.kind == "bot" and not s.gone else s.label, s.player)
                         for s in room.seats]
                seats[seat].token_hash, seats[seat].joined = db.secret_hash(fresh), True
                seats[seat].player = player or seats[seat].player
                rematch = await self.open_room(
                    room.game_id, room.state.game, room.options, seats, rematch_of=room,
                    rated=room.rated, clock=None if room.clocks is None else room.clocks.control)
                room.rematch = rematch.id
                room.broadcast()
                self.bus.publish(changed(room, reload=True))
                return {"room": rematch.id, "seat": seat, "token": fresh}
        return await self.follow(room.id, token, player)

    async def follow(self, room_id: Any, token: Any, player: str | None = None) -> Json:
        """Take one's seat in a rematch with one's token of the finished room; `room_id` may
        name either room. Once per seat: db.Conflict after."""
        room = await self.rooms.room(room_id)
        if not isinstance(token, str) or not token:
            raise Forbidden(Text("Follow with your seat's token from the finished game."))
        # A token is one room's: of the room before, when `room` is the rematch; of `room`
        # itself, when `room` is the finished game.
        before = None if room.rematch_of is None else await self.rooms.room(room.rematch_of)
        seat = None if before is None else before.holder(token)
        rematch = room
        if seat is None:
            seat = self._player(room, token)
            if room.rematch is None:
                raise NotFound(Text("Nobody has asked for a rematch of this game yet."))
            rematch = await self.rooms.room(room.rematch)
        fresh = await self._take(rematch, rematch.seats[seat], rematch.seats[seat].name,
                                 Text("That seat has already moved to the rematch."),
                                 player or rematch.seats[seat].player)
        return {"room": rematch.id, "seat": seat, "token": fresh}
