"""The store: one schema, writes committed in groups by one writer thread, a failing write
failing alone, and only hashes of the seats' secrets on disk."""

from __future__ import annotations

import asyncio
import threading

import pytest
from server_helpers import new_room
from sqlalchemy import select

from chuko.core.errors import ConfigError
from chuko.server import store as db


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
    return [db.append_move("r1", n, 0, f"m{n}", {"n": n}, "playing") for n in range(1, count + 1)]


def test_queued_moves_are_committed_in_one_transaction(db_url):
    store = db.Store(db_url)
    store.start()
    results = run_behind_a_gate(store, moves_1_to(50))
    store.close()
    assert results == [None] * 50
    assert store.commits <= 3  # the room, the gate, the 50 moves: not one commit each
    assert db.Store(db_url).moves("r1") == [(0, f"m{n}") for n in range(1, 51)]
    assert db.Store(db_url).load("r1").record == {"n": 50}


def test_a_failing_write_fails_alone(db_url):
    store = db.Store(db_url)
    store.start()
    writes = moves_1_to(20)
    writes.insert(7, db.append_move("r1", 7, 0, "again", {}, "playing"))  # move 7 twice
    results = run_behind_a_gate(store, writes)
    store.close()
    assert isinstance(results[7], db.Conflict)
    assert results[:7] + results[8:] == [None] * 20
    assert db.Store(db_url).moves("r1") == [(0, f"m{n}") for n in range(1, 21)]


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
