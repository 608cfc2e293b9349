"""The generic study of bot games on a built-in game: Chükö's study, declared in its
descriptor (pack × players, its resets and recycles counted by its own module), reports for
a fixed seed exactly what it reported when the study named Chükö's options and record
shape itself."""

import json

from chuko.cli.main import main

ARGV = ["study", "chuko", "--pack", "standard", "--pack", "plain", "--players", "2,3",
        "--games", "200", "--seed", "3", "--json"]

FINDINGS = [
    "The first player's win rate excludes the fair share (1/players) in 3 of 4 "
    "configurations, by its 95% interval:",
    "Pack standard, 2 players (easy): 65.0% [58.2%, 71.3%] of 200 games, fair 50%.",
    "Pack standard, 3 players (easy): 54.5% [47.6%, 61.3%] of 200 games, fair 33%.",
    "Pack plain, 2 players (easy): 59.5% [52.6%, 66.1%] of 200 games, fair 50%.",
    "No first-player edge detected at this sample size (the interval includes the fair "
    "share) for Pack plain, 3 players (easy): 38.0% [31.6%, 44.9%] of 200 games, fair 33%.",
]
COLUMNS = ["Pack", "Players", "Bots", "Games", "First player wins", "Fair", "Seat wins",
           "Draws", "Moves per game", "Recycles per game", "Resets per game"]
ROWS = [
    ["standard", "2", "easy", "200", "65.0% [58.2%, 71.3%]", "50%",
     "47% [40%, 54%] / 53% [46%, 60%]", "0", "13.22 [12.74, 13.71]", "0.68 [0.60, 0.76]",
     "2.31 [2.07, 2.54]"],
    ["standard", "3", "easy", "200", "54.5% [47.6%, 61.3%]", "33%",
     "32% [25%, 38%] / 35% [29%, 42%] / 34% [27%, 40%]", "0", "10.44 [10.05, 10.82]",
     "0.33 [0.26, 0.39]", "2.02 [1.83, 2.22]"],
    ["plain", "2", "easy", "200", "59.5% [52.6%, 66.1%]", "50%",
     "55% [48%, 61%] / 46% [39%, 52%]", "0", "15.99 [15.29, 16.69]", "1.03 [0.95, 1.11]",
     "3.73 [3.38, 4.07]"],
    ["plain", "3", "easy", "200", "38.0% [31.6%, 44.9%]", "33%",
     "32% [26%, 39%] / 32% [25%, 38%] / 36% [30%, 43%]", "0", "13.27 [12.64, 13.90]",
     "0.66 [0.57, 0.74]", "3.45 [3.14, 3.76]"],
]


def test_chukos_study_lists_every_configuration_whose_interval_excludes_fair(capsys):
    # plain, 2 players: 59.5% [52.6%, 66.1%] excludes 50% by less than five points, and is
    # listed; the one whose interval holds its fair share is named as not detected.
    assert main(ARGV) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert any(f.startswith("Pack plain, 2 players") for f in findings)
    assert findings[-1].startswith("No first-player edge detected at this sample size")


def test_chukos_study_reports_the_same_findings_and_table_for_a_fixed_seed(capsys):
    assert main(ARGV) == 0
    study = json.loads(capsys.readouterr().out)
    assert study["findings"] == FINDINGS
    (table,) = study["tables"]
    assert (table["title"], table["columns"], table["rows"]) == (
        "By pack, players and bots", COLUMNS, ROWS)
    assert [p["title"] for p in study["plots"]] == [
        "First player's win rate against the number of players",
        "Game length against the number of players", "First player's win rate by pack"]
    assert [s["label"] for s in study["plots"][2]["series"]] == ["2 players", "3 players"]
