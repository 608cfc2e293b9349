"""What one client may ask of the server (docs/web-protocol.md, "Limits"): token buckets for
the rate of messages and requests, caps on sockets and open rooms, and bounds on the size and
nesting of JSON, so no client can stall the server or exhaust it.

Every refusal is one sentence: HTTP 413, 429 or 503, or an `error` message on the socket.
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from chuko.core.errors import ChukoError
from chuko.core.text import Text

Clock = Callable[[], float]

MAX_BODY = 65_536  # bytes of one request body or characters of one WebSocket message
MAX_DEPTH = 32  # levels of JSON nesting; the protocol needs 3

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class TooLarge(ChukoError):
    """HTTP 413."""


class TooMany(ChukoError):
    """HTTP 429: over a rate or a per-address cap; `retry_after`, when known, the seconds
    until the bucket refused from has a token again (an HTTP answer's Retry-After)."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Full(ChukoError):
    """HTTP 503: the server holds as many open rooms, or as much costly work, as it may."""


@dataclass(frozen=True)
class Rate:
    """A token bucket's refill (tokens a second) and size (the burst allowed at once)."""

    per_second: float
    burst: int


def refill_seconds(rate: Rate) -> int:
    """The most seconds an empty bucket at `rate` takes to hold a token again."""
    return math.ceil(1 / rate.per_second)


@dataclass(frozen=True)
class Limits:
    """The server's limits; `create_app(limits=Limits(...))` changes any of them."""

    # Per socket, every message. A socket's messages are answered one at a time, so a hint
    # (the game's adviser searching) is done before the next message is read.
    messages: Rate = Rate(20, 40)
    # Refused messages, per socket: a client whose refusals outrun this bucket is not
    # reading them, so its socket is closed (1008) rather than answered without end.
    refusals: Rate = Rate(20, 200)
    rooms: Rate = Rate(1, 10)  # per address: rooms made
    seats: Rate = Rate(2, 20)  # per address: joins, follows and rematches
    # Accounts (`web/accounts_api.py`): guests made, per address (each is a row in the
    # database); log-ins (and other password checks, each an Argon2 hash's 64 MiB and its
    # CPU, docs/performance.md; `club/login_limits.py`): 10 a minute from one address at
    # one account, 20 a minute from one address at any, and 10 a minute at one account
    # from everywhere after a burst of 60, not counted from a browser the account logged
    # in from; accounts made, per address.
    guests: Rate = Rate(1, 30)
    logins_per_address: Rate = Rate(20 / 60, 20)
    logins_per_address_and_account: Rate = Rate(10 / 60, 10)
    logins_per_account: Rate = Rate(10 / 60, 60)
    signups: Rate = Rate(1 / 60, 5)
    # Per address: WebSocket connections opened (a page holds one, and reconnects after a
    # drop or a restart; each costs a room lookup, a log page and a state).
    connects: Rate = Rate(5, 30)
    # Costly requests, per address and per room: each costs a pass through the game's record
    # or an adviser's search (`work.py`). A replay page asks its move list in pages of 1,000
    # captions (5 at once for the longest games) and its frames 50 at a time as the player
    # steps through them; a room page asks an older page of its log when scrolled to its top;
    # a player asks a hint at most once a turn, and a solitaire's turns come as fast as the
    # player clicks (a whole Caravan game, a hint before each of its 12 moves, in seconds).
    # The bursts cover opening the longest replay or log, or a whole game hinted, at once;
    # the rates anyone stepping, scrolling or playing by hand. A room allows twice an
    # address's pages, for a few people following one game, but no more hints than one
    # player's (hints are for rooms with one human).
    replay_pages: Rate = Rate(4, 40)
    replay_pages_per_room: Rate = Rate(8, 80)
    log_pages: Rate = Rate(4, 40)
    log_pages_per_room: Rate = Rate(8, 80)
    hints: Rate = Rate(2, 20)
    hints_per_room: Rate = Rate(2, 20)
    # Profile look-ups (`/api/players/{username}` and its pages of games), per address: each
    # says whether a username exists, which log-in and sign-up take care not to tell, so
    # they are counted too: 30 at once (a leaderboard's players opened one after another),
    # then one every two seconds.
    profiles: Rate = Rate(0.5, 30)
    # Tournaments made, per account and per address: a few at once, then one every 10
    # minutes (an account holds at most a few upcoming ones anyway, `tournament/director.py`).
    tournaments: Rate = Rate(1 / 600, 5)
    # Quick messages, per seat: three in a row ("Good luck", "Thanks", …), then one every
    # five seconds, so the phrases at a table read as greetings and not as a flood.
    says: Rate = Rate(0.2, 3)
    # The pool for that work: one thread on a 2-core machine leaves the other core to moves,
    # bots and the database; beyond `waiting_jobs` queued, a costly request is refused (503).
    workers: int = 1
    waiting_jobs: int = 8
    sockets_per_seat: int = 4
    sockets_per_room: int = 64
    open_rooms_per_address: int = 20
    open_rooms: int = 10_000
    # Seconds a player's sockets may all be gone before they count as having left (heads-up
    # the opponent may claim the game; with 3+ a bot takes the seat). Not for correspondence
    # clocks, which are their own limit.
    leave_grace: float = 60.0


@dataclass(frozen=True)
class Edge:
    """What one connection may hold of the server, before any request reaches the app
    (`connections.py`); `chuko serve` sets them. Counted by each process on its own."""

    # Seconds for a request's line and headers to arrive (from the connection's opening, or
    # from the request's first byte on a kept-alive one), and then for its body: a client
    # sending slowly holds a descriptor, and enough of them would hold them all.
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    # Connections open at once from one address. A page holds a few HTTP connections and
    # one socket; a player with a few tabs, or a household behind one address, stays far
    # below this.
    connections_per_address: int = 64
    # Connections open at once in all; None: the open-file limit less `reserved_files`,
    # which the database, logs and Redis need.
    connections: int | None = None
    reserved_files: int = 128
    # Addresses or networks, separated by commas ("*": any), of reverse proxies whose
    # X-Forwarded-For is trusted (`chuko serve --forwarded-allow-ips`): their connections
    # carry many clients, so they are not capped per address.
    proxies: str = ""


class Bucket:
    """A token bucket: `take()` is True while tokens are left; they refill at `rate`."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self.tokens = float(rate.burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.rate.burst),
                          self.tokens + (now - self.stamp) * self.rate.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """One bucket per key (a client's address). The least recently used are forgotten beyond
    `keep`, so memory stays bounded; a forgotten key starts again with a full bucket."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic, keep: int = 65_536) -> None:
        self.rate = rate
        self.clock = clock
        self.keep = keep
        self._buckets: OrderedDict[Hashable, Bucket] = OrderedDict()

    def take(self, key: Hashable) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.rate, self.clock)
            if len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()


class Shared(Protocol):
    """Buckets every worker of a cluster shares (`shared_buckets.SharedBuckets`)."""

    async def take(self, kind: str, key: str, rate: Rate) -> bool | None: ...


async def take_shared(shared: Shared | None, kind: str, key: str, local: Buckets) -> bool:
    """A token from the cluster's bucket of `key` for `kind` (at `local`'s rate), or from
    this worker's own `local` ones when there is no cluster or its Redis cannot say."""
    if shared is not None:
        taken = await shared.take(kind, key, local.rate)
        if taken is not None:
            return taken
    return local.take(key)


Costly = Literal["replay", "log", "hint"]
_COSTLY: dict[Costly, str] = {"replay": Text("replay pages"), "log": Text("log pages"),
                              "hint": Text("hints")}


class Shares:
    """A room's budget shared out among its viewers (each a key: an address). A viewer has
    a bucket of its own in each room it asks in, refilling at the room's `rate` divided
    among the viewers who asked there within `window` (the seconds the room's empty bucket
    would take to fill), its burst divided alike (at least 1). The shares' rates add up to
    the room's, and their bursts to the room's (or to one page each, with more viewers
    than that): one viewer's flood, or a few viewers', is refused by their own shares while
    the others' stay theirs. Viewers quiet for longer than `window` are forgotten (their
    shares would be full again by then), and the rooms least recently asked beyond
    `keep`."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic, keep: int = 4096) -> None:
        self.rate, self.clock, self.keep = rate, clock, keep
        self.window = rate.burst / rate.per_second
        # room → viewer → its bucket; both least recently asked first.
        self._rooms: OrderedDict[Hashable, OrderedDict[Hashable, Bucket]] = OrderedDict()

    def take(self, room: Hashable, viewer: Hashable) -> bool:
        viewers = self._rooms.pop(room, None)
        if viewers is None:
            viewers = OrderedDict()
            if len(self._rooms) >= self.keep:
                self._rooms.popitem(last=False)
        self._rooms[room] = viewers
        now = self.clock()
        while viewers and now - next(iter(viewers.values())).stamp > self.window:
            viewers.popitem(last=False)
        bucket = viewers.pop(viewer, None) or Bucket(self.rate, self.clock)
        viewers[viewer] = bucket
        count = len(viewers)
        bucket.rate = Rate(self.rate.per_second / count, max(1, self.rate.burst // count))
        return bucket.take()

    def refill_seconds(self, room: Hashable) -> int:
        """The most seconds an empty share in `room` takes to hold a token again."""
        viewers = len(self._rooms.get(room, ())) or 1
        return math.ceil(viewers / self.rate.per_second)


class Budget:
    """The buckets of the costly requests (`Costly`) for each kind: one per address, and
    each room's budget shared out among the addresses asking in it (`Shares`). So one
    client's flood is refused by its own buckets, and a room's other viewers are still
    served. Profile look-ups (`look_up`) are counted per address."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        rates = {"replay": (limits.replay_pages, limits.replay_pages_per_room),
                 "log": (limits.log_pages, limits.log_pages_per_room),
                 "hint": (limits.hints, limits.hints_per_room)}
        self._buckets = {kind: (Buckets(per_address, clock), Shares(per_room, clock))
                         for kind, (per_address, per_room) in rates.items()}
        self._look_ups = Buckets(limits.profiles, clock)

    def admit(self, kind: Costly, address: str, room_id: str) -> None:
        """Count one request of `kind`; TooMany with a sentence over either bucket."""
        per_address, shares = self._buckets[kind]
        what = _COSTLY[kind]
        if not per_address.take(address):
            raise TooMany(Text("Too many {what} asked from your address: wait a moment and ask "
                               "again.", what=what), refill_seconds(per_address.rate))
        if not shares.take(room_id, address):
            raise TooMany(Text("Too many {what} asked from your address in this room, whose "
                               "viewers share its budget: wait a moment and ask again.", what=what),
                          shares.refill_seconds(room_id))

    def look_up(self, address: str, session: str | None = None) -> None:
        """Count one profile look-up from `address`, and from the request's `session` (its
        id hash) when it has one: a client changing addresses in one session is counted
        as one; TooMany with a sentence over either bucket."""
        if not (self._look_ups.take(address)
                and (session is None or self._look_ups.take(("session", session)))):
            raise TooMany(Text("Too many profiles looked up from your address: wait a moment and "
                               "try again."), refill_seconds(self._look_ups.rate))


@dataclass
class SocketFlow:
    """The buckets of one socket."""

    limits: Limits
    clock: Clock = time.monotonic
    messages: Bucket = field(init=False)
    refusals: Bucket = field(init=False)

    def __post_init__(self) -> None:
        self.messages = Bucket(self.limits.messages, self.clock)
        self.refusals = Bucket(self.limits.refusals, self.clock)


class OpenRooms:
    """The rooms each address made, to cap how many of them are open (unfinished) at once.
    `is_open(room_id)` says whether a room still is; closed ones are dropped as they are
    found, so an address holds at most its cap."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._made: dict[Hashable, list[str]] = {}

    def count(self, address: Hashable, is_open: Callable[[str], bool]) -> int:
        rooms = [room for room in self._made.get(address, ()) if is_open(room)]
        if rooms:
            self._made[address] = rooms
        else:
            self._made.pop(address, None)
        return len(rooms)

    def add(self, address: Hashable, room_id: str) -> None:
        rooms = self._made.setdefault(address, [])
        if room_id not in rooms:  # a rematch asked for twice is one room
            rooms.append(room_id)


class OpenCount:
    """How many rooms are open in all, for the server's cap on them. A count walks every
    room in memory (10,000 at the cap), too much for every room made, so it is done afresh
    at most every `every` seconds, and whenever the number kept in between (each room made
    adds one, `made`) reaches the cap: a refusal always rests on a fresh count."""

    def __init__(self, count: Callable[[], int], clock: Clock = time.monotonic,
                 every: float = 1.0) -> None:
        self._count = count
        self.clock = clock
        self.every = every
        self._open = 0
        self._counted: float | None = None

    def reached(self, cap: int) -> bool:
        now = self.clock()
        if self._open >= cap or self._counted is None or now - self._counted >= self.every:
            self._open, self._counted = self._count(), now
        return self._open >= cap

    def made(self) -> None:
        self._open += 1


def too_deep(text: str, depth: int = MAX_DEPTH) -> bool:
    """Whether JSON `text` nests arrays and objects more than `depth` levels deep, found by
    counting brackets outside strings, without parsing (a parser recurses, and fails on
    deep input with RecursionError rather than a sentence)."""
    if text.count("[") + text.count("{") <= depth:  # every message of play: at a glance
        return False
    level = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        level += 1 if bracket in "[{" else -1
        if level > depth:
            return True
    return False
