"""The server's bots: made for a room's bot seats, and run one move at a time while one of
them is to move. Between rounds the bots wait (`Pause`) so people can read the round's
result, unless a seat says "next"."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from random import Random

from chuko.bots import make_bot
from chuko.core.errors import ChukoError, ConfigError
from chuko.server.rooms.hub_base import HubBase
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")


class BotRunner(HubBase):
    """A room's bots, run while one of them is to move (in a cluster, on the worker holding
    the lease)."""

    def _child_rng(self) -> Random:
        return secrets.SystemRandom() if self.rng is None else Random(self.rng.getrandbits(64))

    def _make_bots(self, room: Room) -> None:
        for seat in room.seats:  # those without one yet (a seat a bot took over, too)
            if seat.kind == "bot" and seat.level is not None and seat.bot is None:
                options = self.bot_options.get(room.game_id, {}).get(seat.level, {})
                seat.bot = make_bot(room.game_id, seat.level, self._child_rng(), **options)

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
                await self.play(room, seat.seat, str(move), by_bot=True)
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
