"""Farming held back: two players' rated games together count 3 in any 24 hours, and a
provisional rating counts 5 rated games in any hour; a game past either limit ends unrated,
its reason in the room's result. Decided in the write that applies the result, from the
rated games stored (their times are when the rooms ended)."""

from __future__ import annotations

import json
import threading
import time

from sqlalchemy import insert, select, text

from chuko.server.club.ratings import (
    NEWCOMER_GAMES,
    PAIR_GAMES,
    PAIR_WINDOW,
    PROVISIONAL_GAMES,
    apply_result,
)
from chuko.server.store.database import Store
from chuko.server.store.schema import ratings, rooms
from club_seed import add_player, add_room, postgres_schema

HOUR = 3600.0
START = 1_760_000_000.0


def played(store: Store, players: list[str], at: float, seed: int = 1) -> str | None:
    """A rated Crossroads duel between `players` that ended at `at`, its result applied:
    why it did not count, None when it did."""
    room_id, _ = add_room(store.engine, "crossroads", players, seed=seed, ended=at)
    with store.engine.connect() as conn:
        result = conn.execute(select(rooms.c.result).where(rooms.c.id == room_id)).scalar()
    return json.loads(result).get("unrated") if result else None


def games(store: Store, player: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(ratings.c.games).where(ratings.c.player == player)).scalar()


def test_a_pairs_fourth_rated_game_within_24_hours_is_not_rated(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/club.db")
    try:
        ann, bob, cy = (add_player(store.engine, name) for name in ("ann", "bob", "cy"))
        assert PAIR_GAMES == 3 and PAIR_WINDOW == 24 * HOUR
        for k in range(3):  # two hours apart, as a string of rematches might be
            assert played(store, [ann, bob], START + 2 * HOUR * k, seed=k + 1) is None
        assert played(store, [bob, ann], START + 6 * HOUR, seed=4) == "repeated_pairing"
        assert games(store, ann) == games(store, bob) == 3
        assert played(store, [ann, cy], START + 7 * HOUR, seed=5) is None  # another pair
        # A day after the first, two of the three counted are left in the window.
        assert played(store, [ann, bob], START + 24 * HOUR + 1, seed=6) is None
        assert games(store, bob) == 4
    finally:
        store.close()


def test_a_provisional_rating_counts_five_rated_games_an_hour(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/club.db")
    try:
        ann = add_player(store.engine, "ann")
        opponents = [add_player(store.engine, f"new{k}") for k in range(7)]
        assert NEWCOMER_GAMES == 5
        for k in range(5):  # ten minutes apart, each against someone new
            assert played(store, [ann, opponents[k]], START + 600 * k, seed=k + 1) is None
        assert played(store, [opponents[5], ann], START + 3000) == "new_account_limit"
        assert games(store, ann) == 5 and games(store, opponents[5]) is None
        # An hour after the first, four are left in the window.
        assert played(store, [ann, opponents[6]], START + HOUR + 1) is None
    finally:
        store.close()


def test_a_settled_rating_plays_as_often_as_it_likes(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/club.db")
    try:
        dee = add_player(store.engine, "dee")
        with store.engine.begin() as conn:
            conn.execute(insert(ratings).values(
                player=dee, game="crossroads", **{"class": "duel"}, mu=27.0, sigma=4.0,
                games=PROVISIONAL_GAMES + 10, wins=12, updated=START))
        for k in range(NEWCOMER_GAMES + 2):
            newcomer = add_player(store.engine, f"new{k}")
            assert played(store, [dee, newcomer], START + 300 * k, seed=k + 1) is None
        assert games(store, dee) == PROVISIONAL_GAMES + 10 + NEWCOMER_GAMES + 2
    finally:
        store.close()


def test_two_ends_of_one_pair_at_once_cannot_both_slip_under_the_limit(request):
    """On PostgreSQL, two rooms of Ann and Bob ending at once, with two of their games
    counted already: the second end waits for the first's lock on its players, then finds
    three counted, so only one of the two counts."""
    with postgres_schema(request.node.name) as url:
        store = Store(url)
        try:
            ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
            for k in range(PAIR_GAMES - 1):
                assert played(store, [ann, bob], START + 2 * HOUR * k, seed=k + 1) is None
            at = START + 5 * HOUR
            first, second = (add_room(store.engine, "crossroads", [ann, bob], seed=seed,
                                      ended=at, apply=False)[0] for seed in (7, 8))
            told: list[str | None] = []
            with store.engine.connect() as conn:
                told.append(apply_result(first, "crossroads", [0, 1], at)(conn))
                other = threading.Thread(target=lambda: told.append(_apply(store, second, at)))
                other.start()
                _until_a_lock_is_waited_for(store)
                conn.commit()
            other.join(30)
        finally:
            store.close()
    assert told == [None, "repeated_pairing"]


def _apply(store: Store, room_id: str, at: float) -> str | None:
    with store.engine.begin() as conn:
        return apply_result(room_id, "crossroads", [0, 1], at)(conn)


def _until_a_lock_is_waited_for(store: Store) -> None:
    for _ in range(500):  # a bounded look, not a timing
        with store.engine.connect() as conn:
            if conn.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar():
                return
        time.sleep(0.01)
    raise AssertionError("The second end did not wait for the first.")
