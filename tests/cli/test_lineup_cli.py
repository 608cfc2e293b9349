"""--vs and --bots read a list of bot levels by one rule, whatever the number of players: a
list shorter than the seats repeats in order to fill them; a longer one is refused; every
help that takes a list says so."""

import json
import re

import pytest

from chuko.cli.main import commands
from chuko.games import descriptor

RULE = "a list shorter than the seats repeats in order to fill them"


@pytest.mark.parametrize("players, bots, lineup", [
    ("2", "easy", ["easy", "easy"]),
    ("3", "easy,hard", ["easy", "hard", "easy"]),
    ("3", "easy,easy", ["easy", "easy", "easy"]),
    ("4", "random,easy,hard", ["random", "easy", "hard", "random"]),
])
def test_simulate_fills_the_seats_by_repeating_the_list(run_chuko, players, bots, lineup):
    budget = ["--bot-simulations", "5"] if "hard" in bots else []  # only hard bots search
    status, out, _ = run_chuko("simulate", "chuko", "--players", players, "--bots", bots,
                               "--games", "1", "--seed", "1", *budget, "--json")
    assert status == 0 and json.loads(out)["lineup"] == lineup


def test_chuchulas_simulation_follows_the_same_rule(run_chuko):
    status, out, _ = run_chuko("simulate", "chuchula", "--players", "3", "--bots", "hard,easy",
                               "--rounds", "1", "--seed", "1", "--json")
    assert status == 0
    assert [seat["bot"] for seat in json.loads(out)["seats"]] == ["hard", "easy", "hard"]


def test_play_fills_the_other_seats_by_the_same_rule(run_chuko):
    status, out, _ = run_chuko("play", "chuko", "--players", "4", "--vs", "easy,hard",
                               "--seed", "1", "--first", "0", stdin="quit\n")
    assert status == 0
    assert re.search(r"Hands: You \d+, Easy bot 1 \d+, Hard bot \d+, Easy bot 2 \d+",
                     " ".join(out.split()))


@pytest.mark.parametrize("argv, message", [
    (["simulate", "chuko", "--games", "1", "--players", "2", "--bots", "easy,hard,easy"],
     "--bots names 3 bots, more than the seats to fill (2)."),
    (["simulate", "chuko", "--games", "1", "--bots", ","], "--bots names no bot; choose from "),
    (["play", "chuko", "--players", "3", "--vs", "easy,hard,easy"],
     "--vs names 3 bots, more than the seats to fill (2)."),
    (["play", "takeaway", "--vs", "wizard"], "There is no 'wizard' bot; choose from "),
])
def test_a_list_that_cannot_fill_the_seats_is_one_line_and_status_2(run_chuko, argv, message):
    status, _, err = run_chuko(*argv)
    assert status == 2 and message in err and err.count("\n") == 1


def test_every_help_that_takes_a_list_of_levels_says_how_it_fills_the_seats(run_chuko):
    checked = 0
    for verb in ("play", "simulate"):
        for game in commands()[verb]:
            status, out, _ = run_chuko(verb, game, "--help")
            flat = " ".join(out.split())
            most = descriptor(game).traits.max_players  # None: no limit
            several = most is None or most > 2 or verb == "simulate"
            if status == 0 and several and ("--vs" in out or "--bots" in out):
                assert RULE in flat, (verb, game)
                checked += 1
    assert checked >= 5
