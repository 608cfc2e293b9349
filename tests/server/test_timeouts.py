"""The database's calls are bounded in time and kept off the event loop: a read that hangs is
refused with a sentence after the read timeout while the server answers everything else; a
write that hangs is refused after the write timeout while other rooms' moves are committed
meanwhile; a lock held on one room's row (PostgreSQL) stalls only that room; and everything
goes on by itself once the database answers again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import threading
import time

import pytest
from sqlalchemy import text

from chuko.server.store import database as db
from chuko.server.store.reader import NOT_READ
from chuko.server.store.writer import NOT_SAVED
from chuko.server.web.cookies import SESSION

POSTGRES = os.environ.get("CHUKO_TEST_POSTGRES")
WAIT = 10.0  # seconds a step may take before the test fails rather than hangs
TIMEOUT = 0.5  # the store's read or write timeout in these tests
MARGIN = 1.0  # seconds past the timeout within which a refusal must come


def room_row(room_id: str) -> db.RoomRow:
    return db.RoomRow(room_id, "caravan", {}, "playing", 0, {"game": "caravan"},
                      [db.SeatRow(0, "human", None, db.secret_hash("t"), None, True)])


def hang_until(gate: threading.Event, entered: threading.Event | None = None):
    """A read or write that waits on `gate` (as one waits on a lock held elsewhere)."""

    def query(conn):
        if entered is not None:
            entered.set()
        gate.wait(WAIT)

    return query


def test_a_hung_session_read_is_refused_with_a_sentence_and_the_server_answers_meanwhile(
        make_client):
    """The session's lookup (every request with a cookie makes one) hangs: that request
    answers 503 after the read timeout, while GET /api/games goes on answering; once the
    database answers, the same request does too."""
    client = make_client(timeouts=(TIMEOUT, db.WRITE_TIMEOUT))
    store = client.app.state.hub.store
    gate, entered = threading.Event(), threading.Event()
    read = store.read

    def hanging_read(query):
        if not gate.is_set():
            hang_until(gate, entered)(None)
        return read(query)

    store.read = hanging_read
    client.cookies.set(SESSION, "s" * 32)
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(
        client.get("/api/me/games")))
    try:
        began = time.monotonic()
        asking.start()
        assert entered.wait(WAIT)
        assert client.get("/api/games").status_code == 200  # while the read hangs
        asking.join(WAIT)
        refused = answers[0]
        assert refused.status_code == 503 and refused.json()["error"] == NOT_READ
        assert refused.headers["retry-after"] == str(db.RETRY_AFTER)
        assert time.monotonic() - began < TIMEOUT + MARGIN
    finally:
        gate.set()
    assert client.get("/api/me/games").status_code == 200


def test_reads_are_refused_at_once_while_every_reader_thread_hangs_and_go_on_after():
    async def scenario() -> None:
        store = db.Store("sqlite://", read_timeout=TIMEOUT)
        gate = threading.Event()
        try:
            hung = [asyncio.create_task(store.fetch(hang_until(gate)))
                    for _ in range(store.reader.threads)]
            for task in hung:
                with pytest.raises(db.Unavailable, match="cannot be read right now"):
                    await task
            assert store.reader.stuck == store.reader.threads
            began = time.monotonic()
            with pytest.raises(db.Unavailable):  # refused at once, not after a timeout
                await store.fetch(lambda conn: 1)
            assert time.monotonic() - began < TIMEOUT / 2
            gate.set()
            for _ in range(int(WAIT / 0.01)):  # the hung reads end, and free their threads
                if store.reader.stuck == 0:
                    break
                await asyncio.sleep(0.01)
            assert await store.fetch(lambda conn: conn.execute(text("SELECT 7")).scalar()) == 7
        finally:
            gate.set()
            store.close()

    asyncio.run(scenario())


def test_a_hung_write_is_refused_after_the_timeout_while_other_rooms_are_saved_meanwhile(
        db_url):
    """One lane on SQLite: the watchdog gives the hung lane up, a fresh lane commits the
    other rooms' moves queued behind it, the hung room's move is refused with the sentence
    and its room is quarantined until a write of it commits."""

    async def scenario() -> None:
        store = db.Store(db_url, write_timeout=TIMEOUT)
        store.start()
        gate, entered = threading.Event(), threading.Event()
        try:
            for room_id in ("stuck", "free1", "free2"):
                await store.submit(db.insert_room(room_row(room_id)))
            began = time.monotonic()
            hung = store.submit(hang_until(gate, entered), key="stuck")
            assert await asyncio.to_thread(entered.wait, WAIT)
            for number in (1, 2):
                await asyncio.gather(*(store.submit(db.append_move(room_id, number, 0, "m",
                                                                   "playing"))
                                       for room_id in ("free1", "free2")))
            assert not hung.done()  # the others were saved while it hung
            with pytest.raises(db.Unavailable) as refused:
                await hung
            assert str(refused.value) == NOT_SAVED
            assert time.monotonic() - began < TIMEOUT + MARGIN
            assert "stuck" in store.quarantine
            gate.set()
            await store.submit(db.append_move("stuck", 1, 0, "m", "playing"))
            assert "stuck" not in store.quarantine
        finally:
            gate.set()
            await asyncio.to_thread(store.close)
        assert db.Store(db_url).moves("free2") == [(0, "m"), (0, "m")]
        assert db.Store(db_url).moves("stuck") == [(0, "m")]

    asyncio.run(scenario())


@pytest.mark.skipif(not POSTGRES, reason="CHUKO_TEST_POSTGRES is not set")
def test_a_row_lock_on_one_room_refuses_its_moves_and_no_other_rooms():
    """`SELECT … FOR UPDATE` on one room's row from another connection: that room's move is
    refused with the sentence within the timeout and a margin, the other rooms' moves are
    committed meanwhile, and once the lock goes the locked room moves again."""
    pytest.importorskip("psycopg")

    async def scenario() -> None:
        store = db.Store(POSTGRES, write_timeout=TIMEOUT)
        store.start()
        stamp = str(time.time_ns())[-12:]
        ids = [f"lock{stamp}{n}" for n in range(12)]
        locked, others = ids[0], ids[1:]
        try:
            for room_id in ids:
                await store.submit(db.insert_room(room_row(room_id)))
            with contextlib.closing(store.engine.connect()) as holder:
                holder.execute(text("SELECT id FROM rooms WHERE id = :id FOR UPDATE"),
                               {"id": locked})
                began = time.monotonic()
                refused = store.submit(db.append_move(locked, 1, 0, "m", "playing"))
                for number in (1, 2, 3):
                    await asyncio.gather(*(store.submit(db.append_move(
                        room_id, number, 0, "m", "playing")) for room_id in others))
                with pytest.raises(db.Unavailable):
                    await refused
                assert time.monotonic() - began < TIMEOUT + MARGIN
                holder.rollback()
            await store.submit(db.append_move(locked, 1, 0, "m", "playing"))
            assert store.moves(locked) == [(0, "m")]
            assert all(len(store.moves(room_id)) == 3 for room_id in others)
        finally:
            await asyncio.to_thread(store.close)

    asyncio.run(scenario())


def test_a_worker_that_starts_without_its_database_says_so_in_one_sentence(
        monkeypatch, capsys):
    """A worker of `chuko serve --workers N` (restarted by uvicorn while the database is
    away) builds its app from the settings in the environment: it exits with status 2 and
    one sentence, not a traceback."""
    from bench.postgres_process import free_port

    from chuko.cli import serve

    closed = f"postgresql://chuko:chuko@127.0.0.1:{free_port()}/none"
    settings = {"db_url": closed, "edge": {}}
    monkeypatch.setenv(serve.SETTINGS, json.dumps(settings))
    monkeypatch.setattr("chuko.server.web.connections.configure", lambda edge: None)
    with pytest.raises(SystemExit) as ended:
        serve.worker_app()
    assert ended.value.code == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("chuko: The database cannot be reached: ") and "\n" not in said
    assert "Traceback" not in said


def test_serve_without_its_database_exits_with_one_sentence(capsys):
    from bench.postgres_process import free_port

    from chuko.cli.main import main

    closed = f"postgresql://chuko:chuko@127.0.0.1:{free_port()}/none"
    assert main(["serve", "--db", closed, "--port", str(free_port())]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("chuko: The database of --db cannot be reached: ")
    assert "\n" not in said


def test_a_move_refused_for_time_that_lands_later_is_caught_up_by_the_next_one(
        db_url, monkeypatch):
    """A move whose commit was under way when its time ran out is refused with the
    sentence, and may still land: the room's next move then finds the stored game ahead,
    and the room catches up from the log before the move is checked again."""
    from random import Random

    from chuko.core.errors import ChukoError
    from chuko.server.rooms.hub import Hub
    from chuko.server.rooms.move_path import MOVE_NOT_SAVED
    from chuko.server.web.app import CLUB_TERMS

    async def scenario() -> None:
        store = db.Store(db_url, write_timeout=TIMEOUT)
        store.start()
        hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(5))
        gate = threading.Event()
        try:
            made = await hub.create("crossroads", {}, [{"kind": "me"}, {"kind": "friend"}])
            await hub.join(made["room"], made["invites"][0]["url"].rsplit("/", 1)[1])
            room = await hub.room(made["room"])
            seat = room.state.to_move[0]
            move = room.legal(seat, room.moment())[0]
            append = db.append_move

            def late(*args):
                write = append(*args)
                return lambda conn: (gate.wait(WAIT), write(conn))

            monkeypatch.setattr(db, "append_move", late)
            with pytest.raises(db.Unavailable) as refused:
                await hub.play(room, seat, move)
            assert str(refused.value) == MOVE_NOT_SAVED and room.version == 0
            monkeypatch.undo()
            gate.set()
            for _ in range(int(WAIT / 0.01)):  # the refused move lands after all
                if (await store.fetch_room(room.id)).version == 1:
                    break
                await asyncio.sleep(0.01)
            with contextlib.suppress(ChukoError):  # sent again: legal or not any more
                await hub.play(room, seat, move)
            stored = await store.fetch_room(room.id)
            assert room.version == stored.version >= 1
            assert room.state.record() == (await hub.room(room.id)).state.record()
            assert stored.moves[0] == (seat, move)
        finally:
            gate.set()
            await hub.close()
            await asyncio.to_thread(store.close)

    asyncio.run(scenario())


def test_the_bots_go_on_after_a_move_sent_again_finds_a_late_landed_one_and_is_refused(
        db_url, monkeypatch):
    """A person's move refused for time lands later; sent again, it finds the stored game
    ahead, the room catches up to the bot's turn, and the move is refused there: the bot
    still moves (nothing else would tell it: the move it follows was not told as stored)."""
    from random import Random

    from chuko.core.errors import ChukoError
    from chuko.server.rooms.hub import Hub
    from chuko.server.web.app import CLUB_TERMS

    async def scenario() -> None:
        store = db.Store(db_url, write_timeout=TIMEOUT)
        store.start()
        hub = Hub(store, CLUB_TERMS, bot_delay=0, rng=Random(5))
        gate = threading.Event()
        try:
            made = await hub.create("crossroads", {}, [{"kind": "me"},
                                                       {"kind": "bot", "level": "random"}])
            room = await hub.room(made["room"])
            assert room.state.to_move == (0,) and not hub.bots.thinking(room)
            move = room.legal(0, room.moment())[0]
            append = db.append_move

            def late(*args):
                write = append(*args)
                return lambda conn: (gate.wait(WAIT), write(conn))

            monkeypatch.setattr(db, "append_move", late)
            with pytest.raises(db.Unavailable):
                await hub.play(room, 0, move)
            monkeypatch.undo()
            gate.set()
            for _ in range(int(WAIT / 0.01)):  # the refused move lands after all
                if (await store.fetch_room(room.id)).version == 1:
                    break
                await asyncio.sleep(0.01)
            with pytest.raises(ChukoError):  # caught up: the bot's turn, not this seat's
                await hub.play(room, 0, move)
            assert room.version == 1 and room.state.to_move == (1,)
            bot = hub.bots.tasks.get(room)
            assert bot is not None, "the bot was not told it is to move"
            await bot
            assert room.version == (await store.fetch_room(room.id)).version == 2
        finally:
            gate.set()
            await hub.close()
            await asyncio.to_thread(store.close)

    asyncio.run(scenario())


def test_a_leader_that_cannot_read_the_rooms_in_play_goes_on_leading(db_url):
    """Taking the cluster's lease while the database cannot be read is logged, not an
    error that would end the worker's heartbeat."""
    from chuko.server.rooms.hub import Hub
    from chuko.server.web.app import CLUB_TERMS

    async def scenario() -> None:
        store = db.Store(db_url)
        store.start()
        hub = Hub(store, CLUB_TERMS, bot_delay=0)

        async def unreadable() -> list:
            raise db.Unavailable()

        store.fetch_resumable = unreadable  # type: ignore[method-assign]
        try:
            await hub.lead()
            assert hub.sweeper is not None  # leading: the sweep runs
        finally:
            await hub.close()
            await asyncio.to_thread(store.close)

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_stopped_reader_backend_costs_one_refused_read_and_the_store_recovers():
    """SIGSTOP on the PostgreSQL backend of a connection the reads go through (found in
    `pg_stat_activity`): the read that meets it is refused after the read timeout, the
    other reads answer meanwhile, and once the backend goes on every read answers."""
    pytest.importorskip("psycopg")
    from bench.postgres_process import PostgresProcess, binaries

    if binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    postgres = PostgresProcess()
    postgres.start()

    async def scenario() -> None:
        store = db.Store(postgres.url, read_timeout=TIMEOUT)
        one = text("SELECT 1")
        try:
            nap = text("SELECT pg_sleep(0.05)")
            # Reads at once, so the pool holds a connection for each reader thread.
            await asyncio.gather(*(store.fetch(lambda conn: conn.execute(nap))
                                   for _ in range(store.reader.threads)))
            pid = await store.fetch(lambda conn: conn.execute(text(
                "SELECT pid FROM pg_stat_activity WHERE state = 'idle' AND "
                "query = 'ROLLBACK' AND pid <> pg_backend_pid() LIMIT 1")).scalar_one())
            os.kill(pid, signal.SIGSTOP)
            try:
                answers = []
                for _ in range(6):
                    try:
                        answers.append(await store.fetch(
                            lambda conn: conn.execute(one).scalar()))
                    except db.Unavailable:
                        answers.append(None)
                assert answers.count(None) == 1 and answers.count(1) == 5
            finally:
                os.kill(pid, signal.SIGCONT)
            for _ in range(3 * store.reader.threads):
                assert await store.fetch(lambda conn: conn.execute(one).scalar()) == 1
        finally:
            await asyncio.to_thread(store.close)

    try:
        asyncio.run(scenario())
    finally:
        postgres.close()
