"""Aborts and games too short to count: between people, a resignation or a claim before the
game's second move, or a seat that does not make its first move in time (30 s under a
per-move clock, or its clock if sooner), aborts the game: over, nobody's win, unrated. A
rated game that ends with fewer than two moves by a player stands, unrated. Time is the
hub's clock, a fake one: nothing sleeps."""

from __future__ import annotations

from random import Random

import pytest
from sqlalchemy import select, update
from test_clocks import PER_MOVE, Clock, hub_on, move, open_table, opening, run, seated

from chuko.core.errors import ConfigError
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.room import Room
from chuko.server.store.database import Store
from chuko.server.store.schema import rating_history, ratings, rooms, seats
from club_seed import add_player

NOT_COUNTED = "Not rated: a game counts once each player has made 2 moves."


async def rated_table(hub: Hub, store: Store, clock: dict | None = PER_MOVE,
                      game: str = "crossroads", **options) -> Room:
    """A heads-up rated room as the lobby makes one: two people, each seat held by a
    player with an account, both connected."""
    room, _ = await open_table(hub, game, 2, clock, **options)
    holders = [add_player(store.engine, name) for name in ("ann", "bob")]
    with store.engine.begin() as conn:
        conn.execute(update(rooms).where(rooms.c.id == room.id).values(rated=True))
        for seat, player in enumerate(holders):
            conn.execute(update(seats).where(seats.c.room == room.id, seats.c.seat == seat)
                         .values(player=player))
    room.rated = True
    for seat, player in zip(room.seats, holders, strict=True):
        seat.player = player
    seated(hub, room)
    return room


def rated_games(store: Store) -> list[str]:
    """The players of every rating and every history point stored."""
    with store.engine.connect() as conn:
        return [*conn.execute(select(ratings.c.player)).scalars(),
                *conn.execute(select(rating_history.c.player)).scalars()]


def test_resigning_before_the_second_move_aborts_the_game_unrated(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, first="0")
        await move(hub, room, 0, Random(1))
        await hub.resign(room, 0)  # one move made: the game had not got going
        assert room.status == "over" and room.ended == clock.now
        assert room.result == {"kind": "aborted", "seat": 0, "why": "resigned",
                               "unrated": "aborted"}
        mine, theirs = room.snapshot(0), room.snapshot(1)
        assert mine["result"] == "Game aborted: you resigned before two moves were played."
        assert theirs["result"] == ("Game aborted: Host resigned before two moves were "
                                    "played.")
        assert mine["unrated"] == theirs["unrated"] == "Not rated: the game was aborted."
        assert room.places() == [0, 0]  # nobody's win
        assert rated_games(store) == []
        assert store.load(room.id).result == room.result

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_resignation_at_move_0_aborts_a_casual_game_too(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, None, first="0")
        await hub.resign(room, 1)
        assert room.status == "over"
        assert room.result == {"kind": "aborted", "seat": 1, "why": "resigned"}
        assert room.snapshot(0)["unrated"] is None  # it was never rated

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_claiming_before_the_second_move_aborts_the_game(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, None, first="0")
        room.seats[1].name = "Bob"
        hub.disconnect(room, next(c for c in room.clients if c.seat == 1))
        clock.now += hub.grace
        await hub.claim(room, 0)
        assert room.result == {"kind": "aborted", "seat": 1, "why": "left",
                               "unrated": "aborted"}
        assert room.snapshot(0)["result"] == "Game aborted: Bob left before two moves were played."
        assert rated_games(store) == []

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_seat_that_does_not_make_its_first_move_in_time_aborts_the_game(tmp_path):
    """30 s from the start for the first to move, from the first move for the second."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, first="0")
        clock.now += 29.9
        await hub.check_clocks()
        await move(hub, room, 0, Random(1))  # in time
        clock.now += 29.9
        await hub.check_clocks()
        assert room.status == "playing"
        clock.now += 0.1
        with pytest.raises(ConfigError, match="^Your time has run out.$"):
            await move(hub, room, 1, Random(2))
        assert await hub.check_clocks() == 1
        assert room.status == "over"
        assert room.result == {"kind": "aborted", "seat": 1, "why": "first_move",
                               "unrated": "aborted"}
        assert room.snapshot(1)["result"] == ("Game aborted: you did not make a first move "
                                              "in time.")
        assert rated_games(store) == []

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_rated_game_with_no_move_lost_on_time_changes_no_rating(tmp_path):
    """A clock shorter than the first-move limit runs out first: still an abort."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, {"kind": "move", "seconds": 5, "reserve": 0},
                                 first="0")
        clock.now += 5
        await hub.check_clocks()
        assert room.status == "over" and room.version == 0
        assert room.result == {"kind": "aborted", "seat": 0, "why": "first_move",
                               "unrated": "aborted"}
        assert rated_games(store) == []

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_rated_game_with_fewer_than_two_moves_by_a_player_stands_unrated(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, first="0")
        room.seats[1].name = "Bob"
        await opening(hub, room, Random(1))  # a move each: the game has got going
        clock.now += 90
        await hub.check_clocks()
        assert room.result == {"kind": "timeout", "seat": 0, "unrated": "too_few_moves"}
        assert room.snapshot(0)["result"] == "You ran out of time: Bob wins."
        assert room.snapshot(None)["unrated"] == NOT_COUNTED
        assert room.places() == [1, 0]
        assert rated_games(store) == []
        assert store.load(room.id).result == room.result

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_resignation_after_two_moves_each_is_rated_with_the_resigner_last(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room = await rated_table(hub, store, first="0")
        await opening(hub, room, Random(1), moves=4)
        await hub.resign(room, 1)
        assert room.result == {"kind": "resigned", "seat": 1}
        assert room.snapshot(0)["unrated"] is None
        with store.engine.connect() as conn:
            held = dict(conn.execute(select(ratings.c.player, ratings.c.wins)).all())
        assert held == {room.seats[0].player: 1, room.seats[1].player: 0}

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_game_against_bots_is_lost_not_aborted(tmp_path):
    """Aborts are for games between people: a player of bots who resigns at once loses."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        made = await hub.create("crossroads", {"first": "0"}, [
            {"kind": "me"}, {"kind": "bot", "level": "random"}], PER_MOVE)
        room = hub.rooms[made["room"]]
        assert room.snapshot(0)["clock"]["seats"][0]["left"] == 90.0  # no first-move limit
        await hub.resign(room, 0)
        assert room.result == {"kind": "resigned", "seat": 0}

    run(f"sqlite:///{tmp_path}/c.db", scenario)
