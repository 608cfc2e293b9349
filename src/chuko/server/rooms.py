"""Rooms in play: the engine state, the seats and their secret tokens, the connected clients,
the server's bots, and the one path every move takes.

A move (a player's or a bot's) is checked by the engine on a copy of the state, written to
the database with the game's record, and only then becomes the room's state and is sent to
every client — each client gets a snapshot built from its own seat's `view`, with the
engine's own sentences about the last move and the result as that seat may read them.

Nothing here knows which game a room plays: its rules, options, bot levels, hints and
replays all come from the game's class and descriptor in the registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field, fields
from random import Random
from typing import Any, cast

from chuko.bots import Adviser, make_adviser, make_bot
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Json, State
from chuko.core.words import bot_name, count, seat_names
from chuko.games import game_class

from . import store as db

log = logging.getLogger("chuko.server")

SEAT_KINDS = ("me", "bot", "friend")
MAX_MOVE_TEXT = 300


class NotFound(ChukoError):
    pass


class Forbidden(ChukoError):
    pass


def new_secret() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Seat(db.SeatRow):
    """A stored seat with what only the running room knows: its bot and its connections."""

    bot: Any = None
    connections: int = 0

    @property
    def label(self) -> str:
        """What players call the seat before duplicates are told apart: the room's creator
        is "Host", a seat taken through an invite "Friend", a bot "Hard bot"."""
        if self.kind == "bot":
            return bot_name(str(self.level))
        return "Friend" if self.invite_hash else "Host"

    def row(self) -> db.SeatRow:
        return db.SeatRow(**{f.name: getattr(self, f.name) for f in fields(db.SeatRow)})


class Client:
    """One WebSocket connection's outbox. State snapshots are built when they are sent, so a
    client that falls behind gets the newest one instead of every stale one."""

    def __init__(self, room: Room, seat: int | None) -> None:
        self.room = room
        self.seat = seat
        self._queue: deque[Json | None] = deque()  # None: "send the current state"
        self._wake = asyncio.Event()

    def send(self, message: Json) -> None:
        self._queue.append(message)
        self._wake.set()

    def send_state(self) -> None:
        if None not in self._queue:
            self._queue.append(None)
        self._wake.set()

    async def next_message(self) -> Json:
        while not self._queue:
            self._wake.clear()
            await self._wake.wait()
        message = self._queue.popleft()
        return self.room.snapshot(self.seat) if message is None else message


@dataclass
class Room:
    id: str
    game_id: str
    options: Json
    state: State
    seats: list[Seat]
    version: int = 0
    status: str = "waiting"
    # The last accepted move as (seat, move value): worded per reader when a snapshot is built.
    last_move: tuple[int, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task | None = None
    adviser: Adviser | None = None
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = seat_names([seat.label for seat in self.seats])

    @property
    def descriptor(self) -> Descriptor:
        return self.state.game.descriptor

    @property
    def hintable(self) -> bool:
        """Hints where the game gives them and no second human plays (web protocol)."""
        return (self.descriptor.hints is not None
                and sum(s.kind == "human" for s in self.seats) <= 1)

    def seat_for(self, token: str | None) -> int | None:
        """The seat a token holds, None for no token (a spectator); Forbidden otherwise."""
        if not token:
            return None
        digest = db.secret_hash(token)
        for seat in self.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise Forbidden("That link's token does not hold a seat in this room.")

    def legal(self, seat: int | None) -> list[str] | None:
        """The seat's legal moves as text; None where the game has too many to list."""
        if not self.state.game.lists_moves:
            return None
        if seat is None or self.status != "playing" or seat not in self.state.to_move:
            return []
        return [str(m) for m in self.state.legal_moves(seat)]

    def seats_json(self) -> list[Json]:
        return [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": self.names[s.seat]}
                for s in self.seats]

    def last_sentence(self, seat: int | None) -> str | None:
        """The last move as `seat` may know it ("You…" to the mover); None before any."""
        if self.last_move is None:
            return None
        mover, move = self.last_move
        return self.state.describe(mover, move, self.names, seat)

    def snapshot(self, seat: int | None) -> Json:
        outcome = self.state.outcome
        message: Json = {
            "type": "state",
            "room": self.id,
            "game": self.game_id,
            "title": self.descriptor.title,
            "seat": seat,
            "status": self.status,
            "seats": [
                {**entry, "connected": s.kind == "bot" or s.connections > 0, "joined": s.joined}
                for entry, s in zip(self.seats_json(), self.seats, strict=True)
            ],
            "version": self.version,
            "view": self.state.view(seat),
            "last": self.last_sentence(seat),
            "result": None if outcome is None else outcome.describe(self.names, seat),
            "simultaneous": self.descriptor.simultaneous,
            "hints": self.descriptor.hints is not None,
            "hintable": self.hintable,
        }
        legal = self.legal(seat)
        if legal is not None:
            message["legal"] = legal
        return message

    def forget(self, client: Client) -> bool:
        """Drop a client; True when a finished room has nobody left (it may leave memory)."""
        self.clients.discard(client)
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
            self.broadcast()
        return self.status == "over" and not self.clients

    def join(self, client: Client) -> None:
        self.clients.add(client)
        if client.seat is not None:
            self.seats[client.seat].connections += 1
            self.broadcast()

    def broadcast(self) -> None:
        for client in self.clients:
            client.send_state()

    def bots_to_move(self) -> list[Seat]:
        if self.status != "playing":
            return []
        return [self.seats[s] for s in self.state.to_move if self.seats[s].kind == "bot"]


class Hub:
    """Every room the server knows, and the operations the HTTP and WebSocket routes call."""

    def __init__(self, store: db.Store, *, bot_delay: float = 0.6, rng: Random | None = None,
                 bot_options: dict[str, dict[str, Any]] | None = None) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        # Tests pass a seeded rng; a real server deals and plays its bots from `secrets`.
        self.rng = rng
        self.bot_options = bot_options or {}
        self._closing = False

    # -- lifecycle --------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild every unfinished room from its record and start its bots; the count."""
        count = 0
        for row in self.store.unfinished():
            try:
                room = self._room_from_row(row)
            except ChukoError as error:
                log.error("Room %s cannot be restored: %s", row.id, error)
                continue
            self.rooms[room.id] = room
            self.kick(room)
            count += 1
        return count

    async def close(self) -> None:
        self._closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _room_from_row(self, row: db.RoomRow) -> Room:
        """The room as it was: its record replayed through the engine, which also gives back
        the last move, so `last` reads the same after a restart."""
        last: list[tuple[int, Any]] = []  # the latest move the replay went through

        def observe(state: State, seat: int | None, move: Any) -> None:
            if seat is not None:
                last[:] = [(seat, move)]

        state = game_class(row.game).replay(row.record, observe)
        seats = [Seat(s.seat, s.kind, s.level, s.token_hash, s.invite_hash, s.joined)
                 for s in row.seats]
        room = Room(row.id, row.game, row.options, state, seats, row.version, row.status,
                    last[0] if last else None)
        self._make_bots(room)
        return room

    def _child_rng(self) -> Random:
        return secrets.SystemRandom() if self.rng is None else Random(self.rng.getrandbits(64))

    def _make_bots(self, room: Room) -> None:
        for seat in room.seats:
            if seat.kind == "bot" and seat.level is not None:
                options = self.bot_options.get(room.game_id, {}).get(seat.level, {})
                seat.bot = make_bot(room.game_id, seat.level, self._child_rng(), **options)

    # -- rooms ---------------------------------------------------------------------------------

    async def room(self, room_id: str) -> Room:
        """A room by id, loaded from the database if it is not in memory (a finished game)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        row = None
        if isinstance(room_id, str) and 0 < len(room_id) <= 32:
            row = await asyncio.to_thread(self.store.load, room_id)
        if row is None:
            raise NotFound(f"There is no room {room_id!r}.")
        room = self.rooms.get(room_id) or self._room_from_row(row)
        self.rooms[room_id] = room
        return room

    async def create(self, game_id: Any, options: Any, seat_specs: Any) -> Json:
        """Make a room; the creator holds the first 'me' seat. ConfigError for bad input."""
        if not isinstance(game_id, str):
            raise ConfigError("Say which game the room plays.")
        rules = game_class(game_id)
        kinds = self._seat_specs(rules.descriptor, seat_specs)
        game = rules.from_options(options, bots_only=all(kind == "bot" for kind, _ in kinds))
        values = rules.descriptor.read_options(options)  # stored with defaults filled in
        if len(kinds) != game.players:
            raise ConfigError(f"This {game.title} game has {count(game.players, 'seat')}, "
                              f"but {len(kinds)} were given.")
        seed = None if self.rng is None else self.rng.getrandbits(64)
        state = game.new(seed)
        room_id = secrets.token_urlsafe(8)
        token, seat_of_creator, invites, seats = None, None, [], []
        for number, (kind, level) in enumerate(kinds):
            seat = Seat(number, "bot" if kind == "bot" else "human", level, None, None,
                        kind != "friend")
            if kind == "me":
                token, seat_of_creator = new_secret(), number
                seat.token_hash = db.secret_hash(token)
            elif kind == "friend":
                invite = new_secret()
                seat.invite_hash = db.secret_hash(invite)
                invites.append({"seat": number, "url": f"/join/{room_id}/{invite}"})
            seats.append(seat)
        room = Room(room_id, game_id, values, state, seats)
        room.status = "playing" if all(s.joined for s in seats) else "waiting"
        self._make_bots(room)
        row = db.RoomRow(room_id, game_id, values, room.status, 0, state.record(),
                         [s.row() for s in seats])
        await asyncio.shield(self.store.submit(db.insert_room(row)))
        self.rooms[room_id] = room
        self.kick(room)
        return {"room": room_id, "seat": seat_of_creator, "token": token, "invites": invites,
                "watch_url": f"/watch/{room_id}"}

    @staticmethod
    def _seat_specs(described: Descriptor, specs: Any) -> list[tuple[str, str | None]]:
        if not isinstance(specs, list) or not specs:
            raise ConfigError("List the seats: each is me, a bot of a level, or a friend.")
        levels = described.levels
        kinds: list[tuple[str, str | None]] = []
        for spec in specs:
            kind = spec.get("kind") if isinstance(spec, dict) else None
            if kind not in SEAT_KINDS:
                raise ConfigError(f"Each seat must be me, bot or friend, not {kind!r}.")
            level = spec.get("level") if kind == "bot" else None
            if kind == "bot" and level not in levels:
                raise ConfigError(f"A {described.title} bot's level must be one of "
                                  f"{', '.join(levels)}, not {level!r}.")
            kinds.append((kind, level))
        if sum(kind == "me" for kind, _ in kinds) > 1:
            raise ConfigError("Only one seat can be yours: give the others to bots or friends.")
        return kinds

    async def join(self, room_id: Any, invite: Any) -> Json:
        """Take the seat an invite opens; NotFound or db.Conflict otherwise."""
        room = await self.room(room_id)
        if not isinstance(invite, str) or not invite:
            raise NotFound("That invite is not valid for this room.")
        digest = db.secret_hash(invite)
        async with room.lock:
            seat = next((s for s in room.seats
                         if s.invite_hash and hmac.compare_digest(s.invite_hash, digest)), None)
            if seat is None:
                raise NotFound("That invite is not valid for this room.")
            if seat.joined:
                raise db.Conflict("That invite has already been used.")
            token = new_secret()
            full = all(s.joined or s is seat for s in room.seats)
            status = "playing" if full and room.status == "waiting" else room.status
            await asyncio.shield(self.store.submit(
                db.join_seat(room.id, seat.seat, db.secret_hash(token), status)))
            seat.joined, seat.token_hash, room.status = True, db.secret_hash(token), status
        room.broadcast()
        self.kick(room)
        return {"seat": seat.seat, "token": token}

    # -- moves ---------------------------------------------------------------------------------

    async def play(self, room: Room, seat: int | None, text: Any) -> None:
        """Apply `seat`'s move through the engine, store it, then tell everyone; ChukoError
        (with a sentence for that client) when refused, changing nothing."""
        if seat is None:
            raise Forbidden("Spectators cannot move.")
        if not isinstance(text, str) or not text.strip():
            raise ConfigError('A move message needs the move as text: {"type": "move", '
                              '"move": "…"}.')
        if len(text) > MAX_MOVE_TEXT:
            raise ConfigError("That move is far too long to be a move.")
        async with room.lock:
            if room.status == "waiting":
                raise ConfigError("The game starts when every seat is taken.")
            if room.status == "over":
                raise ConfigError("The game is over.")
            after = room.state.copy()
            move = after.game.parse_move(text)
            after.play(seat, move)
            status = "over" if after.outcome is not None else "playing"
            number = room.version + 1
            write = db.append_move(room.id, number, seat, str(move), after.record(), status)
            # Shielded: if this coroutine is cancelled, the commit still lands and the room
            # still takes the new state, so memory and database never disagree.
            commit = self.store.submit(write)
            commit.add_done_callback(
                lambda done: self._accepted(done, room, number, after, status, (seat, move)))
            await asyncio.shield(commit)
        self.kick(room)

    def _accepted(self, done: asyncio.Future, room: Room, number: int, after: State, status: str,
                  last_move: tuple[int, Any]) -> None:
        if done.cancelled() or done.exception() is not None:
            return
        room.state, room.version, room.status = after, number, status
        room.last_move = last_move
        room.broadcast()

    def kick(self, room: Room) -> None:
        """Start the room's bots if one of them must move and none is thinking already."""
        if self._closing or not room.bots_to_move():
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._bots(room))

    async def _bots(self, room: Room) -> None:
        while not self._closing:
            waiting = room.bots_to_move()
            if not waiting:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)  # so people can follow the bots' moves
            seat = waiting[0]
            state = room.state
            legal = state.legal_moves(seat.seat) if state.game.lists_moves else []
            try:
                move = await asyncio.to_thread(seat.bot.choose, state.view(seat.seat), legal)
                await self.play(room, seat.seat, str(move))
            except Exception:  # a bug in a bot must not take the server down; say so
                log.exception("Room %s: the %s bot of seat %d failed.", room.id, seat.level,
                              seat.seat)
                return

    # -- hints -----------------------------------------------------------------------------------

    async def hint(self, room: Room, seat: int | None) -> Json:
        if seat is None:
            raise Forbidden("Spectators get no hints.")
        if room.descriptor.hints is None:
            raise ConfigError(f"{room.descriptor.title} gives no hints.")
        if not room.hintable:
            raise ConfigError("Hints are only for games without a second human player.")
        if room.status != "playing" or seat not in room.state.to_move:
            raise ConfigError("Hints are given on your turn.")
        if room.adviser is None:
            # Made once per room: an adviser may keep what it learns about the deal. The
            # descriptor names a provider (checked above), so one is made.
            room.adviser = cast(Adviser, await asyncio.to_thread(make_adviser, room.state.game))
        state = room.state.copy()
        return {"type": "hint", **await asyncio.to_thread(room.adviser.hint, state, seat)}

    # -- replays -------------------------------------------------------------------------------

    def replay(self, room: Room, seat: int | None) -> Json:
        """Every position of a finished game as `seat` saw it, each with the engine's sentence
        about the move that led to it."""
        if room.status != "over":
            raise db.Conflict("The replay opens once the game is over.")
        frames = room.state.game.frames(room.state.record(), room.names, seat)
        return {"game": room.game_id, "title": room.descriptor.title,
                "seats": room.seats_json(), "frames": frames}
