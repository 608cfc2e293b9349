"""The store: one schema, writes committed in groups by one writer thread, a failing write
failing alone, a move appended once however many writers try, only hashes of the seats'
secrets on disk, and older databases brought up to the schema when opened."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import warnings

import pytest
from server_helpers import new_room
from sqlalchemy import inspect, select
from sqlalchemy.exc import IntegrityError

from chuko.core.errors import ChukoError, ConfigError
from chuko.games import game_class
from chuko.server import create_app
from chuko.server.store import database as db
from chuko.server.store import migrations

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def room_row(room_id: str) -> db.RoomRow:
    return db.RoomRow(room_id, "caravan", {}, "playing", 0, {"game": "caravan"},
                      [db.SeatRow(0, "human", None, db.secret_hash("t"), None, True)])


def run_behind_a_gate(store: db.Store, writes: list) -> list:
    """Submit `writes` while the writer thread is held up, so they all wait in its queue;
    their results (or errors) in order."""
    gate = threading.Event()

    async def scenario():
        await store.submit(db.insert_room(room_row("r1")))
        held = store.submit(lambda conn: gate.wait())
        futures = [store.submit(w) for w in writes]
        gate.set()
        await held
        return await asyncio.gather(*futures, return_exceptions=True)

    return asyncio.run(scenario())


def moves_1_to(count: int) -> list:
    return [db.append_move("r1", n, 0, f"m{n}", "playing") for n in range(1, count + 1)]


def test_queued_moves_are_committed_in_one_transaction(db_url):
    store = db.Store(db_url)
    store.start()
    results = run_behind_a_gate(store, moves_1_to(50))
    store.close()
    assert results == [None] * 50
    assert store.commits <= 3  # the room, the gate, the 50 moves: not one commit each
    assert db.Store(db_url).moves("r1") == [(0, f"m{n}") for n in range(1, 51)]
    loaded = db.Store(db_url).load("r1")
    # The header is never rewritten: the moves are the log.
    assert loaded.version == 50 and loaded.record == {"game": "caravan"}
    assert loaded.moves == [(0, f"m{n}") for n in range(1, 51)]
    assert db.Store(db_url).moves("r1", after=48) == [(0, "m49"), (0, "m50")]


def test_a_failing_write_fails_alone(db_url):
    store = db.Store(db_url)
    store.start()
    writes = moves_1_to(20)
    writes.insert(7, db.append_move("r1", 7, 0, "again", "playing"))  # move 7 twice
    results = run_behind_a_gate(store, writes)
    store.close()
    assert isinstance(results[7], db.Conflict)
    assert results[:7] + results[8:] == [None] * 20
    assert db.Store(db_url).moves("r1") == [(0, f"m{n}") for n in range(1, 21)]


def test_the_move_log_refuses_a_second_writer_of_the_same_number(db_url):
    """Two servers on one database that both accept move 3 (each at version 2 in memory):
    the version check lets one in; the other's, even past the check, hits the log's key."""
    store = db.Store(db_url)
    store.start()
    results = run_behind_a_gate(store, [*moves_1_to(2), db.append_move("r1", 3, 0, "a", "over"),
                                        db.append_move("r1", 3, 0, "b", "playing")])
    store.close()
    assert results[:3] == [None] * 3 and isinstance(results[3], db.Conflict)
    # The key alone, without the version check:
    with db.make_engine(db_url).begin() as conn, pytest.raises(IntegrityError):
        conn.execute(db.moves.insert().values(room="r1", number=3, seat=0, move="c", at=0))
    stored = db.Store(db_url).load("r1")
    assert stored.version == 3 and stored.status == "over" and stored.moves[-1] == (0, "a")


def test_a_move_from_a_worker_that_missed_a_resignation_does_not_reopen_the_game(db_url):
    """A resignation ends a game without a move (the version stays); a worker whose copy
    of the room missed it (the worker that stored it died before telling the others) may
    still send move 3 at version 2: refused, the game's end kept."""
    store = db.Store(db_url)
    store.start()
    resigned = db.forfeit("r1", 2, {"kind": "resigned", "seat": 0}, over=True, at=5.0)
    results = run_behind_a_gate(store, [*moves_1_to(2), resigned,
                                        db.append_move("r1", 3, 0, "late", "playing")])
    store.close()
    assert results[:3] == [None] * 3 and isinstance(results[3], db.Conflict)
    stored = db.Store(db_url).load("r1")
    assert stored.status == "over" and stored.version == 2
    assert stored.result == {"kind": "resigned", "seat": 0}


def test_a_room_read_while_a_move_is_appended_holds_together_at_its_version(db_url,
                                                                          monkeypatch):
    """Another worker appends move 3 between the read of the header (at 2) and the read of
    the log: the room read is the room at 2, not a header at 2 with a log of 3."""
    store = db.Store(db_url)
    store.start()
    run_behind_a_gate(store, moves_1_to(2))
    read_log = db._moves

    def append_then_read(conn, *args):
        with db.make_engine(db_url).begin() as other:
            db.append_move("r1", 3, 0, "m3", "playing")(other)
        return read_log(conn, *args)

    monkeypatch.setattr(db, "_moves", append_then_read)
    stored = store.load("r1")
    store.close()
    assert stored.version == 2 and stored.moves == [(0, "m1"), (0, "m2")]


def test_only_hashes_of_tokens_and_invites_are_stored(make_client, db_url):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}])
    invite = room["invites"][0]["url"].rsplit("/", 1)[1]
    engine = db.make_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(select(db.seats)).all()
        everything = " ".join(str(v) for row in conn.execute(select(db.rooms)).all() for v in row)
    stored = " ".join(str(v) for row in rows for v in row) + everything
    assert room["token"] not in stored and invite not in stored
    assert db.secret_hash(room["token"]) in stored and db.secret_hash(invite) in stored


@pytest.mark.parametrize("url", ["mysql://x/y", "not a url at all"])
def test_unsupported_database_urls_are_refused_with_a_sentence(url):
    with pytest.raises(ConfigError, match="sqlite"):
        db.make_engine(url)


def test_postgres_urls_use_psycopg_three():
    engine = None
    try:
        engine = db.make_engine("postgresql://nobody@localhost/chuko")
    except ModuleNotFoundError:
        pytest.skip("psycopg (the postgres extra) is not installed")
    assert engine.url.drivername == "postgresql+psycopg"


HEAD = "0010"

# The schema as the first release created it (SQLite's DDL): no names, no rematches.
FIRST_SCHEMA = """
CREATE TABLE rooms (
    id VARCHAR(32) NOT NULL, game VARCHAR(64) NOT NULL, options TEXT NOT NULL,
    status VARCHAR(8) NOT NULL, version INTEGER NOT NULL, record TEXT NOT NULL,
    created FLOAT NOT NULL, updated FLOAT NOT NULL, PRIMARY KEY (id));
CREATE INDEX rooms_status ON rooms (status);
CREATE TABLE moves (
    room VARCHAR(32) NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL,
    move TEXT NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (room, number),
    FOREIGN KEY(room) REFERENCES rooms (id));
CREATE TABLE seats (
    room VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL,
    level VARCHAR(16), token_hash VARCHAR(64), invite_hash VARCHAR(64),
    joined BOOLEAN NOT NULL, PRIMARY KEY (room, seat), FOREIGN KEY(room) REFERENCES rooms (id));
"""


def test_a_database_of_the_first_schema_gains_the_new_columns_and_keeps_its_games(tmp_path):
    """Opening an older database adds the seats' names and the rooms' rematch links; a game
    stored before goes on, its seats named as before."""
    path = tmp_path / "old.db"
    rules = game_class("crossroads")
    options = rules.descriptor.read_options({"first": "0"})
    state = rules.from_options(options).new(3)
    move = state.legal_moves(0)[0]
    state.play(0, move)
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(FIRST_SCHEMA)
        conn.execute("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     ("old1", "crossroads", json.dumps(options), "playing", 1,
                      json.dumps(state.record()), 0.0, 0.0))
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)", [
            ("old1", 0, "human", None, db.secret_hash("tok"), None, True),
            ("old1", 1, "bot", "easy", None, None, True)])
        conn.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", ("old1", 1, 0, str(move), 0.0))
    url = f"sqlite:///{path}"
    with TestClient(create_app(url, bot_delay=0, round_pause=0)) as client:
        state = client.get("/api/rooms/old1?token=tok").json()
        assert state["seat"] == 0 and state["version"] >= 1 and state["rematch"] is None
        assert [s["name"] for s in state["seats"]] == ["Host", "Easy bot"]
        named = new_room(client, "caravan", [{"kind": "me", "name": "Ann"}])
        assert client.get(f"/api/rooms/{named['room']}").json()["seats"][0]["name"] == "Ann"
    engine = db.make_engine(url)
    columns = {table: {c["name"] for c in inspect(engine).get_columns(table)}
               for table in ("rooms", "seats")}
    assert {"rematch", "rematch_of"} <= columns["rooms"] and "name" in columns["seats"]
    assert migrations.revision(engine) == HEAD
    db.Store(url)  # once is enough: opening it again changes nothing
    assert migrations.revision(engine) == HEAD
    assert [s.name for s in db.Store(url).load("old1").seats] == [None, None]


def test_a_move_whose_task_is_cancelled_while_it_is_written_is_still_the_rooms(db_url):
    """The store's futures cannot be cancelled: a task cancelled while its move is being
    committed waits for the commit, makes the move the room's, and only then stops, so the
    room in memory and the stored one agree (and the room's lock is held until then)."""
    from random import Random

    from chuko.server.rooms.hub import Hub
    from chuko.server.web.app import CLUB_TERMS

    async def scenario():
        store = db.Store(db_url)
        store.start()
        gate = threading.Event()
        try:
            hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(5))
            made = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
            await hub.join(made["room"], made["invites"][0]["url"].rsplit("/", 1)[1])
            room = hub.rooms[made["room"]]
            seat = room.state.to_move[0]
            held = store.submit(lambda conn: gate.wait())
            playing = asyncio.create_task(hub.play(room, seat, room.legal(seat, room.moment())[0]))
            await asyncio.sleep(0.05)
            playing.cancel()
            await asyncio.sleep(0.05)
            assert not playing.done() and room.lock.locked()  # still waiting for its commit
            gate.set()
            await held
            with pytest.raises(asyncio.CancelledError):
                await playing
            assert room.version == 1 and not room.lock.locked()
            assert store.load(room.id).version == 1
        finally:
            gate.set()  # a failing check must not leave the writer waiting
            store.close()

    asyncio.run(scenario())


def test_room_ids_sort_by_age_and_keep_64_secret_bits():
    """Ids begin with the second the room was made, so rooms in play and their moves sit
    together at the end of the indexes; 64 random bits follow, so an id cannot be guessed."""
    from chuko.server.rooms.opening import new_room_id

    earlier = [new_room_id(1_700_000_000.9) for _ in range(50)]
    later = [new_room_id(1_700_000_001.0) for _ in range(50)]
    assert max(earlier) < min(later)
    assert all(id_.startswith("6553f100") for id_ in earlier)
    assert len(set(earlier)) == 50 and all(len(id_) == 8 + 11 for id_ in earlier)


def test_a_write_submitted_once_the_store_is_closing_fails_at_once_with_a_sentence(db_url):
    """Its future cannot be cancelled, so one queued behind the writer's stop would keep its
    waiter (and the server's shutdown) waiting for ever."""
    store = db.Store(db_url)
    store.start()
    run_behind_a_gate(store, [])
    store.close()

    async def late():
        return store.submit(db.insert_room(room_row("r2")))

    refused = asyncio.run(late())
    assert refused.done()  # at once: nothing waits on it
    with pytest.raises(ChukoError, match="stopping"):
        refused.result()
