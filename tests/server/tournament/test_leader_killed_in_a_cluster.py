"""Two workers of a cluster sharing PostgreSQL and Redis, run in one process: the worker
leading the tournaments dies (every task of its cluster, its hub and its tournaments stops
where it is, its lease left to run out) after recording a Swiss round of three games and
making one of their rooms. The other worker takes the lease and makes the two rooms
missing, not the one made; then it pairs every round to the end, and each game counts once
in the standings.

Skipped without CHUKO_TEST_POSTGRES; Redis from CHUKO_TEST_REDIS, else a private one."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
import uuid

import pytest
from sqlalchemy import select, update
from tournament_kit import FakeRules, decide, settings

from chuko.server import create_app
from chuko.server.shared.players import Player
from chuko.server.store import tournament_rows as rows
from chuko.server.store.schema import rooms, seats, tournaments
from chuko.server.tournament.opener import game_opener
from club_seed import add_player, postgres_schema

pytestmark = pytest.mark.slow
pytest.importorskip("redis")
ROUNDS = 3


@pytest.fixture
def pg_url():
    with postgres_schema("tournament leader killed") as url:
        yield url


def die(app) -> None:
    """The worker's process ends here: its cluster's loops (the lease's renewal among
    them), its bots and timers stop, and nothing of it acts again."""
    cluster = app.state.hub.cluster
    for task in [*cluster._loops, *cluster._tasks]:
        task.cancel()
    app.state.hub.step_down()


async def until(done, seconds: float = 20.0) -> None:
    """Wait for `done()` (a bool, or an awaitable of one) to be true."""
    deadline = time.monotonic() + seconds
    while not await _value(done()):
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.05)


def test_a_round_recorded_by_a_killed_leader_is_made_once_by_the_next(pg_url, redis_url):
    async def scenario() -> None:
        name = f"tournament-kill-{uuid.uuid4().hex[:8]}"
        apps = [create_app(pg_url, redis_url=redis_url, cluster_name=name, lease_seconds=2.0,
                           bot_delay=3600, round_pause=0) for _ in range(2)]
        made_by_dying: list[str] = []
        dead: list = []
        for app in apps:
            app.state.tournaments.director.rules = FakeRules()
            app.state.tournaments.leader.every = 0.05
            app.state.tournaments.leader.open_game = _dies_after_one_room(app, made_by_dying,
                                                                          dead)
        async with contextlib.AsyncExitStack() as stack:
            for app in apps:
                await stack.enter_async_context(app.router.lifespan_context(app))
            store = apps[0].state.hub.store
            people = [Player(await asyncio.to_thread(add_player, store.engine, f"kp{n}"),
                             f"kp{n}", f"kp{n}") for n in range(6)]
            director = apps[0].state.tournaments.director
            page = await director.create(people[0], settings(
                "swiss", rounds=ROUNDS, starts_at=time.time() + 600))
            for player in people:
                await director.join(player, page["id"])
            await asyncio.to_thread(_due_now, store, page["id"])
            await until(lambda: bool(dead))
            (heir,) = [app for app in apps if app is not dead[0]]
            await _play_rounds(heir, page["id"], made_by_dying)
            final = await director.page(page["id"], None)
            assert final["status"] == "over" and final["final"]
            assert sum(line["points"] for line in final["standings"]) == ROUNDS * 3

    asyncio.run(scenario())


def _dies_after_one_room(app, made_by_dying: list[str], dead: list):
    """The worker's room maker: the first room of the round is made, and the worker making
    the next dies there (the one leading then; another, if the lease changed hands under
    load meanwhile). Once one has died, rooms are made as ever."""
    opener = game_opener(app.state.hub)

    async def open_game(tournament, room_id, players, names):
        if dead:
            return await opener(tournament, room_id, players, names)
        if made_by_dying:
            dead.append(app)
            die(app)
            raise asyncio.CancelledError
        made_by_dying.append(room_id)
        return await opener(tournament, room_id, players, names)

    return open_game


def _due_now(store, tournament_id: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                     .values(starts_at=time.time()))


async def _value(found):
    return await found if inspect.isawaitable(found) else found


async def _play_rounds(heir, tournament_id: str, made_by_dying: list[str]) -> None:
    """Each round made in full (the first by both workers: one room by the dying one, the
    rest by the heir), every room once with its players seated once, then its games ended."""
    store, hub = heir.state.hub.store, heir.state.hub
    seen: set[str] = set()
    for number in range(1, ROUNDS + 1):
        async def made(number=number) -> bool:
            games = await store.fetch(lambda conn: rows.games(conn, tournament_id))
            round_games = [g for g in games if g.round == number]
            return len(round_games) == 3 and all(g.status for g in round_games)

        await until(made)
        games = [g for g in await store.fetch(lambda conn: rows.games(conn, tournament_id))
                 if g.round == number]
        ids = {g.room_id for g in games}
        if number == 1:
            assert len(made_by_dying) == 1 and set(made_by_dying) < ids
        assert not ids & seen
        seen |= ids
        with store.engine.connect() as conn:
            seated = conn.execute(select(seats.c.room, seats.c.player).join(
                rooms, rooms.c.id == seats.c.room).where(rooms.c.id.in_(ids))).all()
        assert sorted(player for _, player in seated) == sorted(
            p for g in games for p in g.players)
        for game in games:
            await decide(hub, game.room_id, loser=1)
    await until(lambda: _over(store, tournament_id))


async def _over(store, tournament_id: str) -> bool:
    found = await store.fetch(lambda conn: rows.tournament(conn, tournament_id))
    return found.status == "over"
