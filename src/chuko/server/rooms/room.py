"""A room in play: the engine state, the seats and their secret tokens, the connected clients,
and the state messages each of them is sent.

Each client gets a snapshot built from its own seat's `view`, with the engine's own
sentences about the last move and the result as that seat may read them. A state is never
changed once it has been replaced, so a client that is behind is sent each version in turn,
built from the state of that version (`Moment`).

A socket coming or going changes no state: when it changes whether its seat shows as
connected, or how many watch (spectators' sockets, counted in this worker), the room's
other clients get one small `presence` message, and the new client alone gets a state.

Nothing here knows which game a room plays: its rules come from the game's class and
descriptor in the registry.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, cast

from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Json, State
from chuko.core.text import Text
from chuko.core.words import bot_name, seat_names
from chuko.i18n import DEFAULT
from chuko.server.rooms.clocks import Clocks, realtime
from chuko.server.rooms.endings import forfeit_sentence, ranks
from chuko.server.rooms.moment import Moment
from chuko.server.rooms.outbox import Client
from chuko.server.shared.messages import dumps, merge_objects, worded
from chuko.server.store import database as db

_UNTIMED: Json = {"clock": None, "claimable": []}  # a room without clocks or absences


def clocked(room: Room) -> set[int]:
    """The seats whose clocks run: people's (bots', and seats a bot took over, have none)."""
    return {seat.seat for seat in room.seats if seat.kind == "human"}


class NotFound(ChukoError):
    pass


class Forbidden(ChukoError):
    pass


@dataclass
class Seat(db.SeatRow):
    """A stored seat with what only the running room knows: its bot and its connections."""

    bot: Any = None
    connections: int = 0

    @property
    def label(self) -> str:
        """What players call the seat before duplicates are told apart: its player's name,
        else "Host" for the room's creator and "Friend" for a seat taken through an invite;
        a bot is "Hard bot" (but a seat a bot took over keeps its player's label)."""
        if self.kind == "bot" and not self.gone:
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


@dataclass
class Pause:
    """Bots waiting after the move of `version` ended a round, until `until` (monotonic
    seconds) or until a seat sets `over`."""

    version: int
    until: float
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def left(self) -> float:
        return max(0.0, self.until - time.monotonic())


@dataclass(eq=False)  # a room is itself: the services keep what they know of it by it
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
    watchers: int = 0  # the clients without a seat
    pause: Pause | None = None
    created: float = 0.0  # the hub's clock when the room was made
    closed: str | None = None  # why an expired room closed, in one sentence
    rated: bool = False  # its result changes ratings
    clocks: Clocks | None = None  # its time control's clocks; None: no clock
    started: float | None = None  # when play began (the hub's clock)
    ended: float | None = None
    result: Json | None = None  # a forfeit's end, and the order seats went to bots
    unrated: str | None = None  # why its rated end changed no rating, in words (the club's)
    # A rated room's seats' ratings ({rating, provisional, text, change}, the club's; None
    # for a seat with no rated player), replaced whole (`show_ratings`); None: not read yet.
    ratings: list[Json | None] | None = None
    # Seats whose sockets are all gone, and since when (the hub's clock): after the grace
    # period, a heads-up opponent may claim the game, and with 3+ a bot takes the seat.
    away: dict[int, float] = field(default_factory=dict)
    grace: float = 60.0
    now: Callable[[], float] = time.time  # the hub's clock
    # (labels, names, the seats' entries in messages), worked out again only when a label
    # changes (a player joins under a name), not for each client at each move. One value,
    # replaced whole, since the log's captions read the names from a worker thread.
    _named: tuple[tuple[str, ...], list[str], list[Json]] = field(
        default=((), [], []), init=False, repr=False)
    # Parts of the current version's state messages as JSON text (`state_text`), so that
    # sockets reading alike share one serialization; dropped at the next version.
    _texts: dict[tuple[Any, ...], str] = field(default_factory=dict, init=False, repr=False)
    _texts_version: int = field(default=-1, init=False, repr=False)
    _ratings_text: str = field(default="null", init=False, repr=False)

    @property
    def names(self) -> list[str]:
        """What every sentence calls each seat (a seat's name may come with its player)."""
        return self._naming()[1]

    def show_ratings(self, ratings: list[Json | None]) -> None:
        """The seats' ratings to show from now on (read, or changed by the room's end)."""
        self.ratings, self._ratings_text = ratings, json.dumps(ratings)

    def renamed(self) -> None:
        """A seat's entry changed with its label kept (a bot took it over): work the
        entries out again."""
        self._named = ((), [], [])

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
        return (self.descriptor.integrations.hints is not None
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
            raise Forbidden(Text("That link's token does not hold a seat in this room."))
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

    def state_text(self, seat: int | None, moment: Moment | None = None,
                   lang: str = DEFAULT) -> str:
        """The state message for `seat` at `moment` (default: now) as JSON text in `lang`:
        the part every reader shares (the room, the seats and their presence, the version …)
        and the reader's own (its `view(seat)`, its legal moves, the sentences as it reads
        them), each made once per version and language and kept until the next version, so
        a seat's sockets share one view and spectators all share theirs."""
        moment = moment or self.moment()
        labels, names, entries = self._naming()
        if moment.version == self.version != self._texts_version:
            # A new version: the parts kept for the one before are not wanted again, but
            # by clients that are behind, which build their own.
            self._texts.clear()
            self._texts_version = moment.version
        keep = moment.version == self._texts_version
        bots_wait = self.bots_wait(moment.version)
        unrated = self.unrated if moment.status == "over" else None
        shared_key = (None, lang, moment.status, bots_wait, self.rematch, labels, self.watchers,
                      tuple((s.connected, s.joined, s.gone) for s in self.seats), unrated,
                      self._ratings_text)
        shared = self._texts.get(shared_key) if keep else None
        if shared is None:
            ratings = self.ratings or [None] * len(self.seats)
            shared = dumps(worded({
                "type": "state",
                "room": self.id,
                "game": self.game_id,
                "title": self.descriptor.title,
                "status": moment.status,
                "seats": [{**entry, "connected": s.connected, "joined": s.joined, "gone": s.gone,
                           "rating": rating}
                          for entry, s, rating in zip(entries, self.seats, ratings, strict=True)],
                "watchers": self.watchers,
                "rated": self.rated,
                "unrated": unrated,
                "version": moment.version,
                "round_ended": moment.state.round_ended,
                "bots_wait": bots_wait,
                "rematch": self.rematch,
                "simultaneous": self.descriptor.traits.simultaneous,
                "hints": self.descriptor.integrations.hints is not None,
                "hintable": self.hintable,
            }, lang))
            if keep:
                self._texts[shared_key] = shared
        # The clocks change with time: worked out for each message, never kept; a room
        # without clocks or absences has the same for every message, kept with the rest.
        untimed = self.clocks is None and not self.away
        own_key = ("seat", lang, seat, moment.status, self.closed, labels,
                   seat is not None and self.seats[seat].gone, untimed)
        own = self._texts.get(own_key) if keep else None
        if own is None:
            own = dumps(worded(self._own(seat, moment, names) | (_UNTIMED if untimed else {}),
                               lang))
            if keep:
                self._texts[own_key] = own
        text = merge_objects(shared, own)
        return text if untimed else merge_objects(text, dumps(self._timed(seat, moment)))

    def _timed(self, seat: int | None, moment: Moment) -> Json:
        """What changes with time in the state message: the clocks as of now, and the seats
        `seat` may claim the game from (`claimable`)."""
        clocks = self.clocks
        clock = None
        if clocks is not None:
            now = self.now()
            clock = clocks.to_json(now)
            if moment.status != "playing":
                for entry in clock["seats"]:
                    entry["running"] = False
        return {"clock": clock, "claimable": self.claimable(seat)}

    def claimable(self, seat: int | None) -> list[int]:
        """The seats whose player has left (every socket gone for the grace period) that
        `seat` may claim the game from: only heads-up, only a player still at the table."""
        if (seat is None or self.status != "playing" or len(self.seats) != 2
                or self.seats[seat].kind != "human"
                or not realtime(None if self.clocks is None else self.clocks.control)):
            return []  # a correspondence clock is its own limit
        cutoff = self.now() - self.grace
        return [s.seat for s in self.seats if s.seat != seat and s.kind == "human"
                and s.seat in self.away and not s.connections
                and max(self.away[s.seat], self.started or 0.0) <= cutoff]

    def places(self) -> list[int]:
        """A finished game's rank per seat (0 first, ties share): by the engine's scores
        (higher is better), unless a forfeit decides: the heads-up forfeiter last; with 3+,
        the seats that went to bots last, the earliest gone lowest. ConfigError before the
        game is over."""
        if self.status != "over":
            raise ConfigError(Text("The game is not over yet."))
        outcome = self.state.outcome
        scores = None if outcome is None else list(outcome.scores)
        return ranks(len(self.seats), scores, self.result)

    def _own(self, seat: int | None, moment: Moment, names: list[str]) -> Json:
        """What only `seat` reads in the state message at `moment`: everything that passes
        through its `view(seat)` or is worded for it (with `names`)."""
        state = moment.state
        last = None
        if moment.last_move is not None:
            mover, move = moment.last_move
            last = state.describe(mover, move, names, seat)
        message: Json = {
            "seat": seat,
            "spectator": seat is None,
            "view": state.view(seat),
            "last": last,
            "result": self.result_sentence(seat, moment, names),
        }
        legal = self.legal(seat, moment)
        if legal and seat is not None and self.seats[seat].gone:
            legal = []  # a bot plays the seat now
        if legal is not None:
            message["legal"] = legal
        return message

    def result_sentence(self, seat: int | None, moment: Moment, names: list[str]) -> str | None:
        """The result sentence as `seat` reads it: a forfeit's, the engine's, or why an
        expired room closed."""
        forfeit = self.result
        if moment.status == "over" and forfeit is not None and "kind" in forfeit:
            return forfeit_sentence(forfeit, names, seat)
        outcome = moment.state.outcome
        return self.closed if outcome is None else outcome.describe(names, seat)

    def forget(self, client: Client) -> bool:
        """Drop a client; True when it was its seat's last socket here (the seat no longer
        shows as connected)."""
        watcher = client.seat is None and client in self.clients
        self.clients.discard(client)
        if watcher:  # the others learn there is one fewer
            self.watchers -= 1
            self.tell_presence()
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections -= 1
            if seat.connections == 0:
                self.tell_presence()
                return True
        return False

    @property
    def idle(self) -> bool:
        """A finished or expired room with nobody left (it may leave memory)."""
        return self.status in ("over", "expired") and not self.clients

    def join(self, client: Client) -> bool:
        """Add a client and send it the state now; the others learn of it only when its seat
        now shows as connected, or when it watches (the count of watchers). True when it is
        its seat's first socket here."""
        self.clients.add(client)
        client.send_state(self.moment())
        if client.seat is None:  # a watcher: the others learn there is one more
            self.watchers += 1
            self.tell_presence(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections += 1
            if seat.connections == 1:
                self.tell_presence(client)
                return True
        return False

    def tell_presence(self, joining: Client | None = None) -> None:
        """Every seat's presence and the count of watchers to every client but `joining`
        (whose state says them)."""
        message = {"type": "presence", "seats": [
            {"seat": s.seat, "connected": s.connected} for s in self.seats],
            "watchers": self.watchers}
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
