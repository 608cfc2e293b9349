"""A database of the club for tests: players, finished games played out at random through the
engine (stored as the server stores them: the deal, a seed, the move log) and ratings applied
by the ratings' own write. Nothing here knows a game's rules."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, insert, text, update
from sqlalchemy.engine import make_url

from chuko.games import game_class
from chuko.server.club.ratings import apply_result, ranks_of
from chuko.server.store import database as db
from chuko.server.store.schema import players, rooms, seats

_ids = itertools.count(1)


def add_player(engine, username: str | None = None, name: str | None = None,
               deleted: bool = False, created: float = 1_700_000_000.0) -> str:
    """A guest (no username) or an account; its id."""
    player = f"p{next(_ids):05d}{random.Random(username).getrandbits(32):08x}"
    with engine.begin() as conn:
        conn.execute(insert(players).values(
            id=player, username=username,
            username_key=None if username is None else username.casefold(),
            name=name or username or "Guest", password_hash=None, created=created,
            deleted=deleted))
    return player


def played_out(game: str, options: dict, seed: int) -> tuple[dict, dict, int, list, object]:
    """A game played to its end with random legal moves: (options as stored, the deal's
    record, the seed of its later chance, the moves as (seat, text), its outcome)."""
    rules = game_class(game)
    values = rules.descriptor.read_online(options, bots_only=False)
    state = rules.configure(values, bots_only=False).new(seed)
    dealt = state.record()
    chance = seed * 7 + 1
    state.reseed(chance)
    rng = random.Random(seed)
    moves = []
    while state.outcome is None:
        seat = state.to_move[0]
        move = rng.choice(list(state.legal_moves(seat)))
        state.play(seat, move)
        moves.append((seat, str(move)))
    return values, dealt, chance, moves, state.outcome


def add_room(engine, game: str, holders: list[str | None], *, rated: bool = True,
             seed: int = 1, ended: float | None = None, options: dict | None = None,
             status: str = "over", bots: tuple[int, ...] = (), names: list | None = None,
             apply: bool = True) -> tuple[str, list[int]]:
    """A finished room (`status` "over") held by `holders` seat by seat (None: a seat with
    no known player; the seats in `bots` are bots), rated or not, its ratings applied when
    `apply`; (its id, its places). With another status the room is dealt, not played."""
    options = dict(options or {})
    if game == "chuko":
        options.setdefault("players", len(holders))
    values, dealt, chance, moves, outcome = played_out(game, options, seed)
    if status != "over":
        moves, outcome = [], None
    room_id = f"{int(ended or time.time()):08x}r{next(_ids):06d}"
    # Stored in play while its moves are appended (a move advances a game in play only),
    # then given its status.
    row = db.RoomRow(room_id, game, values, "playing", 0, dealt, [
        db.SeatRow(n, "bot" if n in bots else "human", "easy" if n in bots else None,
                   None, None, True, (names or [None] * len(holders))[n], holder)
        for n, holder in enumerate(holders)], created=(ended or time.time()) - 60,
        seed=chance, rated=rated)
    with engine.begin() as conn:
        db.insert_room(row)(conn)
        for number, (seat, text) in enumerate(moves, 1):
            db.append_move(room_id, number, seat, text,
                           "over" if number == len(moves) else "playing")(conn)
        conn.execute(update(rooms).where(rooms.c.id == room_id)
                     .values(status=status, ended=ended if status == "over" else None))
        conn.execute(update(seats).where(seats.c.room == room_id)
                     .values(joined=True))
    places = ranks_of(outcome.scores) if outcome is not None else []
    if apply and status == "over":
        with engine.begin() as conn:
            apply_result(room_id, game, places, ended or time.time())(conn)
    return room_id, places


@contextlib.contextmanager
def postgres_schema(name: str) -> Iterator[str]:
    """A database URL on CHUKO_TEST_POSTGRES whose tables live in a schema of their own,
    dropped after (the test database is shared); skips the test when it is not set."""
    url = os.environ.get("CHUKO_TEST_POSTGRES")
    if not url:
        pytest.skip("CHUKO_TEST_POSTGRES is not set")
    pytest.importorskip("psycopg")
    schema = f"club_{random.Random(name).getrandbits(40):010x}"
    admin = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
    with admin.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


DUELS = 24  # enough for both heads-up ratings to settle, and for a second page of games


def seed_club(url: str) -> None:
    """The club's pages' database at `url`: Ann and Bob played DUELS rated Crossroads games,
    Cy three (still provisional), and Ann a rated four-player Chükö game and a casual one."""
    from chuko.server.store.database import Store

    store = Store(url)
    engine = store.engine
    ann, bob = add_player(engine, "Ann", "Ann Rivers"), add_player(engine, "bob", "Bobby")
    cy, dee = add_player(engine, "cy", "Cy"), add_player(engine, "dee", "Dee")
    start = 1_760_000_000.0
    for k in range(DUELS):
        seats = [ann, bob] if k % 2 else [bob, ann]
        names = ["Ann Rivers", "Bobby"] if k % 2 else ["Bobby", "Ann Rivers"]
        add_room(engine, "crossroads", seats, seed=k + 1, ended=start + 86_400 * k, names=names)
    for k in range(3):
        add_room(engine, "crossroads", [cy, bob], seed=k + 20, ended=start + 3600 * k,
                 names=["Cy", "Bobby"])
    add_room(engine, "chuko", [ann, bob, cy, dee], seed=4, ended=start + 86_400 * DUELS,
             names=["Ann Rivers", "Bobby", "Cy", "Dee"])
    add_room(engine, "chuko", [ann, None], seed=1, rated=False, names=["Ann Rivers", "Guesty"],
             ended=start + 86_400 * (DUELS + 1))
    store.close()
