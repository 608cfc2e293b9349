"""Rooms in play: the engine state, the seats and their secret tokens, the connected clients,
the server's bots, and the one path every move takes.

A move (a player's or a bot's) is checked by the engine on a copy of the state, appended to
the room's move log in the database, and only then becomes the room's state and is sent to
every client — each client gets a snapshot built from its own seat's `view`, with the
engine's own sentences about the last move and the result as that seat may read them.
A state is never changed once it has been replaced, so a client that is behind is sent
each version in turn, built from the state of that version (`Moment`).

Between rounds the bots wait (`Pause`) so people can read the round's result; a finished
room can be played again with the same seats (`Hub.rematch`, `Hub.follow`).

A socket coming or going changes no state: when it changes whether its seat shows as
connected, the room's other clients get one small `presence` message, and the new client
alone gets a state. Rooms are loaded from the database when first asked for; at start only
the rooms in play with bots, which may have moves to make, are rebuilt. A room still
waiting for its players `waiting_ttl` seconds after it was made expires: on the next
request for it, or at the sweep that runs at start and then now and then.

A room is stored as the record of its deal, a secret seed and its moves (`store.py`), and
rebuilt from them (`rebuild`). Its history goes out a page at a time (`pages.py`).

Nothing here knows which game a room plays: its rules, options, bot levels, hints and
replays all come from the game's class and descriptor in the registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from functools import partial
from random import Random
from typing import Any, Protocol, TypeVar, cast

from chuko.bots import Adviser, make_adviser, make_bot, review
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.words import bot_name, count, seat_names
from chuko.games import game_class

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the web extra installs it
    _orjson = None  # type: ignore[assignment]

from . import pages
from . import store as db
from .work import Pool


class ClusterPart(Protocol):
    """What the hub asks of this worker's part in a cluster (`cluster.Cluster`): named here,
    so that rooms need not import the cluster, which is built on them."""

    leader: bool  # this worker runs the bots and timers

    def publish(self, room_id: str, version: int, *, reload: bool = False, bots: bool = False,
                kind: str = "change") -> None: ...


log = logging.getLogger("chuko.server")
T = TypeVar("T")

SEAT_KINDS = ("me", "bot", "friend")
MAX_MOVE_TEXT = 300
MAX_NAME = 24
# State messages a client may have waiting; past this it is cut off and reconnects, which
# costs one replay of the record, instead of the server holding every version for it.
MAX_BEHIND = 256
WAITING_TTL = 24 * 3600.0  # seconds a room may wait for its players before it expires
SWEEP_EVERY = 3600.0  # the longest time between two sweeps for rooms that have waited too long
# Times a move is checked again after another worker stored one first (a cluster's race).
CONFLICT_RETRIES = 3
MOVE_NOT_SAVED = ("The game cannot be saved right now; your move was not played. Try again "
                  "in a moment.")


def dumps(message: Json) -> str:
    """A message as the socket sends it: compact JSON (UTF-8 text, not escaped), by orjson
    where it is installed (the `web` extra: a tenth of the time, which is a few percent of
    what a move costs the server), else by `json`; `json` too for what orjson refuses
    (keys that are not text, integers past 64 bits)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(message).decode()
        except TypeError:
            pass
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def expired_sentence(ttl: float) -> str:
    """What an expired room's pages and refused joins say."""
    span = (count(round(ttl / 3600), "hour") if ttl >= 3600
            else count(max(1, round(ttl / 60)), "minute"))
    return (f"This room has closed: its seats were not all taken within {span}. "
            "Start a new game from the home page.")


def stored(write: asyncio.Future) -> bool:
    """Whether a write the store was given is committed. Its waiter then makes memory
    follow even when it was cancelled meanwhile (the store's futures cannot be, so they
    are done when the waiter goes on): memory and database never disagree."""
    return write.done() and write.exception() is None


class NotFound(ChukoError):
    pass


class Forbidden(ChukoError):
    pass


def new_secret() -> str:
    return secrets.token_urlsafe(18)


def new_room_id(created: float) -> str:
    """A room's id: the second it was made, as 8 hex digits, then 64 secret bits (an id
    cannot be guessed). Ids sort by age, so the rooms in play and their moves sit together
    at the end of the database's indexes: a commit of many moves writes a few index pages,
    not one for each room (random ids spread them over the whole index)."""
    return f"{int(created):08x}{secrets.token_urlsafe(8)}"


def read_name(value: Any) -> str | None:
    """A player's display name as given in a request, trimmed; None when none is given,
    ConfigError (one sentence) when it is not one."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError("A name must be text.")
    name = value.strip()
    if not name:
        raise ConfigError("A name needs at least one character that is not a space.")
    if len(name) > MAX_NAME:
        raise ConfigError(f"A name can have at most {MAX_NAME} characters, not {len(name)}.")
    if not name.isprintable():
        raise ConfigError("A name cannot hold line breaks, tabs or other control characters.")
    if name.casefold() == "you":
        raise ConfigError('Every player reads "You" for themselves; choose another name.')
    return name


@dataclass
class Seat(db.SeatRow):
    """A stored seat with what only the running room knows: its bot and its connections."""

    bot: Any = None
    connections: int = 0

    @property
    def label(self) -> str:
        """What players call the seat before duplicates are told apart: its player's name,
        else "Host" for the room's creator and "Friend" for a seat taken through an invite;
        a bot is "Hard bot"."""
        if self.kind == "bot":
            return bot_name(str(self.level))
        if self.name:
            return self.name
        return "Friend" if self.invite_hash else "Host"

    @property
    def connected(self) -> bool:
        """A bot always is; a person while one of their sockets is open."""
        return self.kind == "bot" or self.connections > 0

    def row(self) -> db.SeatRow:
        return db.SeatRow(**{f.name: getattr(self, f.name) for f in fields(db.SeatRow)})


@dataclass(frozen=True)
class Moment:
    """The room at one version, as far as its state messages depend on the version."""

    state: State
    version: int
    status: str
    # The last accepted move as (seat, move value): worded per reader when a snapshot is built.
    last_move: tuple[int, Any] | None


@dataclass
class Pause:
    """Bots waiting after the move of `version` ended a round, until `until` (monotonic
    seconds) or until a seat sets `over`."""

    version: int
    until: float
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def left(self) -> float:
        return max(0.0, self.until - time.monotonic())


class Client:
    """One WebSocket connection's outbox. State snapshots are built when they are sent, from
    the moment each was queued for: every version reaches the client, so the `last` of each
    move does and its move log stays whole; states of one version (seats coming and going)
    are sent once, the newest. The outbox gives out JSON text, ready for the socket (a
    state's text is shared with the room's other clients that read it alike: `state_text`)."""

    __slots__ = ("room", "seat", "_queue", "_waiter", "cut_off")

    def __init__(self, room: Room, seat: int | None) -> None:
        self.room = room
        self.seat = seat
        self._queue: deque[Json | Moment] = deque()
        # The sender's wait for the next message: a future only while it waits (an Event
        # would be two more objects per socket for the collector to walk).
        self._waiter: asyncio.Future[None] | None = None
        self.cut_off = False  # fell MAX_BEHIND states behind: its socket is closed

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def send(self, message: Json) -> None:
        self._queue.append(message)
        self._wake()

    def send_presence(self, message: Json) -> None:
        """Queue a presence message; one still queued is replaced, since the newest tells
        all (so sockets coming and going cannot fill the outbox)."""
        queued = self._queue[-1] if self._queue else None
        if isinstance(queued, dict) and queued.get("type") == "presence":
            self._queue[-1] = message
        else:
            self.send(message)

    def send_first(self, message: Json) -> None:
        self._queue.appendleft(message)
        self._wake()

    def send_state(self, moment: Moment) -> None:
        queued = self._queue[-1] if self._queue else None
        if isinstance(queued, Moment) and queued.version == moment.version:
            self._queue[-1] = moment
        elif len(self._queue) >= MAX_BEHIND:
            self._queue.clear()
            self.cut_off = True
        else:
            self._queue.append(moment)
        self._wake()

    async def next_message(self) -> str | None:
        """The next message to send, as JSON text; None once the client is cut off."""
        while not self._queue and not self.cut_off:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self.cut_off:
            return None
        message = self._queue.popleft()
        if isinstance(message, Moment):
            return self.room.state_text(self.seat, message)
        return dumps(message)


@dataclass
class Room:
    id: str
    game_id: str
    options: Json
    state: State
    seats: list[Seat]
    version: int = 0
    status: str = "waiting"
    last_move: tuple[int, Any] | None = None
    rematch: str | None = None  # the id of this finished room's rematch, once asked for
    rematch_of: str | None = None  # the finished room this one is the rematch of
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task | None = None
    adviser: Adviser | None = None
    pause: Pause | None = None
    created: float = 0.0  # the hub's clock when the room was made
    closed: str | None = None  # why an expired room closed, in one sentence
    # (labels, names, the seats' entries in messages), worked out again only when a label
    # changes (a player joins under a name), not for each client at each move. One value,
    # replaced whole, since the log's captions read the names from a worker thread.
    _named: tuple[tuple[str, ...], list[str], list[Json]] = field(
        default=((), [], []), init=False, repr=False)
    # Parts of the current version's state messages as JSON text (`state_text`), so that
    # sockets reading alike share one view and one serialization; dropped at the next
    # version, so a room keeps a few messages at most.
    _texts: dict[tuple[Any, ...], str] = field(default_factory=dict, init=False, repr=False)
    _texts_version: int = field(default=-1, init=False, repr=False)

    @property
    def names(self) -> list[str]:
        """What every sentence calls each seat (a seat's name may come with its player)."""
        return self._naming()[1]

    def _naming(self) -> tuple[tuple[str, ...], list[str], list[Json]]:
        labels = tuple(seat.label for seat in self.seats)
        named = self._named
        if labels != named[0]:
            names = seat_names(labels)
            named = self._named = (labels, names, [
                {"seat": s.seat, "kind": s.kind, "level": s.level, "name": name}
                for s, name in zip(self.seats, names, strict=True)])
        return named

    @property
    def descriptor(self) -> Descriptor:
        return self.state.game.descriptor

    def moment(self) -> Moment:
        return Moment(self.state, self.version, self.status, self.last_move)

    @property
    def hintable(self) -> bool:
        """Hints where the game gives them and no second human plays (web protocol)."""
        return (self.descriptor.hints is not None
                and sum(s.kind == "human" for s in self.seats) <= 1)

    def holder(self, token: str) -> int | None:
        """The seat `token` holds here, if any."""
        digest = db.secret_hash(token)
        for seat in self.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def seat_for(self, token: str | None) -> int | None:
        """The seat a token holds, None for no token (a spectator); Forbidden otherwise."""
        if not token:
            return None
        seat = self.holder(token)
        if seat is None:
            raise Forbidden("That link's token does not hold a seat in this room.")
        return seat

    @staticmethod
    def legal(seat: int | None, moment: Moment) -> list[str] | None:
        """The seat's legal moves as text; None where the game has too many to list."""
        state = moment.state
        if not state.game.lists_moves:
            return None
        if seat is None or moment.status != "playing" or seat not in state.to_move:
            return []
        return [str(m) for m in state.legal_moves(seat)]

    def seats_json(self) -> list[Json]:
        """Each seat's entry in messages: {seat, kind, level, name} (shared: not to change)."""
        return self._naming()[2]

    def bots_wait(self, version: int) -> float | None:
        """Seconds the bots still wait after the round that the move of `version` ended."""
        pause = self.pause
        if pause is None or pause.version != version or pause.over.is_set():
            return None
        return round(pause.left(), 1)

    def snapshot(self, seat: int | None, moment: Moment | None = None) -> Json:
        """The state message for `seat` (None: a spectator) at `moment` (default: now)."""
        return cast(Json, json.loads(self.state_text(seat, moment)))

    def state_text(self, seat: int | None, moment: Moment | None = None) -> str:
        """The state message for `seat` at `moment` (default: now) as JSON text: the part
        every reader shares (the room, the seats and their presence, the version …) and the
        reader's own (its `view(seat)`, its legal moves, the sentences as it reads them),
        each made once per version and kept until the next, so a seat's sockets share one
        view and spectators all share theirs."""
        moment = moment or self.moment()
        labels, names, entries = self._naming()
        if moment.version == self.version != self._texts_version:
            # A new version: the parts kept for the one before are not wanted again, but
            # by clients that are behind, which build their own.
            self._texts.clear()
            self._texts_version = moment.version
        keep = moment.version == self._texts_version
        bots_wait = self.bots_wait(moment.version)
        shared_key = (None, moment.status, bots_wait, self.rematch, labels,
                      tuple((s.connected, s.joined) for s in self.seats))
        shared = self._texts.get(shared_key) if keep else None
        if shared is None:
            shared = dumps({
                "type": "state",
                "room": self.id,
                "game": self.game_id,
                "title": self.descriptor.title,
                "status": moment.status,
                "seats": [{**entry, "connected": s.connected, "joined": s.joined}
                          for entry, s in zip(entries, self.seats, strict=True)],
                "version": moment.version,
                "round_ended": moment.state.round_ended,
                "bots_wait": bots_wait,
                "rematch": self.rematch,
                "simultaneous": self.descriptor.simultaneous,
                "hints": self.descriptor.hints is not None,
                "hintable": self.hintable,
            })[:-1]
            if keep:
                self._texts[shared_key] = shared
        own_key = ("seat", seat, moment.status, self.closed, labels)
        own = self._texts.get(own_key) if keep else None
        if own is None:
            own = dumps(self._own(seat, moment, names))[1:]
            if keep:
                self._texts[own_key] = own
        return f"{shared},{own}"

    def _own(self, seat: int | None, moment: Moment, names: list[str]) -> Json:
        """What only `seat` reads in the state message at `moment`: everything that passes
        through its `view(seat)` or is worded for it (with `names`)."""
        state = moment.state
        outcome = state.outcome
        last = None
        if moment.last_move is not None:
            mover, move = moment.last_move
            last = state.describe(mover, move, names, seat)
        message: Json = {
            "seat": seat,
            "spectator": seat is None,
            "view": state.view(seat),
            "last": last,
            "result": self.closed if outcome is None else outcome.describe(names, seat),
        }
        legal = self.legal(seat, moment)
        if legal is not None:
            message["legal"] = legal
        return message

    def forget(self, client: Client) -> bool:
        """Drop a client; True when a finished or expired room has nobody left (it may leave
        memory)."""
        self.clients.discard(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections -= 1
            if seat.connections == 0:
                self.tell_presence()
        return self.status in ("over", "expired") and not self.clients

    def join(self, client: Client) -> None:
        """Add a client and send it the state now; the others learn of it only when its seat
        now shows as connected."""
        self.clients.add(client)
        client.send_state(self.moment())
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections += 1
            if seat.connections == 1:
                self.tell_presence(client)

    def tell_presence(self, joining: Client | None = None) -> None:
        """Every seat's presence to every client but `joining` (whose state says it)."""
        message = {"type": "presence", "seats": [
            {"seat": s.seat, "connected": s.connected} for s in self.seats]}
        for client in self.clients:
            if client is not joining:
                client.send_presence(message)

    def broadcast(self) -> None:
        moment = self.moment()
        for client in self.clients:
            client.send_state(moment)

    def bots_to_move(self) -> list[Seat]:
        if self.status != "playing":
            return []
        return [self.seats[s] for s in self.state.to_move if self.seats[s].kind == "bot"]


def rebuild(row: db.RoomRow) -> tuple[State, tuple[int, Any] | None]:
    """A stored game as it was, and its last move as (seat, move value): the header's
    record replayed through the engine, the state reseeded with the room's secret seed so
    that chance comes out as it did, then every move of the log played again (each checked
    anew). ChukoError when the stored game does not hold together."""
    last: list[tuple[int, Any]] = []  # the latest move the replay went through

    def observe(state: State, seat: int | None, move: Any) -> None:
        if seat is not None:
            last[:] = [(seat, move)]

    state = game_class(row.game).replay(row.record, observe)
    if row.seed is not None:
        state.reseed(row.seed)
    for seat, text in row.moves:
        move = state.game.parse_move(text)
        state.play(seat, move)
        last[:] = [(seat, move)]
    if row.base + len(row.moves) != row.version:
        raise ConfigError(f"The room is at move {row.version}, but its log holds "
                          f"{row.base + len(row.moves)}.")
    return state, last[0] if last else None


class Hub:
    """Every room the server knows, and the operations the HTTP and WebSocket routes call."""

    def __init__(self, store: db.Store, *, bot_delay: float = 0.6, round_pause: float = 4.0,
                 rng: Random | None = None,
                 bot_options: dict[str, dict[str, Any]] | None = None,
                 waiting_ttl: float = WAITING_TTL,
                 clock: Callable[[], float] = time.time, work: Pool | None = None) -> None:
        self.store = store
        self.waiting_ttl = waiting_ttl
        self.clock = clock  # seconds since the epoch; tests pass their own
        self._sweeper: asyncio.Task | None = None
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        # Tests pass a seeded rng; a real server deals and plays its bots from `secrets`.
        self.rng = rng
        self.bot_options = bot_options or {}
        self._closing = False
        self.pages = pages.Lru()  # captions, replay chunks and reviews, by room and version
        # Hints and pages not kept are worked out here, never in the threads moves use.
        self.work = work or Pool()
        # This worker's part in a cluster of workers sharing rooms (cluster.py); None: alone.
        self.cluster: ClusterPart | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild the rooms in play with bots (whose bots may have moves to make) and start
        them, and start the sweep for rooms that waited too long; the count rebuilt. Other
        rooms are loaded when first asked for. In a cluster, the worker that takes the lease
        does this (`lead`)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        count = 0
        for row in self.store.resumable():
            held = self.rooms.get(row.id)
            if held is not None:  # in memory already, and kept up to date
                self.kick(held)
                continue
            try:
                room = self._room_from_row(row)
            except ChukoError as error:
                log.error("Room %s cannot be restored: %s", row.id, error)
                continue
            self.rooms[room.id] = room
            self.kick(room)
            count += 1
        return count

    def lead(self) -> None:
        """This worker took the cluster's lease: it runs the bots and the sweep now."""
        if not self._closing:
            self.restore()

    def step_down(self) -> list[asyncio.Task]:
        """Stop the bots and the sweep (another worker runs them now); the tasks stopped."""
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
            self._sweeper = None
        for task in tasks:
            task.cancel()
        return tasks

    async def close(self) -> None:
        self._closing = True
        for task in self.step_down():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _room_from_row(self, row: db.RoomRow) -> Room:
        """The room as it was (`rebuild`), its last move too, so `last` reads the same after
        a restart."""
        state, last = rebuild(row)
        seats = [Seat(s.seat, s.kind, s.level, s.token_hash, s.invite_hash, s.joined, s.name)
                 for s in row.seats]
        room = Room(row.id, row.game, row.options, state, seats, row.version, row.status,
                    last, row.rematch, row.rematch_of, created=row.created)
        if room.status == "expired":
            room.closed = expired_sentence(self.waiting_ttl)
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
        """A room by id, loaded from the database if it is not in memory; a room that has
        waited too long for its players expires now."""
        room = self.rooms.get(room_id)
        if room is None:
            row = None
            if isinstance(room_id, str) and 0 < len(room_id) <= 32:
                row = await asyncio.to_thread(self.store.load, room_id)
            if row is None:
                raise NotFound(f"There is no room {room_id!r}.")
            room = self.rooms.get(room_id)
            if room is None:
                room = self.rooms[room_id] = self._room_from_row(row)
                if self.cluster is not None:
                    # A move another worker stored while the row was being read was announced
                    # before this worker held the room, so nothing here caught it up.
                    async with room.lock:
                        await self.catch_up(room)
                self.kick(room)
        elif self.cluster is not None and (room.status == "waiting" or (
                room.status == "over" and room.rematch is None)):
            # A seat taken or a rematch asked for on another worker may not have been
            # announced yet, and its player may come here next: read the header again.
            async with room.lock:
                await self.catch_up(room, reload=True)
        if room.status == "waiting" and room.created <= self.clock() - self.waiting_ttl:
            await self._expire(room)
        return room

    async def _expire(self, room: Room) -> None:
        """Close a room that has waited too long (unless a join got in first), store it and
        tell its clients."""
        async with room.lock:
            if room.status != "waiting":
                return
            cutoff = self.clock() - self.waiting_ttl
            closing = self.store.submit(db.expire_waiting(cutoff, room.id))
            try:
                await closing
            finally:
                if stored(closing):
                    room.status, room.closed = "expired", expired_sentence(self.waiting_ttl)
        room.broadcast()
        self._tell(room, reload=True)

    async def sweep(self) -> int:
        """Expire every room, stored or in memory, that has waited too long; rooms in memory
        that nobody watches leave it. How many stored rooms were closed."""
        cutoff = self.clock() - self.waiting_ttl
        expired = await self.store.submit(db.expire_waiting(cutoff))
        closed = len(expired)
        if self.cluster is not None:
            for room_id in expired:
                self.cluster.publish(room_id, 0, reload=True)
        for room in list(self.rooms.values()):
            if room.status == "waiting" and room.created <= cutoff:
                await self._expire(room)
                if not room.clients:
                    self.rooms.pop(room.id, None)
        return closed

    async def _sweep_now_and_then(self) -> None:
        while not self._closing:
            try:
                closed = await self.sweep()
            except db.Unavailable:
                log.warning("The sweep for expired rooms waits for the database.")
            except Exception:  # a failed sweep must not stop the next one
                log.exception("The sweep for expired rooms failed.")
            else:
                if closed:
                    log.info("Closed %d room(s) that waited too long for players.", closed)
            await asyncio.sleep(min(SWEEP_EVERY, max(self.waiting_ttl / 4, 1.0)))

    async def create(self, game_id: Any, options: Any, seat_specs: Any) -> Json:
        """Make a room; the creator holds the first 'me' seat. ConfigError for bad input."""
        if not isinstance(game_id, str):
            raise ConfigError("Say which game the room plays.")
        rules = game_class(game_id)
        specs = self._seat_specs(rules.descriptor, seat_specs)
        bots_only = all(kind == "bot" for kind, _, _ in specs)
        # Stored with defaults filled in, within what a shared server allows.
        values = rules.descriptor.read_online(options, bots_only=bots_only)
        game = rules.configure(values, bots_only=bots_only)
        if len(specs) != game.players:
            raise ConfigError(f"This {game.title} game has {count(game.players, 'seat')}, "
                              f"but {len(specs)} were given.")
        token, seat_of_creator, invites, seats = None, None, [], []
        for number, (kind, level, name) in enumerate(specs):
            seat = Seat(number, "bot" if kind == "bot" else "human", level, None, None,
                        kind != "friend", name)
            if kind == "me":
                token, seat_of_creator = new_secret(), number
                seat.token_hash = db.secret_hash(token)
            elif kind == "friend":
                invite = new_secret()
                seat.invite_hash = db.secret_hash(invite)
                invites.append({"seat": number, "invite": invite})
            seats.append(seat)
        room = await self._open(game_id, game, values, seats)
        return {"room": room.id, "seat": seat_of_creator, "token": token,
                "invites": [{"seat": i["seat"], "url": f"/join/{room.id}/{i['invite']}"}
                            for i in invites],
                "watch_url": f"/watch/{room.id}"}

    async def _open(self, game_id: str, game: Game, values: Json, seats: list[Seat],
                    rematch_of: Room | None = None) -> Room:
        """Deal a new room for `seats`, store it (and link it to the room it is the rematch
        of), and let its bots start. Its later chance is drawn from a secret seed, stored
        with the deal, so the game can be rebuilt as it went."""
        # A deal from 128 secret bits: as unguessable as one drawn card by card from the
        # system's generator (`new(None)`), which costs a system call per card.
        seed = secrets.randbits(128) if self.rng is None else self.rng.getrandbits(64)
        state = game.new(seed)
        dealt = state.record()
        created = self.clock()
        room = Room(new_room_id(created), game_id, values, state, seats,
                    rematch_of=None if rematch_of is None else rematch_of.id, created=created)
        room.status = "playing" if all(s.joined for s in seats) else "waiting"
        self._make_bots(room)
        chance = secrets.randbits(63) if self.rng is None else self.rng.getrandbits(63)
        state.reseed(chance)
        row = db.RoomRow(room.id, game_id, values, room.status, 0, dealt,
                         [s.row() for s in seats], rematch_of=room.rematch_of,
                         created=room.created, seed=chance)
        await self.store.submit(db.insert_room(row))
        self.rooms[room.id] = room
        self._tell(room)
        self.kick(room)
        return room

    @staticmethod
    def _seat_specs(described: Descriptor, specs: Any) -> list[tuple[str, str | None,
                                                                     str | None]]:
        """(kind, level, name) per seat from the request's seat specs."""
        if not isinstance(specs, list) or not specs:
            raise ConfigError("List the seats: each is me, a bot of a level, or a friend.")
        levels = described.levels
        kinds: list[tuple[str, str | None, str | None]] = []
        for spec in specs:
            kind = spec.get("kind") if isinstance(spec, dict) else None
            if kind not in SEAT_KINDS:
                raise ConfigError(f"Each seat must be me, bot or friend, not {kind!r}.")
            level = spec.get("level") if kind == "bot" else None
            if kind == "bot" and level not in levels:
                raise ConfigError(f"A {described.title} bot's level must be one of "
                                  f"{', '.join(levels)}, not {level!r}.")
            name = read_name(spec.get("name"))
            if name is not None and kind != "me":
                raise ConfigError("Only your own seat takes a name here: a friend gives theirs "
                                  "when joining, and bots are named by their level.")
            kinds.append((kind, level, name))
        if sum(kind == "me" for kind, _, _ in kinds) > 1:
            raise ConfigError("Only one seat can be yours: give the others to bots or friends.")
        return kinds

    async def join(self, room_id: Any, invite: Any, name: Any = None) -> Json:
        """Take the seat an invite opens, under `name`; NotFound or db.Conflict otherwise."""
        room = await self.room(room_id)
        if not isinstance(invite, str) or not invite:
            raise NotFound("That invite is not valid for this room.")
        chosen = read_name(name)
        digest = db.secret_hash(invite)
        seat = next((s for s in room.seats
                     if s.invite_hash and hmac.compare_digest(s.invite_hash, digest)), None)
        if seat is None:
            raise NotFound("That invite is not valid for this room.")
        token = await self._take(room, seat, chosen, "That invite has already been used.")
        return {"seat": seat.seat, "token": token}

    async def _take(self, room: Room, seat: Seat, name: str | None, refusal: str) -> str:
        """Give an open seat to its player under `name`: store it, start the game once every
        seat is taken, tell everyone; the seat's new token. db.Conflict (saying `refusal`)
        when the seat is taken already."""
        async with room.lock:
            if room.closed is not None:
                raise db.Conflict(room.closed)
            if seat.joined:
                raise db.Conflict(refusal)
            token = new_secret()
            token_hash = db.secret_hash(token)
            full = all(s.joined or s is seat for s in room.seats)
            status = "playing" if full and room.status == "waiting" else room.status
            joining = self.store.submit(db.join_seat(
                room.id, seat.seat, token_hash, name, status, refusal,
                expired_sentence(self.waiting_ttl)))
            try:
                await joining
            finally:
                if stored(joining):
                    seat.joined, seat.token_hash, seat.name = True, token_hash, name
                    room.status = status
        room.broadcast()
        self._tell(room, reload=True)
        self.kick(room)
        return token

    # -- rematches -----------------------------------------------------------------------------

    @staticmethod
    def _player(room: Room, token: Any) -> int:
        """The seat of `room` that `token` holds; Forbidden for anyone else."""
        seat = room.holder(token) if isinstance(token, str) and token else None
        if seat is None:
            raise Forbidden("Only a player of the finished game can do that, with their "
                            "seat's token.")
        return seat

    async def rematch(self, room_id: Any, token: Any) -> Json:
        """A new room with the finished room's game, options and seats, the asker in their
        seat; the others' seats wait for them to follow. Once a rematch exists, asking again
        follows it."""
        room = await self.room(room_id)
        seat = self._player(room, token)
        if room.status != "over":
            raise db.Conflict("A rematch can be asked for once the game is over.")
        async with room.lock:
            if room.rematch is None:
                fresh = new_secret()
                seats = [Seat(s.seat, s.kind, s.level, None, None, s.kind == "bot",
                              None if s.kind == "bot" else s.label) for s in room.seats]
                seats[seat].token_hash, seats[seat].joined = db.secret_hash(fresh), True
                rematch = await self._open(room.game_id, room.state.game, room.options, seats,
                                           rematch_of=room)
                room.rematch = rematch.id
                room.broadcast()
                self._tell(room, reload=True)
                return {"room": rematch.id, "seat": seat, "token": fresh}
        return await self.follow(room.id, token)

    async def follow(self, room_id: Any, token: Any) -> Json:
        """Take one's seat in a rematch with one's token of the finished room; `room_id` may
        name either room. Once per seat: db.Conflict after."""
        room = await self.room(room_id)
        if not isinstance(token, str) or not token:
            raise Forbidden("Follow with your seat's token from the finished game.")
        # A token is one room's: of the room before, when `room` is the rematch; of `room`
        # itself, when `room` is the finished game.
        before = None if room.rematch_of is None else await self.room(room.rematch_of)
        seat = None if before is None else before.holder(token)
        rematch = room
        if seat is None:
            seat = self._player(room, token)
            if room.rematch is None:
                raise NotFound("Nobody has asked for a rematch of this game yet.")
            rematch = await self.room(room.rematch)
        fresh = await self._take(rematch, rematch.seats[seat], rematch.seats[seat].name,
                                 "That seat has already moved to the rematch.")
        return {"room": rematch.id, "seat": seat, "token": fresh}

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
            for attempt in range(CONFLICT_RETRIES + 1):
                try:
                    await self._append(room, seat, text)
                    break
                except db.Conflict:
                    # The stored game is ahead: another worker stored a move first, or a
                    # commit cut off by the database going away landed after all. Catch up
                    # and check the move again against the game as it now is (accepted if
                    # it still holds, refused with the engine's sentence if not), as one
                    # worker does with moves queued on the lock.
                    if attempt == CONFLICT_RETRIES:
                        raise
                    await self.catch_up(room)
        self.kick(room)

    async def _append(self, room: Room, seat: int, text: str) -> None:
        """Check the move on a copy of the state, store it, then make it the room's (the
        caller holds the room's lock); ChukoError when refused, db.Conflict when another
        worker stored this version first."""
        if room.closed is not None:
            raise ConfigError(room.closed)
        if room.status == "waiting":
            raise ConfigError("The game starts when every seat is taken.")
        if room.status == "over":
            raise ConfigError("The game is over.")
        after = room.state.copy()
        move = after.game.parse_move(text)
        after.play(seat, move)
        status = "over" if after.outcome is not None else "playing"
        number = room.version + 1
        commit = self.store.submit(db.append_move(room.id, number, seat, str(move), status))
        try:
            await commit
        except db.Unavailable:
            raise db.Unavailable(MOVE_NOT_SAVED) from None
        finally:
            if stored(commit):
                self.advance(room, number, after, status, (seat, move))
                self._tell(room)  # only now: a move is durable before anyone is told

    async def catch_up(self, room: Room, reload: bool = False) -> None:
        """Play the moves stored after `room.version` (by other workers, or by a commit cut
        off when the database went away) through the engine, each version sent to the
        room's sockets in turn; with `reload`, take the stored header's seats, status and
        rematch too. The caller holds `room.lock`."""
        store = self.store
        row = await asyncio.to_thread(store.load, room.id, False) if reload else None
        for seat, text in await asyncio.to_thread(store.moves, room.id, room.version):
            after = room.state.copy()
            move = after.game.parse_move(text)
            after.play(seat, move)
            status = "over" if after.outcome is not None else "playing"
            self.advance(room, room.version + 1, after, status, (seat, move))
        if row is None:
            return
        for held, kept in zip(room.seats, row.seats, strict=True):
            held.joined, held.token_hash, held.name = kept.joined, kept.token_hash, kept.name
        room.rematch = row.rematch
        if row.version == room.version:
            room.status = row.status
        if room.status == "expired" and room.closed is None:
            room.closed = expired_sentence(self.waiting_ttl)
        room.broadcast()

    def advance(self, room: Room, number: int, after: State, status: str,
                last_move: tuple[int, Any]) -> None:
        """Make a stored move the room's state (this worker's, or another's caught up) and
        send it to the room's clients."""
        room.state, room.version, room.status = after, number, status
        room.last_move = last_move
        if status == "playing" and after.round_ended and self.round_pause > 0 and all(
                room.seats[s].kind == "bot" for s in after.to_move):
            room.pause = Pause(number, time.monotonic() + self.round_pause)
        room.broadcast()

    def _tell(self, room: Room, reload: bool = False) -> None:
        """Tell the cluster's other workers that the room changed (`reload`: its header)."""
        if self.cluster is not None:
            self.cluster.publish(room.id, room.version, reload=reload,
                                 bots=bool(room.bots_to_move()))

    def kick(self, room: Room) -> None:
        """Start the room's bots if one of them must move and none is thinking already (in a
        cluster, only the worker holding the lease runs bots)."""
        if self._closing or not room.bots_to_move():
            return
        if self.cluster is not None and not self.cluster.leader:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._bots(room))

    async def _bots(self, room: Room) -> None:
        while not self._closing:
            waiting = room.bots_to_move()
            if not waiting:
                return
            pause = room.pause
            if pause is not None and pause.version == room.version:
                # so people can read how the round ended, unless a seat says "next"
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(pause.over.wait(), pause.left())
                room.pause = None
                room.broadcast()
                if self.cluster is not None:
                    self.cluster.publish(room.id, pause.version, kind="state")
                continue
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)  # so people can follow the bots' moves
            seat = waiting[0]
            state, version = room.state, room.version
            legal = state.legal_moves(seat.seat) if state.game.lists_moves else []
            try:
                move = await asyncio.to_thread(seat.bot.choose, state.view(seat.seat), legal)
                await self.play(room, seat.seat, str(move))
            except db.Unavailable:
                # The database is away: the bot moves again once it is back.
                await asyncio.sleep(db.RETRY_AFTER)
            except ChukoError:
                if room.version != version:
                    continue  # the game moved on meanwhile (another worker's move): again
                log.exception("Room %s: the %s bot of seat %d made a refused move.", room.id,
                              seat.level, seat.seat)
                return
            except Exception:  # a bug in a bot must not take the server down; say so
                log.exception("Room %s: the %s bot of seat %d failed.", room.id, seat.level,
                              seat.seat)
                return

    def next_round(self, room: Room, seat: int | None) -> None:
        """A seat lets the bots start the next round without waiting out the pause."""
        if seat is None:
            raise Forbidden("Spectators cannot start the next round.")
        pause = room.pause
        if pause is None or room.bots_wait(room.version) is None:
            raise ConfigError("No round is waiting to start.")
        pause.over.set()
        if self.cluster is not None:  # the bots may wait on another worker
            self.cluster.publish(room.id, pause.version, kind="next")

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
            room.adviser = cast(Adviser, await self.work.run(make_adviser, room.state.game))
        state = room.state.copy()
        return {"type": "hint", **await self.work.run(room.adviser.hint, state, seat)}

    # -- history, a page at a time ------------------------------------------------------------

    async def _kept(self, key: Hashable, make: Callable[[], T], size: Callable[[T], int]) -> T:
        """What `pages` keeps for `key`, else `make()` worked out in the pool and kept."""
        value = self.pages.get(key)
        if value is None:
            value = await self.work.run(make)
            self.pages.put(key, value, size(value))
        return value

    def _captions(self, room: Room, seat: int | None,
                  moment: Moment) -> tuple[Hashable, Callable[[], list[str]],
                                           Callable[[list[str]], int]]:
        """How the captions up to `moment` for `seat` are kept: key, making and size."""
        return (("captions", room.id, seat, moment.version),
                lambda: pages.captions(moment.state, room.names, seat), pages.lines_size)

    def captions(self, room: Room, seat: int | None, moment: Moment) -> list[str]:
        """Every move up to `moment` in words for `seat` (kept in `pages`)."""
        if moment.version == 0:
            return []  # no move yet: nothing to replay (every socket of a new game asks)
        return cast(list[str], self.pages.remember(*self._captions(room, seat, moment)))

    async def _kept_captions(self, room: Room, seat: int | None, moment: Moment) -> list[str]:
        """`captions`, worked out in the pool when not kept."""
        return await self._kept(*self._captions(room, seat, moment)) if moment.version else []

    def log(self, room: Room, seat: int | None, moment: Moment) -> Json:
        """The `log` message a socket opens with: the last LOG_PAGE lines up to `moment`."""
        return pages.log_page(self.captions(room, seat, moment), moment.version,
                              pages.LOG_PAGE)

    async def log_page(self, room: Room, seat: int | None, before: Any = None,
                       count: Any = None) -> Json:
        """A `log` message asked for: the lines before move `before` (default: all moves up
        to now), at most `count` of them (LOG_PAGE by default). A page is a slice of the
        captions kept for this version; only captions not kept yet take work (in the
        pool)."""
        moment = room.moment()
        upto = pages.whole(before, "A log page's `before`", moment.version)
        size = pages.whole(count, "A log page's `count`", pages.LOG_PAGE, low=1,
                           high=pages.LOG_PAGE_MAX)
        return pages.log_page(await self._kept_captions(room, seat, moment), upto, size)

    def _review(self, room: Room) -> tuple[list[Json] | None, int | None]:
        """The finished game's review, and its first mistake's move (None: none)."""
        verdicts = review(room.state.game, room.state.record())
        mistake = next((k + 1 for k, v in enumerate(verdicts or []) if v.get("mistake")), None)
        return verdicts, mistake

    async def replay(self, room: Room, seat: int | None, start: Any = None, count: Any = None,
                     captions_only: bool = False) -> str:
        """A page of a finished game's replay as JSON text: from frame `start` (0, the deal)
        `count` frames, each the position in full (all its cards, now that they may be known)
        with the sentence about the move that led to it as `seat` read it, and the game's
        verdict on that move where it has a review. `captions_only` leaves out the views,
        for the move list. The page is cut from chunks kept in `pages` (`_chunk`), so asking
        again, at any offset, costs only what no chunk holds yet (worked out in the pool)."""
        if room.status != "over":
            raise db.Conflict("The replay opens once the game is over.")
        high = pages.CAPTIONS_PAGE_MAX if captions_only else pages.FRAMES_PAGE_MAX
        first = pages.whole(start, "A replay page's `from`", 0)
        size = pages.whole(count, "A replay page's `count`", high if captions_only
                           else pages.FRAMES_PAGE, low=1, high=high)
        moment = room.moment()
        lines = await self._kept_captions(room, seat, moment)
        verdicts, mistake = await self._kept(("review", room.id), lambda: self._review(room),
                                             lambda kept: len(json.dumps(kept)))
        total = len(lines) + 1
        step = pages.CAPTIONS_PAGE_MAX if captions_only else pages.FRAMES_PAGE
        origin = first - first % step
        chunks = [await self._kept(("replay", room.id, seat, captions_only, at),
                                   partial(self._chunk, moment, seat, lines, verdicts, at,
                                           step, captions_only),
                                   lambda kept: sum(len(text) for text, _ in kept))
                  for at in range(origin, min(total, first + size), step)]
        return pages.page_text(
            {"game": room.game_id, "title": room.descriptor.title, "seats": room.seats_json(),
             "total": total, "from": first}, pages.cut(chunks, first - origin, size),
            {"reviewed": verdicts is not None, "first_mistake": mistake})

    @staticmethod
    def _chunk(moment: Moment, seat: int | None, lines: list[str], verdicts: list[Json] | None,
               first: int, size: int, captions_only: bool) -> list[pages.Frame]:
        """Frames `first` … `first + size - 1` of the replay in JSON, each with its
        verdict; with their views unless `captions_only`."""
        found: list[tuple[Json, int]]
        if captions_only:
            found = [({"caption": lines[k - 1] if k else "The deal."}, 0)
                     for k in range(first, min(len(lines) + 1, first + size))]
        else:
            found = pages.frames(moment.state, seat, first, size, lines)
        for index, (frame, _) in enumerate(found, first):
            frame["verdict"] = verdicts[index - 1] if verdicts and index else None
        return [(json.dumps(frame), view) for frame, view in found]
