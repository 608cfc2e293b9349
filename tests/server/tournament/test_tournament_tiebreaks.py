"""A Swiss event's standings against a table worked by hand: score, Buchholz (a bye as a
game against oneself), Sonneborn–Berger, rating, shared ranks."""

from __future__ import annotations

import pytest

from chuko.server.tournament.tiebreaks import Game, Standing, standings

# Five players, four rounds, one bye a round, no pair twice. The first named's outcome:
#   round 1: A beats B, C beats D, E has the bye
#   round 2: A beats C, B draws E, D has the bye
#   round 3: A draws E, B beats D, C has the bye
#   round 4: D beats A, C draws E, B has the bye
GAMES = [Game("A", "B", "win"), Game("C", "D", "win"),
         Game("A", "C", "win"), Game("B", "E", "draw"),
         Game("A", "E", "draw"), Game("B", "D", "win"),
         Game("A", "D", "loss"), Game("C", "E", "draw")]
BYES = ["E", "D", "C", "B"]
# Scores:   A 1 + 1 + ½ + 0 = 2½     B 0 + ½ + 1 + 1 (bye) = 2½   C 1 + 0 + 1 (bye) + ½ = 2½
#           D 0 + 1 (bye) + 0 + 1 = 2   E 1 (bye) + ½ + ½ + ½ = 2½   (all: 12 = 8 games + 4 byes)
# Buchholz: A  B 2½ + C 2½ + E 2½ + D 2 = 9½
#           B  A 2½ + E 2½ + D 2 + own 2½ (bye) = 9½
#           C  D 2 + A 2½ + own 2½ (bye) + E 2½ = 9½
#           D  C 2½ + own 2 (bye) + B 2½ + A 2½ = 9½
#           E  own 2½ (bye) + B 2½ + A 2½ + C 2½ = 10
# Sonneborn–Berger: A  beat B 2½ + beat C 2½ + drew E ½ × 2½ = 6¼
#                   B  drew E 1¼ + beat D 2 = 3¼
#                   C  beat D 2 + drew E 1¼ = 3¼
#                   D  beat A 2½ = 2½
#                   E  drew B 1¼ + drew A 1¼ + drew C 1¼ = 3¾
# So: E first on Buchholz over A, B, C (all 2½); A second on Sonneborn–Berger over B and C;
# B and C equal in all three, their ratings decide; D last on score.


def test_the_standings_match_the_table_worked_by_hand():
    ratings = {"A": 1500.0, "B": 1500.0, "C": 1600.0, "D": 1700.0, "E": 1400.0}
    assert standings(GAMES, BYES, set(), ratings) == [
        Standing(1, "E", 2.5, 10.0, 3.75, 1400.0, False),
        Standing(2, "A", 2.5, 9.5, 6.25, 1500.0, False),
        Standing(3, "C", 2.5, 9.5, 3.25, 1600.0, False),
        Standing(4, "B", 2.5, 9.5, 3.25, 1500.0, False),
        Standing(5, "D", 2.0, 9.5, 2.5, 1700.0, False),
    ]


def test_players_equal_in_score_tie_breaks_and_rating_share_a_rank():
    ratings = {"A": 1500.0, "B": 1550.0, "C": 1550.0, "D": 1700.0, "E": 1400.0}
    table = standings(GAMES, BYES, set(), ratings)
    assert [(line.rank, line.id) for line in table] == [(1, "E"), (2, "A"), (3, "B"), (3, "C"),
                                                       (5, "D")]


def test_a_withdrawn_player_keeps_their_games_and_place_marked():
    ratings = dict.fromkeys("ABCDE", 1500.0)
    table = standings(GAMES, BYES, {"D"}, ratings)
    assert [(line.id, line.withdrawn) for line in table][-1] == ("D", True)
    assert not any(line.withdrawn for line in table[:-1])


def test_a_late_joiner_with_no_games_yet_stands_last_with_nothing():
    ratings = {"A": 1500.0, "B": 1500.0, "Z": 2000.0}
    table = standings([Game("A", "B", "win")], [], set(), ratings)
    assert table[-1] == Standing(3, "Z", 0.0, 0.0, 0.0, 2000.0, False)


@pytest.mark.parametrize(("games", "byes", "ratings", "sentence"), [
    ([Game("A", "X", "win")], [], {"A": 1500.0}, "X played a game but is not in the event"),
    ([], ["X"], {"A": 1500.0}, "X had a bye but is not in the event"),
    ([Game("A", "A", "win")], [], {"A": 1500.0}, "cannot play themselves"),
    ([], [], {"A": float("nan")}, "rating must be a number"),
])
def test_a_stranger_s_game_or_bye_or_a_bad_rating_gets_a_sentence(games, byes, ratings,
                                                                  sentence):
    with pytest.raises(ValueError, match=sentence):
        standings(games, byes, set(), ratings)
