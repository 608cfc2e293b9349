"""What the parts of the hub share (`HubBase`): the rooms in memory, the store, the settings,
and this worker's part in a cluster; and what every part says the same way.

The hub (`hub.Hub`) is one object made of parts, each in a module of its own: the rooms'
lifecycle (`lifecycle.py`), their expiry (`expiry.py`), making and joining rooms
(`lobby.py`), the move path (`moves.py`), the bots (`bot_runner.py`), forfeits and the
clocks' timer (`forfeits.py`), hints (`hints.py`) and history (`history.py`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING, Any, Protocol

from chuko.core.words import count
from chuko.server.club.ratings import apply_result
from chuko.server.rooms import page_cache as pages
from chuko.server.rooms.room import Room
from chuko.server.shared.work import Pool
from chuko.server.store import database as db

WAITING_TTL = 24 * 3600.0  # seconds a room may wait for its players before it expires
LEAVE_GRACE = 60.0  # seconds a player's sockets may all be gone before they count as left


class ClusterPart(Protocol):
    """What the hub asks of this worker's part in a cluster (`cluster.Cluster`): named here,
    so that the hub need not import the cluster, which is built on it."""

    leader: bool  # this worker runs the bots and timers

    def publish(self, room_id: str, version: int, *, reload: bool = False, bots: bool = False,
                kind: str = "change") -> None: ...

    def publish_said(self, room_id: str, seat: int, phrase: str) -> None: ...

    def publish_away(self, room: Room) -> None: ...

    def attend(self, room: Room) -> None: ...

    def judge(self, room: Room) -> None: ...


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


class HubBase:
    """The state every part of the hub reads, and the calls that go from one part to another
    (declared here for the type checker; each is defined in its part's module)."""

    def __init__(self, store: db.Store, *, bot_delay: float = 0.6, round_pause: float = 4.0,
                 rng: Random | None = None,
                 bot_options: dict[str, dict[str, Any]] | None = None,
                 waiting_ttl: float = WAITING_TTL,
                 clock: Callable[[], float] = time.time, work: Pool | None = None,
                 grace: float = LEAVE_GRACE) -> None:
        self.store = store
        self.grace = grace  # seconds gone before a player counts as having left
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
        # The rooms' next deadlines (a clock running out, a player's grace ending), for the
        # timer of the worker that runs them (`forfeits.py`): one heap, and each room's
        # deadline now (entries of the heap that no longer match are stale).
        self._deadlines: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._timer: asyncio.Task | None = None
        self._timer_wake: asyncio.Event | None = None

    def now(self) -> float:
        """The hub's clock now (rooms read it through this, so a test may change it)."""
        return self.clock()

    def _rated_end(self, room: Room, places: list[int]) -> db.Write | None:
        """What the write that ends a rated room carries, to commit with it: its result
        applied to its players' ratings (`ratings.apply_result`), `places` by seat. None
        for a casual room."""
        if not room.rated:
            return None
        return apply_result(room.id, room.game_id, places, self.clock())

    @staticmethod
    def _ended(room: Room, at: float, unrated: str | None) -> None:
        """The room's end is stored, at `at`, and why it changed no rating if so."""
        room.ended = at
        if unrated is not None:
            room.result = {**(room.result or {}), "unrated": unrated}

    def runs_timers(self) -> bool:
        """Whether this worker runs the bots and timers (alone, or holding the lease)."""
        return self.cluster is None or self.cluster.leader

    def _tell(self, room: Room, reload: bool = False) -> None:
        """Tell the cluster's other workers that the room changed (`reload`: its header)."""
        if self.cluster is not None:
            # `bots` asks the lease holder to hold the room: its bots must move, or its
            # clocks run (their timer is the holder's).
            self.cluster.publish(room.id, room.version, reload=reload,
                                 bots=bool(room.bots_to_move()) or (
                                     room.status == "playing" and room.clocks is not None))

    if TYPE_CHECKING:
        async def room(self, room_id: str) -> Room: ...
        async def play(self, room: Room, seat: int | None, text: Any, *,
                       by_bot: bool = False) -> None: ...
        async def catch_up(self, room: Room, reload: bool = False) -> None: ...
        def kick(self, room: Room) -> None: ...
        def _make_bots(self, room: Room) -> None: ...
        async def _expire(self, room: Room) -> None: ...
        async def _sweep_now_and_then(self) -> None: ...
        def schedule(self, room: Room) -> None: ...
        def _hand_over(self, room: Room, seat: int, level: str, reason: str) -> None: ...
        def _start_timer(self) -> None: ...
        def _attend(self, room: Room) -> None: ...
        def _start_clocks(self, room: Room, at: float) -> None: ...
