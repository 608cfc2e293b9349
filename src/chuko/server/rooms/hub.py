"""The hub: every room the server knows, and the operations the HTTP and WebSocket routes
call. It builds the rooms' services, each given its collaborators, and names their
operations for the routes:

- `Rooms` (`lifecycle.py`): the rooms in memory, loaded when asked for, resumed at start,
  swept for those that waited too long (`Expiry`, `expiry.py`), their sockets come and
  gone;
- `Opening` (`opening.py`): new rooms and their seats taken, rematches;
- `MovePath` (`move_path.py`): every move checked, stored, then sent, and the moves other
  workers stored caught up;
- `Bots` (`bots.py`, made by `BotMaker`), `Forfeits` (`forfeits.py`), the rooms' `Deadlines`
  and their `Timer` (`deadlines.py`, `timer.py`), `Hints` and `History`;
- `Peers` (`peers.py`): this worker's cluster, if any: who runs the bots and timers, who
  is at which table.

What the club decides (ratings, which names pass for the server's labels) comes in as
`ClubTerms` (`terms.py`). What happened is told on the bus (`shared/bus.py`): the move path
publishes `MoveStored` and `GameOver`, the forfeits `ClockFlagged`, `GameOver` and
`SeatLeft`; the bots and the deadlines subscribe, and so may anyone else. Each committed
change to a room is published as a `RoomChanged` too, which a cluster hears to tell its
other workers.

Nothing here knows which game a room plays: its rules, options, bot levels, hints and
replays all come from the game's class and descriptor in the registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from random import Random
from typing import Any

from chuko.server.rooms.bot_maker import BotMaker
from chuko.server.rooms.bots import Bots
from chuko.server.rooms.deadlines import Deadlines
from chuko.server.rooms.expiry import WAITING_TTL, Expiry
from chuko.server.rooms.forfeits import Forfeits
from chuko.server.rooms.hints import Hints
from chuko.server.rooms.history import History
from chuko.server.rooms.lifecycle import Rooms
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.opening import Opening
from chuko.server.rooms.page_cache import Lru
from chuko.server.rooms.peers import ClusterPart, Peers
from chuko.server.rooms.room import Room
from chuko.server.rooms.terms import ClubTerms
from chuko.server.rooms.timer import Timer
from chuko.server.shared.bus import Bus
from chuko.server.shared.work import Pool
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

LEAVE_GRACE = 60.0  # seconds a player's sockets may all be gone before they count as left


class Hub:
    """Every room the server knows, and the operations the HTTP and WebSocket routes call."""

    def __init__(self, store: db.Store, terms: ClubTerms, *, bot_delay: float = 0.6,
                 round_pause: float = 4.0, rng: Random | None = None,
                 bot_options: dict[str, dict[str, Any]] | None = None,
                 waiting_ttl: float = WAITING_TTL, clock: Callable[[], float] = time.time,
                 work: Pool | None = None, grace: float = LEAVE_GRACE,
                 bus: Bus | None = None) -> None:
        self.store, self.grace, self.waiting_ttl = store, grace, waiting_ttl
        self.clock = clock  # seconds since the epoch; tests pass their own
        # Tests pass a seeded rng; a real server deals and plays its bots from `secrets`.
        self.rng = rng
        self.bus = bus or Bus()
        self.rooms: dict[str, Room] = {}
        # Hints and pages not kept are worked out here, never in the threads moves use.
        self.work = work or Pool()
        self.peers = Peers()
        now, bus = self.now, self.bus
        self.deadlines = Deadlines(self.rooms, now, grace, self.peers, bus)
        maker = BotMaker(rng, bot_options or {})
        self.moves = MovePath(store, now, self.deadlines, maker, bus, terms,
                              round_pause=round_pause, waiting_ttl=waiting_ttl)
        self.bots = Bots(self.rooms, self.moves, self.peers, bus, bot_delay)
        self.lifecycle = Rooms(store, now, grace, self.rooms, self.peers, terms,
                               self.deadlines, maker, self.moves, self.bots,
                               Expiry(store, now, waiting_ttl, bus))
        self.forfeits = Forfeits(store, now, grace, self.moves, maker, self.peers, bus, terms)
        self.timer = Timer(self.deadlines, self.lifecycle, self.forfeits, self.peers)
        self.opening = Opening(store, now, rng, self.lifecycle, self.moves, maker, self.bots,
                               bus, terms)
        self.hints = Hints(self.work)
        self.history = History(Lru(), self.work)
        self.sweeper: asyncio.Task | None = None
        self.closing = False
        # The operations the routes, the sockets and the cluster call, by their names.
        self.room, self.sweep = self.lifecycle.room, self.lifecycle.sweep
        self.connect, self.disconnect = self.lifecycle.connect, self.lifecycle.disconnect
        self.create, self.open_room = self.opening.create, self.opening.open_room
        self.join, self.rematch, self.follow = (self.opening.join, self.opening.rematch,
                                                self.opening.follow)
        self.catch_up = self.moves.catch_up
        self.kick, self.next_round = self.bots.kick, self.bots.next_round
        self.resign, self.claim = self.forfeits.resign, self.forfeits.claim
        self.schedule, self.check_clocks = self.deadlines.schedule, self.timer.check_clocks
        self.hint = self.hints.hint
        self.log, self.log_page = self.history.log, self.history.log_page
        self.replay = self.history.replay

    def now(self) -> float:
        """The hub's clock now (the services read it through this, so a test may change
        `clock`)."""
        return self.clock()

    async def play(self, room: Room, seat: int | None, text: Any) -> None:
        """A person's move down the move path (`MovePath.play`), after which the room's bots
        go on if one of them is to move, whatever came of it: a move refused once it was
        checked again, after the room caught up with a move stored late (one whose waiter
        was refused for time), leaves the room at a bot's turn that no `MoveStored` told
        the bots of, and they would never move."""
        try:
            await self.moves.play(room, seat, text)
        finally:
            self.bots.kick(room)

    @property
    def pages(self) -> Lru:
        """The cache of history pages (captions, replay chunks, and the club's game pages),
        by room and version; a test may give its own."""
        return self.history.pages

    @pages.setter
    def pages(self, kept: Lru) -> None:
        self.history.pages = kept

    @property
    def cluster(self) -> ClusterPart | None:
        """This worker's part in a cluster of workers sharing rooms (`cluster.workers`),
        which the app gives once it is built on the hub; None: alone."""
        return self.peers.cluster

    @cluster.setter
    def cluster(self, cluster: ClusterPart | None) -> None:
        self.peers.cluster = cluster

    async def restore(self) -> int:
        """Start the sweep for rooms that waited too long and the timer, then rebuild the
        rooms in play with bots (whose bots may have moves to make) and start them; the
        count rebuilt. In a cluster, the worker that takes the lease does this (`lead`)."""
        self.sweeper = asyncio.get_running_loop().create_task(
            self.lifecycle.sweep_now_and_then())
        self.timer.start()
        return await self.lifecycle.resume()

    async def lead(self) -> None:
        """This worker took the cluster's lease: it runs the bots and the sweep now. When the
        rooms in play cannot be read just then, it says so and goes on leading: each such
        room is rebuilt, its bots and clocks going on, when it is next asked for."""
        if not self.closing:
            try:
                await self.restore()
            except db.Unavailable as error:
                log.warning("The rooms in play could not be read to resume them: %s", error)

    def step_down(self) -> list[asyncio.Task]:
        """Stop the bots, the timer and the sweep (another worker runs them now); the tasks
        stopped."""
        tasks = self.bots.stop()
        for task in (self.sweeper, self.timer.stop()):
            if task is not None:
                task.cancel()
                tasks.append(task)
        self.sweeper = None
        return tasks

    async def close(self) -> None:
        self.closing = self.bots.closed = True
        for task in self.step_down():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
