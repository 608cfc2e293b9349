"""A puzzle's first rating is calibrated from the solver: the shipped ratings are what the
calibration gives for their positions, they spread over the scale instead of piling on a
few values, and the model rates harder what is harder (more losing moves, smaller losses,
lures that score at once, more cards left)."""

from __future__ import annotations

from collections import Counter
from random import Random

from chuko.bots.crossroads import solver_for
from chuko.practice.puzzle_difficulty import calibrated_rating
from chuko.practice.puzzles import catalogue, first_rating


def test_shipped_ratings_are_the_calibration_of_their_positions():
    puzzles = list(catalogue().values())
    for puzzle in Random(5).sample(puzzles, 25):
        state = puzzle.state()
        values = solver_for(state).move_values(state)
        best = next(move for move in values if str(move) == puzzle.answer)
        assert puzzle.rating == first_rating(state, values, best), puzzle.id


def test_shipped_ratings_spread_with_no_value_holding_a_tenth():
    ratings = [puzzle.rating for puzzle in catalogue().values()]
    assert max(ratings) - min(ratings) > 800
    assert Counter(ratings).most_common(1)[0][1] < len(ratings) / 10
    assert len(set(ratings)) > 200


def test_harder_positions_rate_higher():
    two = {"best": 0, "other": -2}
    assert calibrated_rating({"best": 0, "a": -2, "b": -2}, dict.fromkeys(["best", "a", "b"], 0),
                             "best", 6) > calibrated_rating(two, {"best": 0, "other": 0},
                                                            "best", 6)
    assert calibrated_rating({"best": 0, "other": -1}, {"best": 0, "other": 0}, "best", 6) \
        > calibrated_rating(two, {"best": 0, "other": 0}, "best", 6)
    assert calibrated_rating(two, {"best": 0, "other": 2}, "best", 6) \
        > calibrated_rating(two, {"best": 0, "other": 0}, "best", 6)
    assert calibrated_rating(two, {"best": 0, "other": 0}, "best", 10) \
        > calibrated_rating(two, {"best": 0, "other": 0}, "best", 2)
