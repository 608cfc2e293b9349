"""The web app: pages and static files of `chuko/web/`, the JSON API and live play over
WebSockets, as docs/web-protocol.md describes them.

`create_app(db_url)` builds an app bound to one database from its parts: the router
(`router.App`), the pages (`html_pages.py`), the HTTP API (`*_api.py`), the game's sockets
(`room_socket.py`) and the hub of rooms (`rooms/hub.py`) on the store
(`store/database.py`). Starting it rebuilds the rooms in play with bots to move and lets them
go on (others load when first asked for). What a client may ask is bounded by
`shared/limits.py`; every response carries the security headers of `SECURITY_HEADERS`
(`guard.py`), and the server's access log shows no seat token or invite code
(`redaction.py`). While the app runs the garbage collector keeps the schedule of
`collector.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any, Protocol, cast

from fastapi import FastAPI
from starlette.datastructures import State
from starlette.types import Scope

from chuko.server.club.labels import passes_for_a_label
from chuko.server.club.ratings import rated_end, seat_ratings, unrated_sentence
from chuko.server.practice.daily import Daily
from chuko.server.practice.lessons import Lessons
from chuko.server.practice.puzzles import Puzzles
from chuko.server.rooms.expiry import WAITING_TTL
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.terms import ClubTerms
from chuko.server.shared.limits import MAX_BODY, Budget, Clock, Limits
from chuko.server.shared.players import Player
from chuko.server.shared.work import Pool
from chuko.server.store.database import Store
from chuko.server.store.reader import READ_TIMEOUT
from chuko.server.store.writer import WRITE_TIMEOUT
from chuko.server.web import collector
from chuko.server.web.accounts import Accounts
from chuko.server.web.accounts_api import AccountApi
from chuko.server.web.answers import Answer, SaidRoute
from chuko.server.web.connections import HttpProtocol, WebSocketProtocol
from chuko.server.web.daily_api import DailyApi
from chuko.server.web.guard import Guard
from chuko.server.web.html_pages import add_pages, web_dir
from chuko.server.web.http_errors import add_refusals
from chuko.server.web.identify import PlayerLookup
from chuko.server.web.lessons_api import LessonApi
from chuko.server.web.lobby_parts import LobbyParts
from chuko.server.web.people_parts import PeopleParts
from chuko.server.web.profiles_api import ProfileApi
from chuko.server.web.puzzles_api import PuzzleApi
from chuko.server.web.redaction import hide_secrets_in_logs
from chuko.server.web.room_socket import Sockets
from chuko.server.web.rooms_api import Api
from chuko.server.web.router import App
from chuko.server.web.sign_out_sockets import Socket, closing_on_sign_out
from chuko.server.web.tournament_parts import TournamentParts
from chuko.solvers import warm_up as warm_solvers

if TYPE_CHECKING:
    from chuko.server.cluster.workers import Cluster

log = logging.getLogger("chuko.server")

# uvicorn's settings for this app, which `chuko serve` passes on (and the bench's echo
# peer too, the limit the server is measured against). No permessage-deflate: a state
# message is about 1 KB, which each socket would compress again in a zlib stream of its own
# (its CPU and memory per socket are in docs/performance.md, "Figures the server's design
# rests on"), to save less than 1 KB a move at a player's pace.
# Its protocols are uvicorn's, made to bound slow and numerous connections and to leave no
# garbage cycle behind (`connections.py`). uvicorn closes a message longer than
# `ws_max_size` bytes with 1009 and no sentence; a message of MAX_BODY characters may take
# up to 4 bytes each in UTF-8, so below that bound the app's own check answers
# (`socket_io.py`), and the bound still caps what a socket's message may hold in
# memory. The client's address is the connection's: `chuko serve --forwarded-allow-ips`
# trusts a proxy's X-Forwarded-For. A stop (SIGTERM, Ctrl-C) waits at most
# `timeout_graceful_shutdown` seconds for requests in flight, whatever they wait on, then
# closes what is left.
SERVING: dict[str, Any] = {"ws_max_size": 4 * MAX_BODY, "ws_per_message_deflate": False,
                           "http": HttpProtocol, "ws": WebSocketProtocol,
                           "proxy_headers": False, "timeout_graceful_shutdown": 5}

# What the rooms take from the club: its ratings applied at a rated end and shown by the
# seats, and its words and labels (the rooms import nothing of the club).
CLUB_TERMS = ClubTerms(rated_end, unrated_sentence, passes_for_a_label, seat_ratings)


def create_app(
    db_url: str,
    *,
    bot_delay: float = 0.6,
    round_pause: float = 4.0,
    rng: Random | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
    static_dir: Path | None = None,
    limits: Limits | None = None,
    clock: Clock = time.monotonic,
    waiting_ttl: float = WAITING_TTL,
    redis_url: str | None = None,
    cluster_name: str | None = None,
    lease_seconds: float | None = None,
    open_registration: bool = True,
    timeouts: tuple[float, float] = (READ_TIMEOUT, WRITE_TIMEOUT),
    schedule: str | None = None,
) -> App:
    """The app on database `db_url` (`sqlite:///…` or `postgresql://…`). `bot_delay` is the
    pause before each bot move (so people can follow them); `round_pause` the seconds bots
    wait after a round ends before they start the next (a seat may cut it short); `rng`
    seeds deals and bots for tests only (a real server deals from `secrets`); `bot_options`
    maps a game's id to {level: keyword options for its `make_bot`}, e.g.
    {"hard": {"simulations": 200}}; `limits` what one client may ask (`Limits()` by default),
    measured on `clock` (tests pass their own); `waiting_ttl` the seconds a room may wait
    for its players before it expires. With `redis_url` the app is one worker of a cluster
    named `cluster_name` that shares the database's rooms through Redis
    (`cluster/workers.py`; `lease_seconds`: how long a dead worker's lease on the bots
    lasts). Anyone may play as a guest; with `open_registration` False nobody may make an
    account (`accounts.py`). `timeouts`: the seconds a database read, and a write, may take
    (`store/reader.py`, `store/writer.py`); `schedule` a TOML file of recurring tournaments."""
    limits = limits or Limits()
    store = Store(db_url, read_timeout=timeouts[0], write_timeout=timeouts[1])
    hub = Hub(store, CLUB_TERMS, bot_delay=bot_delay, round_pause=round_pause, rng=rng,
              bot_options=bot_options, waiting_ttl=waiting_ttl,
              work=Pool(limits.workers, limits.waiting_jobs), grace=limits.leave_grace)
    cluster = _cluster(hub, redis_url, cluster_name, lease_seconds)
    budget = Budget(limits, clock)  # replay pages, log pages and hints
    accounts = Accounts(store, limits, clock)
    account_api = AccountApi(accounts, limits, clock, open_registration=open_registration,
                             shared=None if cluster is None else cluster.buckets)
    api = Api(hub, limits, clock, budget, identify=accounts.player)
    daily = Daily(store)
    daily_api = DailyApi(daily, accounts.player)
    # The state comes first: the parts read its accounts when asked (a test may set its own).
    state = State({"hub": hub, "accounts": accounts, "daily": daily})
    lobby, people, tournaments = parts = _parts(hub, state, limits, clock, budget, cluster,
                                                schedule)
    app = App(posts=api.posts, paths={**account_api.paths, **daily_api.paths, **people.paths},
              **_sockets(hub, limits, clock, budget, accounts, (lobby, people), cluster),
              lifespan=_lifespan(store, hub, cluster, parts, account_api.close), **FASTAPI)
    app.router.route_class = SaidRoute
    app.state, state.lobby, state.people, state.tournaments = state, lobby, people, tournaments
    app.add_middleware(Guard)
    add_refusals(app)
    add_pages(app, static_dir or web_dir(), add_club_routes(app, store, budget, state).page_status)
    for routes in (api, account_api, daily_api, *people.apis, tournaments.api):
        routes.add_routes(app)
    return app


def _parts(hub: Hub, state: State, limits: Limits, clock: Clock, budget: Budget,
           cluster: Cluster | None,
           schedule: str | None) -> tuple[LobbyParts, PeopleParts, TournamentParts]:
    """The lobby, the people and the tournaments, each with its loops; their players are the
    session's (a page makes a guest first: POST /api/me)."""
    return (LobbyParts(hub, _player_of(state), cluster),
            PeopleParts(hub, _player_of(state), budget, clock, cluster),
            TournamentParts(hub, state.accounts.player, limits, clock, budget, cluster,
                            schedule))


def _sockets(hub: Hub, limits: Limits, clock: Clock, budget: Budget, accounts: Accounts,
             parts: tuple[LobbyParts, PeopleParts],
             cluster: Cluster | None) -> dict[str, Socket]:
    """The game's, the lobby's and the player's own sockets, as `App` takes them
    (`live`, `lobby`, `me`), each closed as soon as the session it was opened in ends
    (`sign_out_sockets.py`), on whichever worker of the `cluster` it ends."""
    if cluster is not None:
        accounts.sign_outs.tell = cluster.publish_signed_out
        cluster.on_signed_out = accounts.sign_outs.heard
    closing = partial(closing_on_sign_out, sign_outs=accounts.sign_outs,
                      session=accounts.session)
    return {"live": closing(Sockets(hub, limits, clock, budget, identify=accounts.player,
                                    hidden=parts[1].hidden)),
            "lobby": closing(parts[0].sockets), "me": closing(parts[1].sockets)}


def add_club_routes(app: App, store: Store, budget: Budget, state: State) -> ProfileApi:
    """The routes read for the session's player: leaderboards and profiles, the lessons and
    the rated Crossroads puzzles; the profiles' API, which the profile pages ask too."""
    profiles = ProfileApi(state.hub, budget, _player_of(state))
    profiles.add_routes(app)
    LessonApi(Lessons(store), state.accounts.player).add_routes(app)
    PuzzleApi(Puzzles(store), _player_of(state)).add_routes(app)
    return profiles


# No OpenTelemetry: FastAPI would otherwise look for its providers at every request and socket
# (about a fifth of the framework's cost of a request). Versions without the option keep it
# as an unused extra.
NO_TELEMETRY = {"tracing": False, "metrics": False, "logs": False}
# FastAPI's options: no generated docs, and answers in their reader's language (`Answer`).
FASTAPI: dict[str, Any] = {"docs_url": None, "redoc_url": None, "openapi_url": None,
                           "telemetry": NO_TELEMETRY, "default_response_class": Answer}


def _cluster(hub: Hub, redis_url: str | None, name: str | None,
             lease_seconds: float | None) -> Cluster | None:
    """With `redis_url`, this worker's part in the cluster `name` (`cluster/workers.py`); None
    for a server alone (which needs no Redis client installed)."""
    if redis_url is None:
        return None
    from chuko.server.cluster.workers import LEASE_SECONDS, NAME, Cluster

    cluster = hub.cluster = Cluster(hub, redis_url, name=name or NAME,
                                    lease_seconds=lease_seconds or LEASE_SECONDS)
    return cluster


Lifespan = Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]


class Part(Protocol):
    """A part of the app with loops that run while it does (the lobby, the people, the
    tournaments): started in order once the rooms are up, stopped in reverse."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


def _lifespan(store: Store, hub: Hub, cluster: Cluster | None, parts: Sequence[Part],
              close: Callable[[], None]) -> Lifespan:
    """What the app does as it starts (the writer, the rooms to restore, the collector's
    schedule, the lobby's and the tournaments' loops, the solvers' kernels loaded in the
    background: `_warming`) and as it stops, in reverse (and then `close`: the passwords'
    pool)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hide_secrets_in_logs()
        store.start()
        if cluster is not None:
            await cluster.start()  # the worker holding the lease restores the rooms
        elif restored := await hub.restore():
            log.info("Resumed %d room(s) in play with bots.", restored)
        collector.start()
        for part in parts:
            await part.start()
        app.state.warming = _warming()
        try:
            yield
        finally:
            for part in reversed(parts):
                await part.stop()
            collector.stop()
            if cluster is not None:
                await cluster.stop()
            await hub.close()
            hub.work.close()
            close()
            await asyncio.to_thread(store.close)

    return lifespan


def _warming() -> threading.Thread:
    """The solvers' kernels loaded (or compiled) in a thread, so the first hint does not
    wait for them (`warm_solvers`, read when the app starts); a failure is logged. Not a
    daemon: a stop waits for it rather than cut the compiler off as it writes its cache."""

    def run() -> None:
        try:
            warm_solvers()
        except Exception:
            log.warning("Could not warm the solvers up; the first hint compiles them.",
                        exc_info=True)

    thread = threading.Thread(target=run, name="chuko-warm-up")
    thread.start()
    return thread


def _player_of(state: State) -> PlayerLookup:
    """A request's player, as the app's accounts (`state.accounts`) know it when asked,
    never making a guest: reading one's games makes nobody a player."""

    async def player(scope: Scope) -> Player | None:
        return cast(Player | None, await state.accounts.player(scope, create=False))

    return player
