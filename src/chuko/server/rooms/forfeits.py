"""Games ended or seats given up before the engine says so: a clock run out, a player who
resigns, a player who left (every socket gone for the grace period). Heads-up, the game ends
and that player loses; with 3+ players, a bot takes the seat over for the rest of the game
and its player finishes last (`endings.py`). In a game between people, a resignation, a
claim or a clock run out before the game's second move, or a seat's time run out before its
first move (`clocks.py`'s first-move limit), aborts the game instead: over, nobody's win, no
rating changed.

A forfeit is stored as one header write checked against the room's version
(`writes.forfeit`): a move stored first makes it a Conflict, and it is looked at again
against the game as it now is. The worker that runs the bots and timers (alone, or holding
the cluster's lease) keeps one heap of the rooms' next deadlines and one timer task that
sleeps until the earliest; never a task per room.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Callable
from functools import partial

from chuko.core.errors import ChukoError, ConfigError
from chuko.server.rooms.clocks import realtime
from chuko.server.rooms.endings import ABORT_BEFORE, people, ranks
from chuko.server.rooms.hub_base import HubBase, stored
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

CONFLICT_RETRIES = 3
IDLE_WAIT = 60.0  # seconds the timer sleeps at most (it is woken for an earlier deadline)


def bot_level(levels: tuple[str, ...]) -> str:
    """The level of the bot that takes a seat over: easy, else the weakest after random."""
    if "easy" in levels:
        return "easy"
    return levels[1] if len(levels) > 1 else levels[0]


def _abort(room: Room, seat: int, reason: str) -> str | None:
    """Why `seat`'s forfeit for `reason` aborts the game (`endings.ABORT_BEFORE`): in a game
    between people, "first_move" for a seat whose time ran out before it moved, else the
    reason while the game has fewer than two moves; None when it does not. A player who
    leaves a table of three or more hands their seat to the bot however early: the others
    play on."""
    if people(room.seats) < 2 or (reason == "left" and len(room.seats) > 2):
        return None
    if reason == "timeout" and room.clocks is not None and seat not in room.clocks.opened:
        return "first_move"
    return reason if room.version < ABORT_BEFORE else None


class Forfeits(HubBase):
    """Resigning, claiming a game from a player who left, and the timer that ends the turns
    of clocks that run out and of players who left."""

    # -- what players ask -------------------------------------------------------------------

    async def resign(self, room: Room, seat: int | None) -> None:
        """`seat` gives up: heads-up the game ends, with 3+ a bot takes the seat."""
        if seat is None:
            raise Forbidden("Spectators cannot resign.")
        self._playing(room, seat)
        await self._forfeit(room, seat, "resigned",
                            lambda: room.status == "playing" and not room.seats[seat].gone)

    async def claim(self, room: Room, seat: int | None) -> None:
        """`seat` claims the heads-up game of an opponent who left (`Room.claimable`)."""
        if seat is None:
            raise Forbidden("Spectators cannot claim a game.")
        self._playing(room, seat)
        left = room.claimable(seat)
        if not left:
            raise ConfigError("There is nothing to claim: your opponent has not been away "
                              f"for {round(self.grace)} seconds.")
        await self._forfeit(room, left[0], "left", lambda: left[0] in room.claimable(seat))

    @staticmethod
    def _playing(room: Room, seat: int) -> None:
        if room.status != "playing":
            raise ConfigError("Only a game in play can be given up or claimed.")
        if room.seats[seat].kind != "human":
            raise ConfigError("A bot plays this seat now.")

    # -- the forfeit ------------------------------------------------------------------------

    async def _forfeit(self, room: Room, seat: int, reason: str,
                       still: Callable[[], bool]) -> None:
        """Store `seat`'s forfeit for `reason` while `still()` holds (checked again after a
        move stored meanwhile), then tell everyone."""
        async with room.lock:
            for attempt in range(CONFLICT_RETRIES + 1):
                if not still():
                    return
                try:
                    await self._store_forfeit(room, seat, reason)
                    break
                except db.Conflict:
                    if attempt == CONFLICT_RETRIES:
                        raise
                    await self.catch_up(room, reload=True)
        self.kick(room)
        self.schedule(room)
        if self.cluster is not None and self.cluster.leader:
            self.cluster.judge(room)  # the seat a bot took is nobody's absence now

    async def _store_forfeit(self, room: Room, seat: int, reason: str) -> None:
        """The write, then memory (the caller holds the room's lock). A rated game's end
        carries its ratings, to commit with it."""
        now = self.clock()
        result = dict(room.result or {})
        aborted = _abort(room, seat, reason)
        over = aborted is not None or len(room.seats) <= 2
        level = None
        if aborted is not None:
            result.update(kind="aborted", seat=seat, why=aborted)
        elif over:
            result.update(kind=reason, seat=seat)
        else:
            result["gone"] = [*result.get("gone", []), seat]
            level = bot_level(room.descriptor.levels)
        then = self._rated_end(room, ranks(len(room.seats), None, result)) if over else None
        commit = self.store.submit(db.forfeit(room.id, room.version, result, over=over,
                                              at=now, seat=seat, reason=reason, level=level,
                                              then=then))
        try:
            await commit
        finally:
            if stored(commit):
                room.result = result
                if level is None:
                    room.status = "over"
                    self._ended(room, now, commit.result())
                else:
                    self._hand_over(room, seat, level, reason)
                room.broadcast()
                self._tell(room, reload=True)

    def _hand_over(self, room: Room, seat: int, level: str, reason: str) -> None:
        """A bot of `level` plays `seat` from now on (stored already)."""
        held = room.seats[seat]
        held.kind, held.level, held.gone = "bot", level, reason
        held.bot = None
        room.renamed()
        self._make_bots(room)
        if room.clocks is not None:
            room.clocks.stop(seat)
        room.away.pop(seat, None)

    # -- the timer --------------------------------------------------------------------------

    def _next_deadline(self, room: Room) -> float | None:
        """When something next happens to `room` by itself: a running clock runs out, or an
        absent player's grace ends (with 3+, a bot takes the seat; heads-up, the opponent
        may claim the game, and is told so then)."""
        if room.status != "playing":
            return None
        found = [ends for _, ends in self._absences(room)
                 if len(room.seats) > 2 or ends > self.clock()]
        if room.clocks is not None and (earliest := room.clocks.earliest()) is not None:
            found.append(earliest[0])
        return min(found) if found else None

    def _absences(self, room: Room) -> list[tuple[int, float]]:
        """The people's seats whose absence counts, and when their grace ends: where clocks
        are realtime (or none), while another person plays (a game against bots waits for
        its player)."""
        if room.status != "playing" or not realtime(
                None if room.clocks is None else room.clocks.control):
            return []
        people = [seat.seat for seat in room.seats if seat.kind == "human"]
        if len(people) < 2:
            return []
        return [(seat, max(since, room.started or since) + self.grace)
                for seat, since in sorted(room.away.items()) if seat in people]

    def schedule(self, room: Room) -> None:
        """Note the room's next deadline for the timer (only where the timers run)."""
        if not self.runs_timers():
            return
        deadline = self._next_deadline(room)
        if deadline is None:
            self._deadlines.pop(room.id, None)
            return
        if self._deadlines.get(room.id) == deadline:
            return
        self._deadlines[room.id] = deadline
        heapq.heappush(self._heap, (deadline, room.id))
        if len(self._heap) > 2 * len(self._deadlines) + 64:  # drop the stale entries
            self._heap = [(d, r) for r, d in self._deadlines.items()]
            heapq.heapify(self._heap)
        if self._timer_wake is not None and self._heap[0] == (deadline, room.id):
            self._timer_wake.set()

    async def check_clocks(self) -> int:
        """Act on every deadline due by now; how many rooms were looked at."""
        now = self.clock()
        done: set[str] = set()
        while self._heap and self._heap[0][0] <= now:
            deadline, room_id = heapq.heappop(self._heap)
            if self._deadlines.get(room_id) != deadline or room_id in done:
                continue
            del self._deadlines[room_id]
            done.add(room_id)
            try:
                await self._check(await self.room(room_id))
            except db.Unavailable:
                self._deadlines[room_id] = now + db.RETRY_AFTER  # again once it is back
                heapq.heappush(self._heap, (now + db.RETRY_AFTER, room_id))
            except ChukoError as error:
                log.error("Room %s: its clocks could not be checked: %s", room_id, error)
        return len(done)

    async def _check(self, room: Room) -> None:
        """A room's deadline is due: end the turns of clocks run out and of players who
        left."""
        clocks = room.clocks
        if clocks is not None:
            for seat in clocks.out(self.clock()):
                await self._forfeit(room, seat, "timeout", partial(self._out, room, seat))
        if room.status == "playing" and len(room.seats) > 2:
            for seat in self._left(room):
                await self._forfeit(room, seat, "left",
                                    partial(lambda r, s: s in self._left(r), room, seat))
        elif room.status == "playing":
            room.broadcast()  # heads-up: the opponent may claim the game now
            if self.cluster is not None:
                self.cluster.publish_away(room)  # on whichever worker they are
        self.schedule(room)

    def _out(self, room: Room, seat: int) -> bool:
        """Whether `seat`'s clock has run out in a game in play."""
        return (room.status == "playing" and room.clocks is not None
                and seat in room.clocks.out(self.clock()))

    def _left(self, room: Room) -> list[int]:
        """The seats whose players have been away for the grace period."""
        now = self.clock()
        return [seat for seat, ends in self._absences(room) if ends <= now]

    def _start_timer(self) -> None:
        """Run the timer (where the bots and timers run)."""
        if self._timer is None or self._timer.done():
            self._timer_wake = asyncio.Event()
            self._timer = asyncio.get_running_loop().create_task(self._run_timer())

    async def _run_timer(self) -> None:
        wake = self._timer_wake
        assert wake is not None
        while not self._closing:
            try:
                await self.check_clocks()
            except Exception:  # a failed check must not stop the next one
                log.exception("The check of the rooms' clocks failed.")
            wait = IDLE_WAIT if not self._heap else self._heap[0][0] - self.clock()
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), min(IDLE_WAIT, max(0.01, wait)))
