"""How a tournament scores a game: outcomes from places, an arena's points and streak, Swiss
points and placement points at a table."""

from __future__ import annotations

import pytest

from chuko.server.tournament.scoring import (
    ArenaScore,
    arena_points,
    outcomes,
    placement_points,
    swiss_points,
)


def test_the_better_place_wins_a_heads_up_game_and_equal_places_draw():
    assert outcomes([1, 2]) == ["win", "loss"]
    assert outcomes([2, 1]) == ["loss", "win"]
    assert outcomes([1, 1]) == ["draw", "draw"]


def test_outcomes_are_for_heads_up_games_only():
    with pytest.raises(ValueError, match="two places"):
        outcomes([1, 2, 3])


def test_an_arena_scores_two_a_win_one_a_draw_and_nothing_a_loss():
    assert arena_points(["win", "draw", "loss"]) == ArenaScore(3, (2, 1, 0), False)


def test_two_wins_in_a_row_set_a_player_on_fire_and_the_next_win_scores_four():
    assert arena_points(["win", "win"]) == ArenaScore(4, (2, 2), True)
    assert arena_points(["win", "win", "win", "win"]) == ArenaScore(12, (2, 2, 4, 4), True)


def test_a_draw_on_fire_scores_two_and_ends_the_streak():
    assert arena_points(["win", "win", "draw", "win"]) == ArenaScore(8, (2, 2, 2, 2), False)


def test_a_loss_ends_the_streak_and_two_more_wins_are_needed_again():
    history = ["win", "win", "loss", "win", "win", "win"]
    assert arena_points(history) == ArenaScore(12, (2, 2, 0, 2, 2, 4), True)


def test_wins_apart_never_set_a_player_on_fire():
    assert arena_points(["win", "draw", "win", "loss", "win"]) == ArenaScore(7, (2, 1, 2, 0, 2),
                                                                             False)
    assert arena_points([]) == ArenaScore(0, (), False)


def test_swiss_points_are_one_a_win_a_half_a_draw_and_one_a_bye():
    assert swiss_points(["win", "draw", "loss", "draw"], byes=1) == 3.0
    assert swiss_points([]) == 0.0


def test_placement_points_count_the_players_beaten_and_half_those_tied():
    assert placement_points([1, 2, 3, 4]) == [3.0, 2.0, 1.0, 0.0]
    assert placement_points([1, 2, 2, 4]) == [3.0, 1.5, 1.5, 0.0]
    assert placement_points([2, 1, 2]) == [0.5, 2.0, 0.5]
    assert placement_points([1, 1, 1]) == [1.0, 1.0, 1.0]


def test_a_table_always_shares_out_the_same_points_and_heads_up_is_the_swiss_score():
    for places in ([1, 2, 3], [3, 1, 1, 2], [4, 4, 4, 1]):
        n = len(places)
        assert sum(placement_points(places)) == n * (n - 1) / 2
    assert placement_points([1, 2]) == [1.0, 0.0]
    assert placement_points([1, 1]) == [0.5, 0.5]
