"""A room on the server keeps a game's options within what a shared
server allows (`Option.max_online`), waiting rooms expire, and rooms are loaded when first
asked for, not all at start."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from random import Random

import pytest
from server_helpers import new_room

from chuko.games.chuko import Game
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.lifecycle import Rooms
from chuko.server.rooms.room import Room
from chuko.server.store import database as db
from chuko.server.store.database import Conflict, Store
from chuko.server.web.app import CLUB_TERMS

HOUR = 3600.0


def with_store(url: str, scenario: Callable[[Store], Awaitable[None]]) -> None:
    """Run `scenario` on a started store of `url`, closing the store whatever happens."""

    async def run() -> None:
        store = Store(url)
        store.start()
        try:
            await scenario(store)
        finally:
            store.close()

    asyncio.run(run())


def test_a_room_caps_the_turn_limit_where_the_engine_does_not(make_client):
    client = make_client()
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    refused = client.post("/api/rooms", json={"game": "chuko", "seats": seats,
                                              "options": {"turn_limit": 5000}})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("Turn limit (0: none) goes up to 2,000 in a room")
    none = new_room(client, "chuko", seats)  # 0, none: the most a room may play
    state = client.get(f"/api/rooms/{none['room']}?token={none['token']}").json()
    assert state["view"]["turn_limit"] == 2000
    assert Game.from_options({"turn_limit": 5000}).turn_limit == 5000  # the engine keeps its own
    (option,) = [o for o in next(g for g in client.get("/api/games").json()
                                 if g["id"] == "chuko")["options"] if o["name"] == "turn_limit"]
    assert option["max_online"] == 2000 and option["max"] == 100_000


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def waiting_row(number: int, created: float, record: dict) -> db.RoomRow:
    seats = [db.SeatRow(0, "human", None, "h", None, True),
             db.SeatRow(1, "human", None, None, f"invite{number}", False)]
    return db.RoomRow(f"w{number}", "crossroads", {}, "waiting", 0, record, seats,
                      created=created)


def test_start_rebuilds_only_rooms_in_play_with_bots_and_old_waiting_rooms_expire(
        tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path}/rooms.db"
    clock = Clock()
    built = []
    from_row = Rooms.from_row

    def counted(self, row):
        built.append(row.id)
        return from_row(self, row)

    monkeypatch.setattr(Rooms, "from_row", counted)

    async def scenario(store: Store) -> None:
        hub = Hub(store, CLUB_TERMS, bot_delay=3600, rng=Random(2), clock=clock)
        bots = await hub.create("crossroads", {}, [{"kind": "me"},
                                                   {"kind": "bot", "level": "random"}])
        record = hub.rooms[bots["room"]].state.record()
        old = clock.now - 25 * HOUR
        with store.engine.begin() as conn:  # 3,000 rooms waiting since yesterday
            for number in range(3000):
                db.insert_room(waiting_row(number, old, record))(conn)
        await hub.close()

        clock.now += 1
        again = Hub(store, CLUB_TERMS, bot_delay=3600, clock=clock)
        built.clear()
        await again.restore()  # as the app's start does
        assert built == [bots["room"]]  # was all 3,001 unfinished rooms
        # The first sweep, begun at start, closes the old ones in one statement.
        expired = db.rooms.select().with_only_columns(db.rooms.c.id).where(
            db.rooms.c.status == "expired")
        for _ in range(200):
            await asyncio.sleep(0.05)
            with store.engine.connect() as conn:
                if len(conn.execute(expired).all()) == 3000:
                    break
        else:
            raise AssertionError("The sweep at start did not close the old waiting rooms.")
        assert set(again.rooms) == {bots["room"]}
        await again.close()

    with_store(url, scenario)


def test_a_waiting_room_expires_when_asked_for_after_its_time(tmp_path):
    clock = Clock()

    async def scenario(store: Store) -> None:
        hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(3), clock=clock, waiting_ttl=2 * HOUR)
        made = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
        room_id = made["room"]
        invite = made["invites"][0]["url"].rsplit("/", 1)[1]
        clock.now += 2 * HOUR - 1
        assert (await hub.room(room_id)).status == "waiting"
        clock.now += 1
        room: Room = await hub.room(room_id)
        closed = ("This room has closed: its seats were not all taken within 2 hours. "
                  "Start a new game from the home page.")
        assert room.status == "expired" and room.snapshot(None)["result"] == closed
        assert store.load(room_id).status == "expired"
        with pytest.raises(Conflict, match="^This room has closed"):
            await hub.join(room_id, invite)
        # Loaded afresh (after a restart), it stays closed and says why.
        fresh = Hub(store, CLUB_TERMS, clock=clock, waiting_ttl=2 * HOUR)
        assert (await fresh.room(room_id)).snapshot(0)["result"] == closed
        with pytest.raises(Conflict, match="^This room has closed"):
            await fresh.join(room_id, invite)

    with_store(f"sqlite:///{tmp_path}/rooms.db", scenario)


def test_a_join_racing_the_sweep_is_refused_by_the_database(tmp_path):
    clock = Clock()

    async def scenario(store: Store) -> None:
        hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(4), clock=clock)
        made = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
        # Another server's sweep closed it in the database a moment after it was made.
        await store.submit(db.expire_waiting(clock.now + 1))
        invite = made["invites"][0]["url"].rsplit("/", 1)[1]
        with pytest.raises(Conflict, match="^This room has closed"):
            await hub.join(made["room"], invite)
        assert all(not s.joined for s in store.load(made["room"]).seats[1:])

    with_store(f"sqlite:///{tmp_path}/rooms.db", scenario)


def test_an_expired_room_says_so_over_http(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}])
    invite = room["invites"][0]["url"].rsplit("/", 1)[1]
    hub = client.app.state.hub
    hub.clock = lambda: hub.rooms[room["room"]].created + 25 * HOUR
    state = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert state["status"] == "expired" and state["result"].startswith("This room has closed")
    joined = client.post(f"/api/rooms/{room['room']}/join", json={"invite": invite})
    assert joined.status_code == 409 and joined.json()["error"] == state["result"]
