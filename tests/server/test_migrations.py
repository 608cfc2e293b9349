"""Upgrading a database made by the schema before migrations (the record rewritten at every
move): its waiting room can still be joined, its game in progress goes on to the end from
where it was, and its finished game replays as it was played. From then on moves only
append to the log. On SQLite, and on a PostgreSQL server of the test's own where PostgreSQL
is installed."""

from __future__ import annotations

import json
import random
import time
import warnings

import pytest
from bench.postgres_process import PostgresProcess, binaries
from server_helpers import join, play_out, random_chooser, whole_replay
from sqlalchemy import text

from chuko.games import game_class
from chuko.server import create_app
from chuko.server.store import database as db
from chuko.server.store import migrations

HEAD = "0010"  # the latest revision: every older database is upgraded to it

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

# The schema as the server made it before migrations (SQLite's DDL, frozen here).
TODAYS_SCHEMA = """
CREATE TABLE rooms (
    id VARCHAR(32) NOT NULL, game VARCHAR(64) NOT NULL, options TEXT NOT NULL,
    status VARCHAR(8) NOT NULL, version INTEGER NOT NULL, record TEXT NOT NULL,
    created FLOAT NOT NULL, updated FLOAT NOT NULL, rematch VARCHAR(32), rematch_of VARCHAR(32),
    PRIMARY KEY (id));
CREATE INDEX rooms_status ON rooms (status);
CREATE TABLE seats (
    room VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL,
    level VARCHAR(16), token_hash VARCHAR(64), invite_hash VARCHAR(64), joined BOOLEAN NOT NULL,
    name VARCHAR(24), PRIMARY KEY (room, seat), FOREIGN KEY(room) REFERENCES rooms (id));
CREATE TABLE moves (
    room VARCHAR(32) NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL,
    move TEXT NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (room, number),
    FOREIGN KEY(room) REFERENCES rooms (id));
"""
NAMES = ["Host", "Easy bot"]


def played(game_id: str, seed: int, moves: int | None, **options):
    """A game dealt with `seed` and `moves` random moves into it (None: to its end), and the
    moves as (seat, text)."""
    rules = game_class(game_id)
    state = rules.from_options(rules.descriptor.read_options(options)).new(seed)
    rng, log = random.Random(seed), []
    while state.outcome is None and (moves is None or len(log) < moves):
        seat = state.to_move[0]
        move = state.random_move(seat, rng)
        state.play(seat, move)
        log.append((seat, str(move)))
    return rules.descriptor.read_options(options), state, log


def store_as_before(conn, room_id: str, game_id: str, options, state, log, seats) -> None:
    """A room as the server stored it before: the whole record, and a row per move."""
    status = "over" if state.outcome else "playing" if all(s[5] for s in seats) else "waiting"
    now = time.time()  # made just now: the waiting room has not expired
    conn.execute(text("INSERT INTO rooms VALUES (:id, :game, :options, :status, :version, "
                      ":record, :now, :now, NULL, NULL)"),
                 {"id": room_id, "game": game_id, "options": json.dumps(options),
                  "status": status, "version": len(log), "record": json.dumps(state.record()),
                  "now": now})
    conn.execute(text("INSERT INTO seats VALUES (:room, :seat, :kind, :level, :token, "
                      ":invite, :joined, NULL)"),
                 [dict(zip(("seat", "kind", "level", "token", "invite", "joined"), seat,
                           strict=True), room=room_id) for seat in seats])
    if log:
        conn.execute(text("INSERT INTO moves VALUES (:room, :number, :seat, :move, 0)"),
                     [{"room": room_id, "number": n, "seat": seat, "move": move}
                      for n, (seat, move) in enumerate(log, 1)])


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def old_url(request, tmp_path):
    """A database to build today's schema in: a new SQLite file, or a new PostgreSQL server
    of the test's own (not the shared test database, which other tests use meanwhile)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/before.db"
        return
    pytest.importorskip("psycopg")
    if binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    server = PostgresProcess()
    try:
        server.start()
        yield server.url
    finally:
        server.close()


def test_a_database_of_todays_schema_is_upgraded_and_its_games_go_on(old_url):
    host = (0, "human", None, db.secret_hash("host"), None, True)
    bot = (1, "bot", "easy", None, None, True)
    waiting = played("crossroads", 1, 0)
    going = played("caravan", 2, 5, bridges=0)
    done = played("crossroads", 3, None, rounds=2)
    engine = db.make_engine(old_url)
    with engine.begin() as conn:
        for statement in TODAYS_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(text(statement))
        store_as_before(conn, "waits", "crossroads", *waiting,
                        [host, (1, "human", None, None, db.secret_hash("code"), False)])
        store_as_before(conn, "goes", "caravan", *going, [host])
        store_as_before(conn, "done", "crossroads", *done, [host, bot])
    engine.dispose()
    url = old_url
    with TestClient(create_app(url, bot_delay=0, round_pause=0, rng=random.Random(5))) as client:
        assert migrations.revision(db.make_engine(url)) == HEAD
        # The waiting room opens to its invite and starts.
        joined = join(client, {"room": "waits", "invites": [{"url": "/join/waits/code"}]})
        assert client.get(f"/api/rooms/waits?token={joined['token']}").json()["status"] \
            == "playing"
        # The game in progress is where it was, its log whole, and goes on to the end.
        _, state, log = going
        assert client.get("/api/rooms/goes?token=host").json()["view"] == state.view(0)
        with client.websocket_connect("/ws/goes?token=host") as ws:
            received = play_out(ws, random_chooser(1))
        assert received[0]["total"] == len(log) == 5 and received[1]["version"] == 5
        final = received[-1]
        assert final["status"] == "over"
        # Its header kept the old record; only moves were added after it.
        row = client.app.state.hub.store.load("goes")
        assert row.base == 5 and row.record == state.record() and row.seed is not None
        assert len(row.moves) == final["version"] - 5
        replayed = whole_replay(client, "goes", "host")["frames"]
        before = game_class("caravan").frames(state.record(), ["Host"], 0, reveal=True)
        assert [{"view": f["view"], "caption": f["caption"]} for f in replayed[:6]] == before
        # The finished game replays as it was played.
        _, ended, _ = done
        replayed = whole_replay(client, "done", "host")["frames"]
        assert [{"view": f["view"], "caption": f["caption"]} for f in replayed] == \
            game_class("crossroads").frames(ended.record(), NAMES, 0, reveal=True)


def store_at_0002(conn, room_id: str, game_id: str, options, state, log, seats,
                  status: str, created: float) -> None:
    """A room as the release before the club stored it (revision 0002): the deal as its
    record and each move a row of the log."""
    rules = game_class(game_id)
    dealt = rules.from_options(options).new(0).record() if not log else None
    conn.execute(text(
        "INSERT INTO rooms (id, game, options, status, version, record, created, updated, "
        "rematch, rematch_of, base, seed) VALUES (:id, :game, :options, :status, :version, "
        ":record, :created, :created, NULL, NULL, :base, :seed)"),
        {"id": room_id, "game": game_id, "options": json.dumps(options), "status": status,
         "version": len(log), "record": json.dumps(state.record() if log else dealt),
         "created": created, "base": len(log), "seed": 7})
    conn.execute(text("INSERT INTO seats (room, seat, kind, level, token_hash, invite_hash, "
                      "joined, name) VALUES (:room, :seat, :kind, :level, :token, :invite, "
                      ":joined, NULL)"),
                 [dict(zip(("seat", "kind", "level", "token", "invite", "joined"), seat,
                           strict=True), room=room_id) for seat in seats])


def test_a_database_of_the_release_before_the_club_is_upgraded_and_every_room_goes_on(old_url):
    """Revision 0002 (what the release before the club makes), with a room in every state:
    after the upgrade the waiting room opens to its invite, the game in progress plays to
    its end, the finished one replays, the expired one stays closed, and none of them is
    rated, clocked or held by a known player."""
    host = (0, "human", None, db.secret_hash("host"), None, True)
    bot = (1, "bot", "easy", None, None, True)
    invited = (1, "human", None, None, db.secret_hash("code"), False)
    engine = db.make_engine(old_url)
    migrations.upgrade(engine, "0002")
    assert migrations.revision(engine) == "0002"
    now = time.time()
    with engine.begin() as conn:
        for room_id, status, moves, created, seats in (
                ("waits", "waiting", 0, now, [host, invited]),
                ("goes", "playing", 4, now, [host, bot]),
                ("done", "over", None, now, [host, bot]),
                ("gone", "expired", 0, now - 3 * 24 * 3600, [host, invited])):
            options, state, log = played("crossroads", 11, moves, rounds=1)
            store_at_0002(conn, room_id, "crossroads", options, state, log, seats, status,
                          created)
    engine.dispose()
    with TestClient(create_app(old_url, bot_delay=0, round_pause=0,
                               rng=random.Random(5))) as client:
        assert migrations.revision(db.make_engine(old_url)) == HEAD
        joined = join(client, {"room": "waits", "invites": [{"url": "/join/waits/code"}]})
        assert client.get(f"/api/rooms/waits?token={joined['token']}").json()["status"] \
            == "playing"
        with client.websocket_connect("/ws/goes?token=host") as ws:
            final = play_out(ws, random_chooser(3))[-1]
        assert final["status"] == "over" and final["clock"] is None and not final["rated"]
        assert [f["caption"] for f in whole_replay(client, "done", "host")["frames"]]
        refused = client.post("/api/rooms/gone/join", json={"invite": "code"})
        assert refused.status_code == 409 and "closed" in refused.json()["error"]
        for room_id in ("waits", "goes", "done", "gone"):
            row = client.app.state.hub.store.load(room_id)
            assert not row.rated and row.clock is None
            assert all(seat.player is None and seat.gone is None for seat in row.seats)


def test_puzzle_ratings_kept_as_openskill_become_glicko_on_the_clubs_scale(old_url):
    engine = db.make_engine(old_url)
    migrations.upgrade(engine, "0009")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, created, deleted) VALUES ('p', 0, false)"))
        conn.execute(text("INSERT INTO puzzle_ratings (player, mu, sigma, tries, updated) "
                          "VALUES ('p', :mu, 2.0, 12, 0)"), {"mu": 25 + 200 / 60})
        conn.execute(text("INSERT INTO puzzles (id, mu, sigma, tries) VALUES ('7', 20, 9, 3)"))
    migrations.upgrade(engine)
    with engine.connect() as conn:
        player = conn.execute(text("SELECT rating, deviation, volatility, tries "
                                   "FROM puzzle_ratings")).one()
        puzzle = conn.execute(text("SELECT rating, deviation FROM puzzles")).one()
    engine.dispose()
    assert tuple(player) == pytest.approx((1700, 120, 0.09, 12))
    assert tuple(puzzle) == pytest.approx((1200, 500))  # the deviation within Glicko's cap
