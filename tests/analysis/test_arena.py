"""`chuko arena GAME`: every bot level against every other through `simulate`, ratings that
follow the scores, intervals from the bootstrap, a solitaire compared deal by deal, and the
command's JSON, plot and one-sentence refusals."""

import json
import math
from random import Random
from types import SimpleNamespace

import pytest

from chuko.analysis import arena
from chuko.analysis.agents import Agent
from chuko.analysis.arena import Pairing, fit_elo, play_pairing, play_solitaire, rate
from chuko.games import game_class


def test_a_level_scoring_three_quarters_is_rated_about_191_elo_above():
    # 400·log10(3) = 190.8; the one virtual draw pulls it in by a hair
    elo = fit_elo(["a", "b"], {(0, 1): (7500.0, 10_000)})
    assert elo[0] == 0 and elo[1] == pytest.approx(-190.8, abs=0.5)


def test_ratings_chain_through_pairings_and_stay_finite_for_a_level_that_never_lost():
    elo = fit_elo(["a", "b", "c"], {(0, 1): (75.0, 100), (1, 2): (75.0, 100),
                                    (0, 2): (100.0, 100)})
    assert 0 == elo[0] > elo[1] > elo[2] > -math.inf
    assert elo[1] - elo[2] == pytest.approx(elo[0] - elo[1], abs=20)


def test_bootstrap_intervals_hold_the_estimate_and_narrow_with_more_games():
    def width(n):
        pairings = [Pairing("a", "b", [1.0] * (6 * n) + [0.0] * (4 * n))]
        found = rate(["a", "b"], pairings, Random(1), shared_deals=False, resamples=200)
        low, high = found.intervals[1].low, found.intervals[1].high
        assert low <= found.elo[1] <= high
        return high - low

    assert width(40) < width(4) / 2


def test_a_game_won_by_bots_of_both_levels_or_by_none_is_a_draw():
    sides = ["easy", "hard", "easy"]

    def result(winners):
        state = SimpleNamespace(outcome=SimpleNamespace(winners=winners))
        return arena.side_result(state, sides, "easy", None)

    assert [result((0,)), result((2,)), result((1,)), result(()), result((0, 1))] == [
        1.0, 1.0, 0.0, 0.5, 0.5]


def test_a_pairing_plays_its_games_and_perfect_play_never_loses_take_away():
    game = game_class("takeaway").from_options({}, bots_only=True)
    found = play_pairing(game, Agent("random", "level"), Agent("perfect", "level"), 8,
                         Random(2), {}, lambda n: None)
    assert len(found.results) == 8 and found.results.count(0.0) >= 4


def test_with_an_odd_number_of_seats_each_level_starts_half_the_games(monkeypatch):
    game = game_class("chuko").from_options({"players": 3}, bots_only=True)
    lineups = []
    real = arena.play_games
    monkeypatch.setattr(arena, "play_games", lambda g, lineup, n, *a, **k: (
        lineups.append(([agent.spec for agent in lineup], n)), real(g, lineup, n, *a, **k))[1])
    found = play_pairing(game, Agent("random", "level"), Agent("easy", "level"), 5, Random(3),
                         {}, lambda n: None)
    assert lineups == [(["random", "easy", "random"], 3), (["easy", "random", "easy"], 2)]
    assert len(found.results) == 5


def test_a_solitaire_plays_every_level_on_the_same_deals():
    game = game_class("caravan").from_options({"bridges": 1}, bots_only=True)
    levels = [Agent("random", "level"), Agent("perfect", "level")]
    won, _forfeits, pairings = play_solitaire(game, levels, 12, Random(4), {}, lambda n: None)
    # the perfect bot wins every deal that can be won, so every deal random wins
    assert all(p >= r for r, p in zip(won["random"], won["perfect"], strict=True))
    assert pairings[0].results == [0.5 if r == p else float(r)
                                   for r, p in zip(won["random"], won["perfect"], strict=True)]


def test_arena_prints_reproducible_json_with_ratings_for_every_level(run_chuko):
    argv = ("arena", "crossroads", "--levels", "random,easy,perfect", "--games", "6",
            "--seed", "5", "--json")
    status, out, err = run_chuko(*argv)
    assert status == 0, err
    result = json.loads(out)
    assert [r["level"] for r in result["ratings"]] == ["random", "easy", "perfect"]
    assert result["ratings"][0]["elo"] == 0
    assert all(r["low"] <= r["elo"] <= r["high"] for r in result["ratings"])
    assert [(p["a"], p["b"]) for p in result["pairings"]] == [
        ("random", "easy"), ("random", "perfect"), ("easy", "perfect")]
    assert all(p["wins_a"] + p["wins_b"] + p["draws"] == p["games"] == 6
               for p in result["pairings"])
    assert run_chuko(*argv)[1] == out


def test_a_solitaire_arena_gives_each_level_its_win_rate(run_chuko):
    status, out, err = run_chuko("arena", "caravan", "--levels", "random,easy", "--games", "5",
                                 "--seed", "1", "--json")
    assert status == 0, err
    rates = json.loads(out)["win_rates"]
    assert [r["level"] for r in rates] == ["random", "easy"]
    assert all(r["games"] == 5 and 0 <= r["low"] <= r["estimate"] <= r["high"] <= 1
               for r in rates)


def test_arena_draws_its_ratings_to_an_svg_with_the_bots_named(run_chuko, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "arena.svg"
    status, out, err = run_chuko("arena", "takeaway", "--games", "4", "--seed", "1",
                                 "--plot", str(path))
    assert status == 0, err
    svg = path.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "Random bot" in svg and "Perfect bot" in svg and "Perfect bot" in out


@pytest.mark.parametrize("argv", [
    ("--levels", "random"),
    ("--levels", "random,clever"),
    ("--levels", "easy,easy"),
    ("--games", "0"),
    ("--pack", "2-5"),
])
def test_a_bad_arena_request_is_one_sentence_and_status_2(run_chuko, argv):
    status, out, err = run_chuko("arena", "crossroads", *argv)
    assert status == 2 and out == ""
    assert err.startswith("chuko: ") and err.count("\n") == 1
