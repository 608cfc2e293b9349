"""An arena's waves and a round's tables: neighbours in the standings meet, never the last
opponent again at once, the odd one out waits, tables have exactly their seats."""

from __future__ import annotations

from random import Random

import pytest

from chuko.server.tournament.arena import ArenaWaiting, TablePlayer, pair_wave, seat_tables


def waiting(id: str, points: int = 0, rating: float = 1500.0, last: str | None = None,
            since: float = 0.0) -> ArenaWaiting:
    return ArenaWaiting(id, points, rating, last, since)


def test_neighbours_by_points_then_rating_meet():
    players = [waiting("a", 2, 1500), waiting("b", 6, 1400), waiting("c", 2, 1700),
               waiting("d", 6, 1300)]
    assert pair_wave(players) == [("b", "d"), ("c", "a")]


def test_a_player_meets_the_next_neighbour_rather_than_their_last_opponent():
    players = [waiting("a", 4, last="b"), waiting("b", 3, last="a"), waiting("c", 2),
               waiting("d", 1)]
    assert pair_wave(players) == [("a", "c"), ("b", "d")]


def test_the_last_opponent_rule_holds_either_way_round():
    # Only b remembers a (a has played someone else since, or never).
    players = [waiting("a", 4), waiting("b", 3, last="a"), waiting("c", 2)]
    assert ("a", "b") not in pair_wave(players)


def test_two_players_alone_who_just_played_each_other_wait():
    assert pair_wave([waiting("a", last="b"), waiting("b", last="a")]) == []


def test_with_an_odd_count_the_newest_arrival_waits():
    players = [waiting("a", 3, since=5.0), waiting("b", 2, since=9.0), waiting("c", 1, since=1.0)]
    assert pair_wave(players) == [("a", "c")]


def test_the_newest_arrival_takes_a_player_left_over_by_the_rule():
    players = [waiting("a", 3, last="b"), waiting("b", 2, last="a"),
               waiting("c", 1, since=9.0)]
    assert pair_wave(players) == [("a", "c")]


def test_a_big_wave_pairs_everyone_it_can_and_breaks_no_rule():
    rng = Random(5)
    ids = [f"p{k}" for k in range(1001)]
    shuffled = rng.sample(ids, len(ids))
    last = {a: b for a, b in zip(shuffled[0::2], shuffled[1::2], strict=False)}
    last |= {b: a for a, b in last.items()}
    players = [waiting(p, rng.randrange(20), rng.gauss(1500, 300), last.get(p),
                       rng.uniform(0, 60)) for p in ids]
    pairs = pair_wave(players)
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen)) == 1000
    assert not any(last.get(a) == b for a, b in pairs)


def test_tables_seat_the_standings_in_order_and_the_rest_wait():
    players = [TablePlayer(f"p{k}", float(k), 1500.0) for k in range(10)]
    tables = seat_tables(players, 4, bots=False)
    assert tables == [["p9", "p8", "p7", "p6"], ["p5", "p4", "p3", "p2"]]


@pytest.mark.parametrize(("count", "size", "seated"), [
    (9, 4, [3, 3, 3]), (10, 4, [4, 3, 3]), (5, 3, [3, 2]), (8, 4, [4, 4]), (1, 4, [1]),
    (7, 3, [3, 2, 2]), (0, 3, []),
])
def test_with_bots_every_table_has_its_seats_and_no_more_bots_than_it_must(count, size, seated):
    players = [TablePlayer(f"p{k}", 0.0, 2000.0 - k) for k in range(count)]
    tables = seat_tables(players, size, bots=True)
    assert all(len(table) == size for table in tables)
    assert [sum(seat is not None for seat in table) for table in tables] == seated
    assert [seat for table in tables for seat in table if seat] == [p.id for p in players]


@pytest.mark.parametrize("call", [
    lambda: pair_wave([waiting("a"), waiting("a")]),
    lambda: pair_wave([waiting("a", rating=float("nan"))]),
    lambda: pair_wave([waiting("a", since=float("inf"))]),
    lambda: seat_tables([TablePlayer("a", float("nan"), 1500.0)], 3, bots=True),
    lambda: seat_tables([], 1, bots=True),
])
def test_bad_waiting_lists_get_a_sentence(call):
    with pytest.raises(ValueError, match=r"\w+ .*\."):
        call()
