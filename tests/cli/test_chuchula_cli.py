"""`chuko advise chuchula` and `chuko simulate chuchula` from the command line."""

import json
import re

import pytest

from chuko.cli import main as cli
from chuko.core.deck52 import parse_cards
from chuko.core.words import count
from chuko.games.chuchula import Game, Grouping, grouping_problem

HAND = "♠A ♠4 ♠5 ♦K ♦Q ♦J ♦2 ♣9 ♣8 ♥J ♥7 ♥4 ♥3"
ROWS = {("play", "chuchula"), ("advise", "chuchula"), ("simulate", "chuchula")}


@pytest.fixture
def chuko(run_chuko):
    """Run `chuko ARGS`, return (status, stdout, stderr)."""
    return run_chuko


def test_the_dispatcher_serves_the_commands_chuchulas_descriptor_names():
    commands, own = cli.commands(), Game.descriptor.integrations.commands
    assert all(commands[verb][game] == own[verb] for verb, game in ROWS)


def test_advise_prints_four_groups_a_leftover_and_expected_points_as_json(chuko):
    status, out, _ = chuko("advise", "chuchula", "--hand", HAND, "--players", "4", "--json")
    advice = json.loads(out)
    assert status == 0
    assert [len(g) for g in advice["groups"]] == [3, 3, 3, 3]
    grouping = Grouping.parse(" | ".join(" ".join(g) for g in advice["groups"])
                              + " ; " + advice["leftover"])
    assert grouping_problem(parse_cards(HAND), grouping) is None
    assert advice["expected_points"] == pytest.approx(sum(advice["expected_by_position"]),
                                                      abs=1e-3)


def test_advise_in_words_and_with_game_and_verb_swapped(chuko):
    status, out, _ = chuko("chuchula", "advise", "--hand", HAND, "--players", "3")
    assert status == 0 and "Group 1:" in out and "Left out:" in out
    assert "Expected points" in out and "against 2 opponents" in out
    assert not re.search(r"\b(?:10|[2-9AKQJT])[shdc]\b", out)  # cards only as A♠, 10♥


@pytest.mark.parametrize(
    "hand", ["As Ks", HAND.replace("♥3", "♥4"), HAND + " 2c", "As Kx Qd"],
)
def test_a_hand_that_is_not_13_distinct_cards_is_one_line_and_status_2(chuko, hand):
    status, out, err = chuko("advise", "chuchula", "--hand", hand)
    assert status == 2 and out == "" and err.count("\n") == 1 and err.startswith("chuko: ")


def test_advise_reads_hands_from_standard_input_one_json_line_each(chuko):
    lines = f"{HAND}\n\nAs Ks Qs\n{HAND.replace(' ', ',')}\n"
    status, out, _ = chuko("advise", "chuchula", "--players", "2", stdin=lines)
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 2  # one line was not a hand
    assert len(results) == 3 and "error" in results[1] and "13 different" in results[1]["error"]
    assert results[0]["groups"] == results[2]["groups"]


def test_advise_refuses_five_players(chuko):
    status, _, err = chuko("advise", "chuchula", "--hand", HAND, "--players", "5")
    assert status == 2 and "Players must be a whole number from 2 to 4, not 5." in err


def test_simulate_reports_points_per_round_and_writes_replayable_records(chuko, tmp_path):
    path = tmp_path / "games.jsonl"
    status, out, _ = chuko("simulate", "chuchula", "--players", "3", "--bots", "hard,easy,random",
                           "--rounds", "12", "--seed", "4", "--jsonl", str(path))
    assert status == 0 and "12 rounds in 3 games of up to 5 rounds" in out
    assert all(name in out for name in ("Hard bot", "Easy bot", "Random bot"))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [len(r["rounds"]) for r in records] == [5, 5, 2]
    assert all(Game.replay(r).outcome is not None for r in records)


def test_simulate_json_is_reproducible_with_a_seed(chuko):
    args = ("simulate", "chuchula", "--rounds", "6", "--seed", "9", "--json")
    first, second = chuko(*args)[1], chuko(*args)[1]
    summary = json.loads(first)
    assert first == second and summary["rounds"] == 6
    assert [s["bot"] for s in summary["seats"]] == ["hard", "easy", "easy", "easy"]
    assert [s["seat"] for s in summary["seats"]] == [0, 1, 2, 3]
    assert [s["name"] for s in summary["seats"]][:2] == ["Hard bot", "Easy bot 1"]
    points = summary["levels"]["easy"]
    assert points["low"] <= points["estimate"] <= points["high"]


def test_simulate_verbose_says_each_games_end_in_the_engines_words(chuko):
    status, out, _ = chuko("simulate", "chuchula", "--players", "2", "--bots", "hard,random",
                           "--rounds", "4", "--length", "2", "--seed", "1", "--verbose")
    assert status == 0 and "Game 1: " in out and "Game 2: " in out
    assert "Hard bot" in out and "seat" not in out.lower()


def test_simulate_plays_games_to_points_whole_with_the_games_own_flags(chuko, tmp_path):
    path = tmp_path / "games.jsonl"
    status, out, _ = chuko("simulate", "chuchula", "--players", "2", "--bots", "random",
                           "--mode", "points", "--length", "3", "--rounds", "4", "--seed", "5",
                           "--jsonl", str(path))
    records = [Game.replay(json.loads(line)) for line in path.read_text().splitlines()]
    played = sum(len(state.view(None)["rounds"]) for state in records)
    assert status == 0 and f"{played} rounds in {count(len(records), 'game')} to 3 points" in out
    assert played >= 4 and all(max(state.scores) >= 3 for state in records)


@pytest.mark.parametrize(
    "argv",
    [["--bots", "hard,wizard"], ["--bots", "hard,easy,easy,easy,easy"], ["--rounds", "0"],
     ["--players", "1"], ["--jsonl", "/nonexistent/dir/x.jsonl"], ["--json", "--verbose"]],
)
def test_simulate_refuses_bad_options_with_status_2(chuko, argv):
    status, _, err = chuko("simulate", "chuchula", "--rounds", "2", *argv)
    assert status == 2 and err.count("\n") == 1
