"""A rated result is applied exactly once, durably: the write that ends a rated game (its
final move, or a forfeit) carries its ratings, so the end and the ratings commit in one
transaction or not at all, whatever happens to the worker after the commit and however many
workers race to store the end."""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text
from test_aborts import rated_table
from test_clocks import Clock, hub_on, run

from chuko.core.errors import ConfigError
from chuko.server.club.ratings import apply_result
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.move_path import MOVE_NOT_SAVED
from chuko.server.rooms.room import Room
from chuko.server.shared.bus import RoomChanged
from chuko.server.store import database as db
from chuko.server.store.database import Store
from chuko.server.store.schema import moves, rating_history, ratings, rooms
from club_seed import add_room, postgres_schema


async def to_last_move(hub: Hub, room: Room, rng: Random) -> tuple[int, str]:
    """Play the game until one move is left to end it: that move, as (seat, text)."""
    while True:
        seat = room.state.to_move[0]
        move = room.state.random_move(seat, rng)
        probe = room.state.copy()
        probe.play(seat, move)
        if probe.outcome is not None:
            return seat, str(move)
        await hub.play(room, seat, str(move))


def stored(store: Store, room_id: str) -> dict[str, Any]:
    """What the database holds of the room's end: its version and status, its moves, its
    history points and the games its players' ratings count."""
    with store.engine.connect() as conn:
        header = conn.execute(select(rooms.c.version, rooms.c.status)
                              .where(rooms.c.id == room_id)).one()
        return {"version": header.version, "status": header.status,
                "moves": len(conn.execute(select(moves.c.number)
                                          .where(moves.c.room == room_id)).all()),
                "points": sorted(conn.execute(select(rating_history.c.player).where(
                    rating_history.c.room == room_id)).scalars()),
                "games": conn.execute(select(ratings.c.games)).scalars().all()}


def test_a_rated_end_and_its_ratings_commit_together_or_not_at_all(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, None, first="0")
        seat, last = await to_last_move(hub, room, Random(3))
        before = stored(store, room.id)
        with store.engine.begin() as conn:  # the ratings' write fails, as a lock's would
            conn.execute(text("CREATE TRIGGER refused BEFORE INSERT ON rating_history "
                              "BEGIN SELECT RAISE(ABORT, 'the ratings are locked'); END"))
        with pytest.raises(db.Unavailable, match=f"^{MOVE_NOT_SAVED}$"):
            await hub.play(room, seat, last)
        assert stored(store, room.id) == before and before["games"] == []
        assert (room.status, room.version) == ("playing", before["version"])
        with store.engine.begin() as conn:
            conn.execute(text("DROP TRIGGER refused"))
        await hub.play(room, seat, last)  # sent again: the end and its ratings, at once
        after = stored(store, room.id)
        assert after["status"] == "over" and after["version"] == before["version"] + 1
        assert after["points"] == sorted(s.player for s in room.seats)
        assert after["games"] == [1, 1]

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_rated_end_is_rated_once_after_its_store_closes_right_after_the_commit(tmp_path):
    """A stand-in for `kill -9` on receiving the final state: nothing of this worker runs
    after the end's commit, and a new store on the database finds it rated, once."""
    url = f"sqlite:///{tmp_path}/c.db"
    ended: list[str] = []

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, None, first="0")
        seat, last = await to_last_move(hub, room, Random(4))
        await hub.play(room, seat, last)
        store.close()  # at once: no task of this worker's writes anything after
        ended.append(room.id)

    run(url, scenario)
    again = Store(url)
    try:
        found = stored(again, ended[0])
        assert found["status"] == "over" and len(found["points"]) == 2
        assert found["games"] == [1, 1]
        with again.engine.begin() as conn:  # applied a second time: nothing changes
            assert apply_result(ended[0], "crossroads", [0, 1], 0.0)(conn) is None
        assert stored(again, ended[0]) == found
    finally:
        again.close()


def test_two_workers_storing_the_same_end_rate_it_once(tmp_path):
    """Two hubs, each with its own store on one database (two workers): both send the final
    move at once; one stores it with its ratings, the other's is a Conflict, which catches
    up and finds the game over."""
    url = f"sqlite:///{tmp_path}/c.db"

    async def scenario(store: Store, clock: Clock) -> None:
        one = hub_on(store, clock)
        room = await rated_table(one, store, None, first="0")
        seat, last = await to_last_move(one, room, Random(5))
        second = Store(url)
        second.start()
        try:
            other = hub_on(second, clock, seed=2)
            there = await other.room(room.id)
            assert there.version == room.version
            told = await asyncio.gather(one.play(room, seat, last),
                                        other.play(there, seat, last),
                                        return_exceptions=True)
        finally:
            second.close()
        refused = [error for error in told if error is not None]
        assert len(refused) == 1 and isinstance(refused[0], ConfigError)
        assert str(refused[0]) == "The game is over."
        found = stored(store, room.id)
        assert found["status"] == "over" and len(found["points"]) == 2
        assert found["games"] == [1, 1]

    run(url, scenario)


def test_a_rated_end_that_does_not_count_says_why_on_every_worker(tmp_path):
    """A final move that ends a rated game past the pair's limit: the room's result says
    why, the worker that stored it asks the others to read the header again, and another
    worker that does reads the same sentence."""

    async def scenario(store: Store, clock: Clock) -> None:
        one = hub_on(store, clock)
        room = await rated_table(one, store, None, first="0")
        pair = [seat.player for seat in room.seats]
        for seed in (1, 2, 3):  # the pair's three rated games of the day
            add_room(store.engine, "crossroads", pair, seed=seed, ended=clock.now - 60)
        seat, last = await to_last_move(one, room, Random(7))
        told: list[bool] = []
        one.bus.subscribe(RoomChanged, lambda changed: told.append(changed.reload))
        other = hub_on(store, clock, seed=2)
        there = await other.room(room.id)
        await one.play(room, seat, last)
        assert room.result is not None and room.result["unrated"] == "repeated_pairing"
        assert told == [True]
        async with there.lock:
            await other.catch_up(there, reload=True)
        sentence = "Not rated: two players' rated games count 3 in 24 hours."
        assert room.snapshot(0)["unrated"] == there.snapshot(None)["unrated"] == sentence
        assert stored(store, room.id)["points"] == []

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_lock_held_on_ratings_holds_the_ending_move_with_it(request):
    """On PostgreSQL: while another transaction holds the ratings table, the final move
    waits with its ratings, stored by nobody and told to nobody; once the lock goes, both
    commit together."""
    with postgres_schema(request.node.name) as url:
        async def scenario(store: Store, clock: Clock) -> None:
            hub = hub_on(store, clock)
            room = await rated_table(hub, store, None, first="0")
            seat, last = await to_last_move(hub, room, Random(6))
            before = stored(store, room.id)
            holder = create_engine(store.engine.url)
            try:
                with holder.connect() as conn:
                    conn.execute(text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
                    ending = asyncio.create_task(hub.play(room, seat, last))
                    await _until_waiting(holder)
                    assert not ending.done() and room.version == before["version"]
                    assert stored(store, room.id) == before
                    conn.rollback()  # the lock goes
                    await ending
            finally:
                holder.dispose()
            after = stored(store, room.id)
            assert after["status"] == "over" and len(after["points"]) == 2

        run(url, scenario)


async def _until_waiting(engine: Any) -> None:
    """Until a transaction waits for a lock on the ratings table (a bounded look)."""
    for _ in range(500):
        with engine.connect() as conn:
            if conn.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted AND "
                                 "relation = 'ratings'::regclass")).scalar():
                return
        await asyncio.sleep(0.01)
    raise AssertionError("Nothing waited for the ratings' lock.")
