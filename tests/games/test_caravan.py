"""Caravan engine (rulings V1–V4)."""

import random

import pytest

from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.layout import parse_layout
from chuko.core.numbers import matches
from chuko.games.caravan import Caravan, state_from_view

EXAMPLE = "11 2 3 4 / 6 15 10 7 / 9 14 8 12"


def test_rule_example_11_bridge_6_then_15_then_10():
    """11 — [6 face down] — 15 — 10: four cards played, one bridge used."""
    state = Caravan(deal=parse_layout(EXAMPLE)).new()
    for move in ("A", "ER*", "FR", "GR"):
        state.play(0, move)
    assert state.caravan == [(11, True), (6, False), (15, True), (10, True)]
    assert state.bridges_used == 1
    moves = state.legal_moves(0)
    assert any(m.bridge for m in moves)  # one more bridge is allowed
    for move in moves:
        if not move.bridge:
            end = 11 if move.end == "L" else 10
            assert matches(state.layout[move.position], end)


def test_v2_beside_a_bridge_any_card_goes_face_up():
    state = Caravan(deal=parse_layout(EXAMPLE)).new()
    state.play(0, "A")
    state.play(0, "ER*")
    with pytest.raises(IllegalMove, match="shares no prime factor"):
        state.play(0, "BL")  # 2 does not match 11 at the left
    state.play(0, "FR")  # 15 beyond the bridge, although 15 does not match 11


def test_v3_two_bridges_may_not_touch_and_the_limit_holds():
    state = Caravan(deal=parse_layout(EXAMPLE), bridges=1).new()
    state.play(0, "A")
    state.play(0, "ER*")
    with pytest.raises(IllegalMove, match="already a bridge"):
        state.play(0, "FR*")
    with pytest.raises(IllegalMove, match="^The one bridge of this game is used[.]$"):
        state.play(0, "FL*")


@pytest.mark.parametrize("limit, moves, refusal", [
    (0, "E", "This game allows no bridges."),
    (2, "A ER* FR GR BR* CR", "All 2 bridges of this game are used."),
])
def test_a_bridge_beyond_the_limit_is_refused_in_words_that_fit_the_limit(limit, moves, refusal):
    state = Caravan(deal=parse_layout(EXAMPLE), bridges=limit).new()
    for move in moves.split():
        state.play(0, move)
    with pytest.raises(IllegalMove) as error:
        state.play(0, "IL*")
    assert str(error.value) == refusal


def test_v1_the_first_card_is_face_up():
    state = Caravan(deal=parse_layout(EXAMPLE)).new()
    with pytest.raises(IllegalMove) as error:
        state.play(0, "AL*")
    assert str(error.value) == "The first card goes face up: write the letter alone."


def test_v4_a_bridge_left_at_an_end_loses():
    state = Caravan(deal=(2,) * 12, bridges=11).new()
    for _ in range(11):
        state.play(0, state.legal_moves(0)[0])
    state.play(0, "LR*")
    assert state.outcome.winners == () and "unfinished" in state.outcome.reason


def test_v4_a_stuck_caravan_loses_and_a_full_one_wins():
    stuck = Caravan(deal=parse_layout("2 3 3 3 / 5 5 5 5 / 7 7 7 7"), bridges=0).new()
    stuck.play(0, "A")
    assert stuck.outcome is not None and "No legal move" in stuck.outcome.reason
    assert stuck.to_move == ()
    won = Caravan(deal=(2,) * 12).new()
    while won.to_move:
        won.play(0, won.legal_moves(0)[0])
    assert won.outcome.winners == (0,)


def test_v3_bridge_limits_by_name_and_number():
    bridges = Caravan.descriptor.option("bridges")
    assert [bridges.value(t) for t in ("easy", "Standard", "hard", "0", "11")] == [3, 2, 1, 0, 11]
    assert Caravan.from_options({"bridges": "hard"}).bridges == 1
    for bad in ("12", "-1", "many"):
        with pytest.raises(ConfigError, match="Bridges must be a whole number"):
            bridges.value(bad)
    with pytest.raises(ConfigError):
        Caravan(bridges=12)


def test_refused_moves_change_nothing():
    state = Caravan().new(seed=2)
    state.play(0, state.legal_moves(0)[0])
    before = state.record()
    for move in ("ZZ", "B", "D"):
        with pytest.raises((IllegalMove, ParseError)):
            state.play(0, move)
    assert state.record() == before


def test_replay_reproduces_random_games():
    rng = random.Random(4)
    for seed in range(20):
        state = Caravan(bridges=seed % 4).new(seed=seed)
        while state.to_move:
            state.play(0, state.random_move(0, rng))
        assert Caravan.replay(state.record()).record() == state.record()


def test_state_from_view_rebuilds_every_position():
    for seed in range(8):
        state = Caravan(bridges=seed % 4).new(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in (0, None):
                rebuilt = state_from_view(state.view(seat))
                assert rebuilt.view(seat) == state.view(seat)
                assert rebuilt.legal_moves(0) == state.legal_moves(0)
            if not state.to_move:
                break
            state.play(0, state.random_move(0, rng))


@pytest.mark.parametrize(
    "change", [{"game": "crossroads"}, {"deal": None}, {"moves": ["A", "A"]}, {"bridges": 12}]
)
def test_state_from_view_refuses_a_view_it_cannot_replay(change):
    view = Caravan().new(seed=1).view(0)
    with pytest.raises((ParseError, ConfigError)):
        state_from_view({**view, **change})


def test_frames_are_one_per_move_after_the_deal_ending_on_the_final_view():
    state = Caravan(bridges=3).new(seed=5)
    rng = random.Random(5)
    while state.to_move:
        state.play(0, state.random_move(0, rng))
    seen = []
    Caravan.replay(state.record(), lambda after, seat, move: seen.append((seat, move)))
    assert seen == [(None, None)] + [(0, move) for move in state.moves]
    for seat in (0, None):
        frames = Caravan.frames(state.record(), ["Ann"], seat)
        assert len(frames) == len(state.moves) + 1
        assert frames[-1]["view"] == state.view(seat)


def test_packs_are_read_by_name_list_or_range_through_the_options_too():
    plain = tuple(range(2, 14))
    assert Caravan(pack="2-13").pack == Caravan(pack="plain").pack == plain
    assert Caravan.from_options({"pack": "plain", "bridges": 3}) == Caravan(pack=plain, bridges=3)


@pytest.mark.parametrize(
    "options, error",
    [({"pack": "2-12"}, ConfigError), ({"pack": "two"}, ParseError),
     ({"bridges": 12}, ConfigError), ({"bridges": "many"}, ConfigError),
     ({"rounds": 2}, ConfigError)],
)
def test_bad_options_are_refused_in_one_sentence(options, error):
    with pytest.raises(error) as refused:
        Caravan.from_options(options)
    assert str(refused.value).endswith(".") and ". " not in str(refused.value)


def test_seeded_games_deal_as_they_always_have():
    # Pinned before chance was made explicit.
    assert Caravan().new(seed=0).record()["deal"] == "6 21 15 10 / 22 7 8 14 / 9 2 30 11"


def test_a_deal_is_a_shuffle_of_the_pack_and_nothing_else():
    game = Caravan(pack="2-13", bridges=1)
    assert game.deck() == list(range(2, 14)) and game.deal_choices() == ()
    state = game.from_order(list(range(13, 1, -1)))
    assert state.record()["deal"] == "13 12 11 10 / 9 8 7 6 / 5 4 3 2"
    assert game.from_deal(state.record()["deal"]).record() == state.record()
    for order, choices in ((list(range(2, 14)), [0]), (list(range(1, 13)), ()), ([2] * 12, ())):
        with pytest.raises(ConfigError):
            game.from_order(order, choices)
    for deal in ("11 2 3 4 / 6 15 10 7 / 9 14 8 12", {"deal": EXAMPLE}, [True] * 12):
        with pytest.raises(ConfigError):
            game.from_deal(deal)
