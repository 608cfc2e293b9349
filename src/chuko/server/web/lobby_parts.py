"""The lobby as the app holds it (`LobbyParts`): its board (in memory, or in the cluster's
Redis), the matchmaker and the feed (`lobby/`), the web's sockets on them
(`lobby_socket.py`), and the loops that run while the app does (`start`, `stop`). Pairing is
led by the worker that holds the cluster's lease, the one that runs the bots and timers; the
others follow."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from chuko.server.club.ratings import Shown
from chuko.server.lobby.board import Board
from chuko.server.lobby.feed import Feed
from chuko.server.lobby.kv import Kv, MemoryKv, RedisKv
from chuko.server.lobby.matchmaking import Matchmaker
from chuko.server.lobby.seeks import LobbyLimits
from chuko.server.lobby.wiring import rating_reader, room_opener
from chuko.server.store.rating_rows import RatingRow
from chuko.server.web.lobby_socket import Identify, LobbySockets

if TYPE_CHECKING:
    from chuko.server.cluster.workers import Cluster
    from chuko.server.rooms.hub import Hub


def rating_text(row: RatingRow | None) -> str:
    """A stored rating as the lobby shows it, by the club's rule ("1500?")."""
    return Shown.of_row(row).text()


class LobbyParts:
    """The lobby of the app on `hub`, alone or as one worker of `cluster`."""

    def __init__(self, hub: Hub, identify: Identify, cluster: Cluster | None = None,
                 limits: LobbyLimits | None = None) -> None:
        limits = limits or LobbyLimits()
        kv: Kv = MemoryKv() if cluster is None else RedisKv(cluster.redis, cluster.name)
        self.board = Board(kv, "local" if cluster is None else cluster.name)
        self.matchmaker = Matchmaker(
            self.board, room_opener(hub), rating_reader(hub.store, rating_text),
            limits=limits,
            leading=(lambda: True) if cluster is None else (lambda: cluster.leader),
            me="alone" if cluster is None else cluster.me,
            alive=None if cluster is None else cluster.alive, bus=hub.bus)
        self.feed = Feed(self.board, list(self.matchmaker.pools), every=limits.every,
                         grace=limits.grace, first=limits.first_seeks,
                         worker=self.matchmaker.me)
        self.sockets = LobbySockets(self.matchmaker, self.feed, identify)
        self._tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        await self.board.kv.start(self.feed.deliver)
        self._tasks = [asyncio.create_task(self.matchmaker.run()),
                       asyncio.create_task(self.feed.run())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.board.kv.stop()
