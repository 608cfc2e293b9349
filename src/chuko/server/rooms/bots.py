"""The server's bots, run one move at a time while one of them is to move (`Bots`). Between
rounds the bots wait (`Pause`) so people can read the round's result, unless a seat says
"next".

The bots start when a room comes into memory or a seat is taken, and after every move this
worker stores or a seat a bot takes over: they hear `MoveStored` and `SeatLeft` on the bus.
The bots themselves are made by `bot_maker.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.text import Text
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.peers import Peers
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.shared.bus import Bus, MoveStored, RoomChanged, SeatLeft
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")


class Bots:
    """The rooms' bots, run while one of them is to move (in a cluster, on the worker holding
    the lease): one task per room at most, while its bots think."""

    def __init__(self, rooms: dict[str, Room], moves: MovePath, peers: Peers, bus: Bus,
                 delay: float) -> None:
        self.rooms, self.moves, self.peers, self.delay = rooms, moves, peers, delay
        self.bus = bus
        self.tasks: dict[Room, asyncio.Task] = {}  # by room, while its bots think
        self.closed = False
        bus.subscribe(MoveStored, self._heard)
        bus.subscribe(SeatLeft, self._heard)

    def _heard(self, event: MoveStored | SeatLeft) -> None:
        room = self.rooms.get(event.room_id)
        if room is not None:
            self.kick(room)

    def thinking(self, room: Room) -> bool:
        """Whether the room's bots are running (thinking, or waiting out a pause)."""
        task = self.tasks.get(room)
        return task is not None and not task.done()

    def kick(self, room: Room) -> None:
        """Start the room's bots if one of them must move and none is thinking already (in a
        cluster, only the worker holding the lease runs bots)."""
        if self.closed or not room.bots_to_move() or not self.peers.runs_timers():
            return
        if not self.thinking(room):
            task = asyncio.get_running_loop().create_task(self._bots(room))
            self.tasks[room] = task
            task.add_done_callback(lambda done: self._done(room, done))

    def _done(self, room: Room, task: asyncio.Task) -> None:
        if self.tasks.get(room) is task:
            del self.tasks[room]

    def stop(self) -> list[asyncio.Task]:
        """Stop every room's bots (another worker runs them now); the tasks stopped."""
        tasks = [task for task in self.tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        return tasks

    async def _bots(self, room: Room) -> None:
        while not self.closed:
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
                self.bus.publish(RoomChanged(room.id, pause.version, kind="state"))
                continue
            if self.delay:
                await asyncio.sleep(self.delay)  # so people can follow the bots' moves
            seat = waiting[0]
            state, version = room.state, room.version
            legal = state.legal_moves(seat.seat) if state.game.lists_moves else []
            try:
                move = await asyncio.to_thread(seat.bot.choose, state.view(seat.seat), legal)
                await self.moves.play(room, seat.seat, str(move), by_bot=True)
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
            raise Forbidden(Text("Spectators cannot start the next round."))
        pause = room.pause
        if pause is None or room.bots_wait(room.version) is None:
            raise ConfigError(Text("No round is waiting to start."))
        pause.over.set()
        # The bots may wait there.
        self.bus.publish(RoomChanged(room.id, pause.version, kind="next"))
