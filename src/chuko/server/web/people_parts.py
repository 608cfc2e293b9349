"""The people's parts as the app holds them (`PeopleParts`): the players' channel (in
memory, or over the cluster's Redis), whose turn it is where, follows and blocks, the
challenges, the sockets and requests on them, and the loop that runs while the app does:
every `SWEEP` seconds the worker holding the cluster's lease expires the challenges past
their time and forgets who went offline."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.types import Scope

from chuko.core.errors import ChukoError
from chuko.server.challenge.challenges import Challenges
from chuko.server.club.relations import Relations
from chuko.server.lobby.kv import MemoryKv, RedisKv
from chuko.server.notify.channel import Channel, Shared
from chuko.server.notify.turns import Turns
from chuko.server.shared.limits import Budget, Clock
from chuko.server.web.challenges_api import ChallengeApi
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.me_socket import MeSockets
from chuko.server.web.people_api import PeopleApi
from chuko.server.web.router import Post

if TYPE_CHECKING:
    from chuko.server.cluster.workers import Cluster
    from chuko.server.rooms.hub import Hub

log = logging.getLogger("chuko.server")
SWEEP = 30.0  # seconds between two sweeps of the expired challenges


class PeopleParts:
    """The people of the app on `hub`, alone or as one worker of `cluster`; `player` finds
    a request's player; `clock` (monotonic) measures the rates."""

    def __init__(self, hub: Hub, player: PlayerLookup, budget: Budget, clock: Clock,
                 cluster: Cluster | None = None) -> None:
        shared: Shared = (MemoryKv() if cluster is None
                          else RedisKv(cluster.redis, cluster.name, topic="people"))
        self.channel = Channel(shared, "local" if cluster is None else cluster.name)
        self.relations = Relations(hub.store, hub.now)
        self.challenges = Challenges(hub, self.channel.tell, hub.now)
        self.turns = Turns(hub.store, hub.rooms, hub.room, hub.bus, self.channel.tell)
        self.sockets = MeSockets(self.channel, self.challenges, self.turns, player)
        self.player = player
        self.people_api = PeopleApi(self.relations, self.channel, player, budget, clock)
        self.challenge_api = ChallengeApi(self.challenges, player, clock)
        self.leading: Callable[[], bool] = ((lambda: True) if cluster is None
                                            else (lambda: cluster.leader))
        self._sweeper: asyncio.Task | None = None

    @property
    def paths(self) -> dict[str, Post]:
        """The POST requests by path, for `router.App`."""
        return {**self.people_api.paths, **self.challenge_api.paths}

    @property
    def apis(self) -> tuple[PeopleApi, ChallengeApi]:
        """The requests' handlers, each adding its GET routes (`add_routes`)."""
        return self.people_api, self.challenge_api

    async def hidden(self, scope: Scope) -> frozenset[str]:
        """The players a request's player blocks, whose quick messages their room sockets
        are not sent; none while the database cannot say (the socket still opens)."""
        try:
            player = await self.player(scope)
            if player is None or player.is_guest:
                return frozenset()
            return await self.relations.blocked_ids(player.id)
        except ChukoError:
            return frozenset()

    async def start(self) -> None:
        await self.channel.start()
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        await self.channel.stop()

    async def sweep(self) -> None:
        """Expire the challenges past their time and forget who went offline, when this
        worker holds the lease."""
        if self.leading():
            await self.challenges.sweep()
            await self.channel.forget_lapsed()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                await self.sweep()
            except ChukoError as error:
                log.warning("Could not sweep the challenges: %s", error)
            except Exception:
                log.exception("The challenges' sweep failed")

