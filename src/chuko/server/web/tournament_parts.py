"""The tournaments as the app holds them (`TournamentParts`): the director (`tournament/`),
its HTTP routes (`tournaments_api.py`), and the leader's loop, which runs while the app does
and acts only on the worker holding the cluster's lease (or the only worker)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING

from chuko.server.lobby.seeks import rating_class
from chuko.server.lobby.wiring import rating_reader
from chuko.server.shared.bus import GameOver
from chuko.server.shared.limits import Budget, Clock, Limits
from chuko.server.tournament.director import Director, RatingOf
from chuko.server.tournament.leader import Leader
from chuko.server.tournament.opener import game_opener
from chuko.server.tournament.schedule import load_schedule
from chuko.server.web.identify import Identify
from chuko.server.web.lobby_parts import rating_text
from chuko.server.web.tournaments_api import TournamentApi

if TYPE_CHECKING:
    from chuko.server.cluster.workers import Cluster
    from chuko.server.rooms.hub import Hub


def _rating_of(hub: Hub) -> RatingOf:
    """A player's rating in a game, on the class of its tables (the lobby's reading)."""
    read = rating_reader(hub.store, rating_text)

    async def rating_of(player: str, game: str, table_size: int) -> float:
        return (await read(player, game, rating_class(table_size))).rating

    return rating_of


class TournamentParts:
    """The tournaments of the app on `hub`, alone or as one worker of `cluster`; `schedule`,
    the operator's TOML file of recurring tournaments (`tournament/schedule.py`); `limits`
    on `clock` count the requests, and `budget` the profiles looked up."""

    def __init__(self, hub: Hub, identify: Identify, limits: Limits, clock: Clock,
                 budget: Budget, cluster: Cluster | None = None,
                 schedule: str | None = None) -> None:
        self.director = Director(hub.store, _rating_of(hub), clock=hub.clock)
        entries = [] if schedule is None else load_schedule(schedule, time.time())
        self.leader = Leader(
            self.director, game_opener(hub), schedule=entries,
            leading=(lambda: True) if cluster is None else (lambda: cluster.leader))
        hub.bus.subscribe(GameOver, self.leader.game_over)
        self.api = TournamentApi(self.director, identify, limits, clock, budget,
                                 shared=None if cluster is None else cluster.buckets)
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self.leader.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
