"""Quick pairing's waves (server/lobby/pairing/waves.py): heads-up waves checked against networkx's
max_weight_matching on thousands of seeded random pools, by each of their ways (proof,
blossom, sweep) and when a part falls back; and the tables of 3+ players."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from chuko.server.lobby.pairing.blossom import runs
from chuko.server.lobby.pairing.line import has_partner, parts
from chuko.server.lobby.pairing.sweep import exact
from chuko.server.lobby.pairing.waves import Waiting, fill_tables, pair_heads_up, pair_wave, window

NOW = 1000.0


def acceptable(a: Waiting, b: Waiting, now: float = NOW) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= min(window(now - a.since), window(now - b.since))


def best_by_networkx(pool: list[Waiting]) -> tuple[int, float]:
    """The most pairs, then the least total gap: each edge weighs BIG minus its gap, BIG
    above twice the gaps of any matching, so one more pair always outweighs any gap."""
    graph = nx.Graph()
    span = max((p.rating for p in pool), default=0.0) - min((p.rating for p in pool), default=0.0)
    big = 2 * (len(pool) + 1) * (span + 1)
    for i, a in enumerate(pool):
        for b in pool[i + 1:]:
            if acceptable(a, b):
                graph.add_edge(a.player, b.player, weight=big - abs(a.rating - b.rating))
    matching = nx.max_weight_matching(graph)
    by_id = {p.player: p for p in pool}
    return len(matching), sum(abs(by_id[a].rating - by_id[b].rating) for a, b in matching)


def checked(pool: list[Waiting], **ways) -> tuple[int, float]:
    """The wave's pairs, checked to be a matching of acceptable pairs; its count and gap.
    `ways` go to pair_wave (the default: pair_heads_up)."""
    pairs = pair_wave(pool, NOW, **ways).pairs if ways else pair_heads_up(pool, NOW)
    by_id = {p.player: p for p in pool}
    seated = [player for pair in pairs for player in pair]
    assert len(seated) == len(set(seated))
    assert all(acceptable(by_id[a], by_id[b]) for a, b in pairs)
    return len(pairs), sum(abs(by_id[a].rating - by_id[b].rating) for a, b in pairs)


def random_pool(rng: random.Random) -> list[Waiting]:
    """0–14 players: ratings spread or bunched on a grid (equal ratings), waits from just
    joined to long past the window's cap, so windows range from tiny to huge."""
    n = rng.randint(0, 14)
    grid = rng.random() < 0.4
    spread = rng.choice([30.0, 200.0, 1000.0])
    players = []
    for i in range(n):
        rating = float(rng.randint(0, 12)) * spread / 12 if grid else rng.uniform(0, spread)
        waited = rng.choice([0.0, rng.uniform(0, 60), rng.uniform(0, 5), 500.0])
        players.append(Waiting(f"p{i}", 1500.0 + rating, NOW - waited))
    return players


def test_heads_up_waves_pair_the_most_players_at_the_least_total_gap_like_networkx():
    rng = random.Random(20261202)
    for _ in range(2000):
        pool = random_pool(rng)
        count, gap = checked(pool)
        best_count, best_gap = best_by_networkx(pool)
        assert count == best_count, pool
        assert gap == pytest.approx(best_gap, abs=1e-6), pool


def test_a_greedy_neighbour_pairing_is_not_what_a_wave_does():
    # Two just-joined players 10 points above a long waiter, and another long waiter 400
    # above: pairing rating neighbours makes one pair; both pairs need the outer ones nested.
    pool = [Waiting("a", 1500.0, NOW - 500.0), Waiting("b", 1510.0, NOW),
            Waiting("c", 1510.5, NOW), Waiting("d", 1900.0, NOW - 500.0)]
    pairs = {frozenset(p) for p in pair_heads_up(pool, NOW)}
    assert pairs == {frozenset("ad"), frozenset("bc")}


@pytest.mark.parametrize("pool, expected", [
    ([], 0),
    ([Waiting("solo", 1500.0, NOW - 30.0)], 0),
    ([Waiting("a", 1500.0, NOW), Waiting("b", 1500.0, NOW)], 1),  # equal ratings meet
    ([Waiting("a", 1500.0, NOW), Waiting("b", 1551.0, NOW - 500.0)], 0),  # one window short
    ([Waiting(f"p{i}", 1500.0, NOW - 500.0) for i in range(7)], 3),  # one left for later
])
def test_small_and_edge_pools_pair_what_the_windows_allow(pool, expected):
    assert checked(pool)[0] == expected


def test_a_player_in_the_pool_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        pair_heads_up([Waiting("a", 1500.0, NOW), Waiting("a", 1500.0, NOW)], NOW)


def test_the_window_widens_with_waiting_up_to_its_cap_and_ignores_a_clock_gone_back():
    assert window(-5.0) == window(0.0) < window(10.0) < window(40.0) < window(1e6) == window(1e9)


def test_a_wave_does_not_depend_on_the_pools_order():
    rng = random.Random(7)
    pool = [Waiting(f"p{i}", rng.choice([1500.0, 1520.0, 1600.0]), NOW - rng.uniform(0, 60))
            for i in range(40)]
    first = pair_heads_up(pool, NOW)
    rng.shuffle(pool)
    assert pair_heads_up(pool, NOW) == first


def random_table_pool(rng: random.Random) -> list[Waiting]:
    pool = []
    for i in range(rng.randint(0, 30)):
        bots_after = rng.choice([None, 0.0, 30.0, 100.0])
        pool.append(Waiting(f"p{i}", rng.gauss(1500, 300), NOW - rng.uniform(0, 60), bots_after))
    return pool


def test_tables_seat_no_player_twice_respect_every_window_and_add_bots_only_when_allowed():
    rng = random.Random(3)
    for _ in range(500):
        pool, players = random_table_pool(rng), rng.choice([3, 4, 5])
        by_id = {p.player: p for p in pool}
        tables = fill_tables(pool, NOW, players)
        seated = [player for table, _ in tables for player in table]
        assert len(seated) == len(set(seated))
        for table, bots in tables:
            humans = [by_id[player] for player in table]
            assert len(humans) >= 1 and len(humans) + bots == players
            spread = max(p.rating for p in humans) - min(p.rating for p in humans)
            assert all(spread <= window(NOW - p.since) for p in humans)
            if bots:
                assert all(p.bots_after is not None and NOW - p.since >= p.bots_after
                           for p in humans)


def test_tables_fill_by_rating_neighbours_and_bots_complete_only_the_willing():
    pool = [Waiting("a", 1500.0, NOW), Waiting("b", 1510.0, NOW), Waiting("c", 1520.0, NOW),
            Waiting("far", 2500.0, NOW - 40.0, bots_after=30.0),
            Waiting("alone", 900.0, NOW - 40.0, bots_after=None),
            Waiting("d", 1505.0, NOW)]
    tables = fill_tables(pool, NOW, 3)
    assert (["a", "d", "b"], 0) in tables
    assert (["far"], 2) in tables
    assert all("alone" not in table for table, _ in tables)


def test_a_table_has_at_least_two_seats():
    with pytest.raises(ValueError, match="2 seats"):
        fill_tables([], NOW, 1)


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_the_exact_sweep_alone_matches_networkx_where_the_parity_bound_proves_nothing():
    # Waves use the sweep only on the parts the neighbour pairing cannot be proved best for;
    # here it solves every whole pool, so its exactness is not left to those few parts.
    rng = random.Random(11)
    for _ in range(2000):
        pool = sorted(random_pool(rng), key=lambda p: (p.rating, p.player))
        t = [p.rating for p in pool]
        pairs = exact(t, [window(NOW - p.since) for p in pool], budget=10**9)
        assert pairs is not None
        assert all(acceptable(pool[a], pool[b]) for a, b in pairs)
        assert len({i for pair in pairs for i in pair}) == 2 * len(pairs)
        best_count, best_gap = best_by_networkx(pool)
        assert len(pairs) == best_count, pool
        assert sum(t[b] - t[a] for a, b in pairs) == pytest.approx(best_gap, abs=1e-6), pool


def test_waves_by_the_sweep_alone_and_by_blossom_alone_both_match_networkx():
    # Unproven parts of up to 14 players go to blossom by default; here the sweep, with all
    # the budget it needs, takes every one instead.
    rng = random.Random(5)
    for _ in range(600):
        pool = random_pool(rng)
        best_count, best_gap = best_by_networkx(pool)
        for ways in ({"blossom_most": 0, "sweep_budget": 10**9}, {"blossom_most": 100}):
            count, gap = checked(pool, **ways)
            assert count == best_count, (pool, ways)
            assert gap == pytest.approx(best_gap, abs=1e-6), (pool, ways)


def test_a_part_whose_sweep_runs_out_falls_back_to_runs_each_paired_best_and_says_so():
    rng = random.Random(9)
    fallen = 0
    falls_back = {"blossom_most": 6, "sweep_budget": 0, "sweep_per_player": 0}
    for _ in range(150):
        # Windows of 50, 80 or 500 points over 600: often unproved by the neighbour pairing.
        pool = [Waiting(f"p{i}", rng.uniform(1500, 2100), NOW - rng.choice([0, 3, 60]))
                for i in range(rng.randint(10, 40))]
        wave = pair_wave(pool, NOW, **falls_back)
        count, _ = checked(pool, **falls_back)  # a matching, windows kept
        assert wave.exact == (wave.fallen_back == 0) and count == len(wave.pairs)
        line = sorted(pool, key=lambda p: (p.rating, p.player))
        t, w = [p.rating for p in line], [window(NOW - p.since) for p in line]
        if wave.exact or parts(t, w) != [list(range(len(line)))] \
                or not all(has_partner(t, w, i) for i in range(len(t))):
            continue  # the runs are checked where the whole pool is the part fallen back
        fallen += 1
        # Each run of the line is paired as well as networkx pairs it alone; no pair spans
        # two runs.
        run_of = {}
        for number, (start, end) in enumerate(runs([p.rating for p in line], 6)):
            assert end - start <= 6
            run_of |= {p.player: number for p in line[start:end]}
            paired = [pair for pair in wave.pairs if run_of.get(pair[0]) == number]
            assert len(paired) == best_by_networkx(line[start:end])[0]
        assert all(run_of[a] == run_of[b] for a, b in wave.pairs)
    assert fallen > 30


def bench_pool(players: int, seed: int) -> list[Waiting]:
    """A pool of bench/bench_lobby.py's kind: ratings ~ N(1500, 300), waits over 0-60 s."""
    rng = random.Random(seed)
    return [Waiting(f"p{i}", rng.gauss(1500.0, 300.0), NOW - rng.uniform(0.0, 60.0))
            for i in range(players)]


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize("seed", [19, 32, 62])
def test_the_pools_the_sweep_is_slowest_on_are_paired_exactly_by_blossom(seed):
    # Of 100 such pools of 100 players these three kept the unbounded sweep over 30 s: their
    # one part is within blossom's size, so the wave pairs them like networkx; with blossom
    # kept to smaller parts, the sweep stops at its budget and the wave says it fell back.
    pool = bench_pool(100, seed)
    assert pair_wave(pool, NOW).exact
    best_count, best_gap = best_by_networkx(pool)
    count, gap = checked(pool)
    assert count == best_count and gap == pytest.approx(best_gap, abs=1e-6)
    small = pair_wave(pool, NOW, blossom_most=48)
    assert not small.exact and small.fallen_back == 1
    assert len(small.pairs) >= best_count - 1  # 49 of 50 on two of them
