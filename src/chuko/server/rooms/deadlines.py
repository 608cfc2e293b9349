"""The rooms' deadlines (`Deadlines`): when something next happens to a room by itself (a
clock runs out, an absent player's grace ends), kept in one heap for the timer
(`timer.py`) of the worker that runs the bots and timers. A forfeit that ends a game or
hands a seat to a bot (`GameOver`, `SeatLeft` on the bus) moves its room's deadline."""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable

from chuko.server.rooms.clocks import realtime
from chuko.server.rooms.peers import Peers
from chuko.server.rooms.room import Room
from chuko.server.shared.bus import Bus, GameOver, SeatLeft


class Deadlines:
    """Each room's next deadline, in one heap (entries that no longer match a room's deadline
    now are stale), noted where the timers run."""

    def __init__(self, rooms: dict[str, Room], clock: Callable[[], float], grace: float,
                 peers: Peers, bus: Bus) -> None:
        self.rooms, self.clock, self.grace, self.peers = rooms, clock, grace, peers
        self.by_room: dict[str, float] = {}
        self.heap: list[tuple[float, str]] = []
        self.wake = asyncio.Event()  # set when a deadline earlier than the first comes
        bus.subscribe(GameOver, self._heard)
        bus.subscribe(SeatLeft, self._heard)

    def _heard(self, event: GameOver | SeatLeft) -> None:
        room = self.rooms.get(event.room_id)
        if room is not None:
            self.schedule(room)

    def has_deadline(self, room_id: str) -> bool:
        """Whether the timer waits for something to happen to the room."""
        return room_id in self.by_room

    def schedule(self, room: Room) -> None:
        """Note the room's next deadline (only where the timers run)."""
        if not self.peers.runs_timers():
            return
        deadline = self.next_deadline(room)
        if deadline is None:
            self.by_room.pop(room.id, None)
            return
        if self.by_room.get(room.id) == deadline:
            return
        self.by_room[room.id] = deadline
        heapq.heappush(self.heap, (deadline, room.id))
        if len(self.heap) > 2 * len(self.by_room) + 64:  # drop the stale entries
            self.heap = [(d, r) for r, d in self.by_room.items()]
            heapq.heapify(self.heap)
        if self.heap[0] == (deadline, room.id):
            self.wake.set()

    def pop_due(self, now: float, done: set[str]) -> str | None:
        """The next room whose deadline is due by `now`, other than those `done` already,
        taken off the heap; None when no other is due."""
        while self.heap and self.heap[0][0] <= now:
            deadline, room_id = heapq.heappop(self.heap)
            if self.by_room.get(room_id) != deadline or room_id in done:
                continue
            del self.by_room[room_id]
            return room_id
        return None

    def retry(self, room_id: str, at: float) -> None:
        """Look at the room again at `at` (its deadline could not be acted on)."""
        self.by_room[room_id] = at
        heapq.heappush(self.heap, (at, room_id))

    def first(self) -> float | None:
        """The earliest deadline noted (perhaps stale), if any."""
        return self.heap[0][0] if self.heap else None

    def clear(self) -> None:
        """Forget every deadline (another worker runs the timers now)."""
        self.by_room.clear()
        self.heap.clear()

    def next_deadline(self, room: Room) -> float | None:
        """When something next happens to `room` by itself: a running clock runs out, or an
        absent player's grace ends (with 3+, a bot takes the seat; heads-up, the opponent
        may claim the game, and is told so then)."""
        if room.status != "playing":
            return None
        found = [ends for _, ends in self.absences(room)
                 if len(room.seats) > 2 or ends > self.clock()]
        if room.clocks is not None and (earliest := room.clocks.earliest()) is not None:
            found.append(earliest[0])
        return min(found) if found else None

    def absences(self, room: Room) -> list[tuple[int, float]]:
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

    def left(self, room: Room) -> list[int]:
        """The seats whose players have been away for the grace period."""
        now = self.clock()
        return [seat for seat, ends in self.absences(room) if ends <= now]
