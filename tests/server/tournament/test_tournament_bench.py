"""`python -m bench tournament` runs end to end on tiny sizes and says what it measured (its
figures are not checked here: tests never time things)."""

from __future__ import annotations

import json

from bench import bench_tournament

TINY = ["--swiss", "21", "--rounds", "3", "--arena", "31", "--runs", "5", "--seeds", "2"]


def test_the_bench_prints_both_figures_against_the_goal(capsys):
    bench_tournament.main(TINY)
    out = capsys.readouterr().out
    assert "Swiss round 4 of 21 players" in out and "10 pairs, a bye" in out
    assert "arena wave of 31 waiting (15 pairs)" in out
    assert out.count("goal 200 ms") == 2


def test_the_bench_gives_its_figures_as_json(capsys):
    bench_tournament.main([*TINY, "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert [seed["seed"] for seed in figures["swiss"]["seeds"]] == [0, 1]
    assert figures["arena"]["pairs"] == 15 and figures["runs"] == 5


def test_the_state_before_the_timed_round_is_a_played_swiss_event():
    entrants = bench_tournament.swiss_state(20, 3, seed=4)
    assert sum(e.score for e in entrants) == 3 * 10
    assert all(len(e.opponents) == 3 for e in entrants)
