"""`chuko simulate GAME`, the generic simulation: any registered game, from its descriptor
alone (the toy take-away game of tests/plugins included)."""

import json
from random import Random

import pytest

from chuko.analysis.simulate import make_bots, simulate
from chuko.core.errors import ConfigError
from chuko.core.words import ordinal
from chuko.games import descriptors, game_class

LISTING = [d.id for d in descriptors() if d.traits.lists_moves]


def summary(run_chuko, game_id, *argv):
    status, out, err = run_chuko("simulate", game_id, "--games", "6", "--seed", "3", "--json",
                                 *argv)
    assert status == 0 and err == "", err
    return out


def test_every_registered_game_that_lists_moves_is_simulated_and_the_toy_game_too():
    assert {"chuko", "crossroads", "caravan", "takeaway"} <= set(LISTING)


@pytest.mark.parametrize("game_id", LISTING)
def test_simulate_gives_rates_in_0_1_that_add_up_and_a_seed_reproduces(run_chuko, game_id):
    out = summary(run_chuko, game_id)
    result = json.loads(out)
    assert result["game"] == game_id and result["games"] == 6
    assert result["options"] == game_class(game_id).descriptor.read_options(None)
    rates = [*result["seats"], *result["bots"]]
    rates += [result["first_player"]] if result["first_player"] else []
    assert all(0 <= r["low"] <= r["estimate"] <= r["high"] <= 1 for r in rates)
    seat_wins = sum(s["wins"] for s in result["seats"])
    assert seat_wins == sum(b["wins"] for b in result["bots"])
    assert seat_wins + result["draws"] + result["no_winner"] == 6  # one winner at most here
    assert [s["seat"] for s in result["seats"]] == list(range(result["players"]))
    assert result["moves"]["estimate"] >= 1
    assert summary(run_chuko, game_id) == out


@pytest.mark.parametrize("game_id", LISTING)
def test_jsonl_records_replay_through_the_engine_to_the_same_end(run_chuko, tmp_path, game_id):
    path = tmp_path / "games.jsonl"
    result = json.loads(summary(run_chuko, game_id, "--jsonl", str(path)))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 6
    wins = [0] * result["players"]
    for record in records:
        state = game_class(game_id).replay(record)
        assert state.outcome is not None and state.record()["game"] == game_id
        for seat in state.outcome.winners:
            wins[seat] += 1
    assert wins == [s["wins"] for s in result["seats"]]


def test_the_lineup_rotates_by_one_seat_a_game_unless_seats_are_fixed(run_chuko, tmp_path):
    path = tmp_path / "games.jsonl"
    summary(run_chuko, "crossroads", "--bots", "random,easy", "--jsonl", str(path))
    bots = [json.loads(line)["bots"] for line in path.read_text().splitlines()]
    assert bots == [["random", "easy"], ["easy", "random"]] * 3
    summary(run_chuko, "crossroads", "--bots", "random,easy", "--fixed-seats",
            "--jsonl", str(path))
    assert {tuple(json.loads(line)["bots"]) for line in path.read_text().splitlines()} == {
        ("random", "easy")}


def test_bots_are_counted_apart_from_seats(run_chuko):
    # Take-away from 15 stones is won by whoever moves first and plays perfectly.
    result = json.loads(summary(run_chuko, "takeaway", "--bots", "perfect,random",
                                "--games", "40"))
    perfect, rand = result["bots"]
    assert perfect["level"] == "perfect" and perfect["name"] == "Perfect bot"
    assert perfect["wins"] > rand["wins"]
    assert result["seats"][0]["wins"] + result["seats"][1]["wins"] == 40


def test_the_games_options_are_flags_checked_by_the_engine(run_chuko):
    result = json.loads(summary(run_chuko, "takeaway", "--stones", "4", "--most", "1"))
    assert result["options"] == {"stones": 4, "most": 1}
    assert result["moves"]["estimate"] == 4  # four takes of one stone each
    status, out, _ = run_chuko("simulate", "takeaway", "--help")
    assert status == 0 and "--stones" in out and "--most" in out


def test_verbose_says_how_each_game_ended_in_the_engines_words(run_chuko):
    status, out, _ = run_chuko("simulate", "takeaway", "--bots", "perfect,random", "--games",
                               "2", "--seed", "1", "--verbose")
    assert status == 0
    assert "Game 1: " in out and "Game 2: " in out and " won " in out
    assert "seat 0" not in out.lower()


@pytest.mark.parametrize(
    ("game_id", "args", "message"),
    [
        ("chuko", ["--players", "1"], "Players must be"),
        ("chuko", ["--pack", "2,x"], "not a card"),
        ("chuko", ["--bots", "easy,wizard"], "no 'wizard' bot"),
        ("chuko", ["--bots", "easy,easy,easy"], "3 bots, more than the seats to fill (2)"),
        ("crossroads", ["--rounds", "3"], "one of 1, 2"),
        ("caravan", ["--bridges", "12"], "from 0 to 11"),
        ("takeaway", ["--stones", "lots"], "whole number"),
        ("takeaway", ["--games", "0"], "at least 1"),
        ("takeaway", ["--bot-simulations", "0"], "not a positive number"),
        ("takeaway", ["--colour", "red"], "Unrecognized arguments"),
        ("takeaway", ["--json", "--verbose"], "not allowed with"),
        ("takeaway", ["--jsonl", "/nonexistent/dir/x.jsonl"], "Cannot write"),
    ],
)
def test_bad_flags_exit_2_with_one_line(run_chuko, game_id, args, message):
    status, out, err = run_chuko("simulate", game_id, "--games", "2", *args)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_a_search_budget_that_no_bot_of_the_lineup_takes_is_refused():
    with pytest.raises(ConfigError, match="No bot of the lineup"):
        make_bots("chuchula", ["easy", "random"], Random(1), {"simulations": 5})


def test_a_game_that_lists_no_moves_is_simulated_from_the_bots_views():
    game = game_class("chuchula").from_options({"players": 2, "length": 1}, bots_only=True)
    tally = simulate(game, ["easy", "random"], 3, Random(5))
    assert tally.games == 3 and sum(tally.seat_wins) == 3 and tally.lengths == [2, 2, 2]


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
