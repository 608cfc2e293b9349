"""Crossroads engine (rulings C1–C3, G3, G4)."""

import json
import random

import pytest

from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.layout import parse_layout
from chuko.games.crossroads import Crossroads, state_from_view

EXAMPLE = "6 10 30 30 / 15 7 30 30 / 1 1 9 30"


def example_state():
    """Seat 0's trail is 6 — 15 and the available cards are 10, 7 and 9 (the rule text)."""
    state = Crossroads(deal=parse_layout(EXAMPLE), first=0).new()
    for seat, move in ((0, "A"), (1, "I"), (0, "ER"), (1, "JL")):
        state.play(seat, move)
    assert state.trails[0] == [6, 15]
    assert [state.layout[m.position] for m in state.legal_moves(0)[::2]] == [10, 7, 9]
    return state


def test_rule_example_10_beside_15_scores_for_the_factor_5():
    state = example_state()
    state.play(0, "BR")
    assert state.trails[0] == [6, 15, 10] and state.points[0][0] == 2  # 6 — 15 scored one


def test_rule_example_10_beside_6_scores_for_the_factor_2():
    state = example_state()
    state.play(0, "BL")
    assert state.trails[0] == [10, 6, 15] and state.points[0][0] == 2


@pytest.mark.parametrize("move", ["FL", "FR"])
def test_rule_example_7_scores_nothing_at_either_end(move):
    state = example_state()
    state.play(0, move)
    assert state.points[0][0] == 1  # only the earlier 6 — 15


def test_c2_first_card_scores_nothing_and_a_one_card_trail_has_it_at_both_ends():
    state = Crossroads(deal=parse_layout("6 2 3 3 / 5 3 3 3 / 5 3 3 3"), first=0).new()
    state.play(0, "A")
    state.play(1, "E")
    assert state.points[0] == [0, 0]
    state.play(0, "BL")
    assert state.points[0][0] == 1  # 2 beside 6, which is both ends


def test_c1_each_player_takes_six_cards_and_the_game_ends():
    state = Crossroads().new(seed=3)
    rng = random.Random(3)
    while state.to_move:
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))
    assert [len(t) for t in state.trails] == [6, 6]
    assert all(0 <= p <= 5 for p in state.points[0])


def test_c1_the_first_player_is_random_unless_given():
    firsts = {Crossroads().new(seed=s).first for s in range(20)}
    assert firsts == {0, 1}
    assert {Crossroads(first=1).new(seed=s).first for s in range(5)} == {1}


def test_c3_two_round_match_replays_the_layout_with_the_other_player_first():
    state = Crossroads(rounds=2, first=1).new(seed=5)
    layout = state.layout
    rng = random.Random(5)
    for _ in range(12):
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
    assert state.round == 1 and state.to_move == (0,) and state.layout == layout
    assert state.trails == ([], []) and state.outcome is None
    while state.to_move:
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
    totals = state.totals()
    assert state.outcome.scores == totals
    assert state.outcome.winners == (() if totals[0] == totals[1] else (totals.index(max(totals)),))


def test_c3_equal_points_is_a_draw():
    # every card is 1, so nobody ever scores
    state = Crossroads(deal=(1,) * 12, first=0).new()
    while state.to_move:
        state.play(state.to_move[0], state.legal_moves(state.to_move[0])[0])
    assert state.outcome.winners == () and state.outcome.scores == (0, 0)


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_round_has_ended_only_between_a_matchs_two_rounds(rounds):
    ended = [state.round_ended for state in positions(Crossroads(rounds=rounds), 3)]
    # The deal, twelve moves a round: the twelfth move of round one ends it, and round two's
    # first move starts the play again.
    assert ended == ([False] * 13 if rounds == 1 else [False] * 12 + [True] + [False] * 12)


@pytest.mark.parametrize("seed", range(4))
def test_the_view_between_rounds_shows_round_ones_trails_result_and_last_move(seed):
    match = positions(Crossroads(rounds=2), seed)[12]
    view = match.view(1)
    assert view["round"] == 2 and view["trails"] == [[], []] and view["points"][1] == [0, 0]
    # Round one played alone as a one-round game ends just as the match's round one did.
    alone = Crossroads(deal=match.layout, first=match.first).new()
    for move in match.moves:
        alone.play(alone.to_move[0], move)
    last = alone.moves[-1]
    assert view["finished_rounds"] == [{
        "round": 1, "first": match.first, "trails": [list(t) for t in alone.trails],
        "points": list(alone.totals()), "winners": list(alone.outcome.winners),
        "last_move": {"seat": 1 - match.first, "move": str(last),
                      "card": alone.layout[last.position], "end": last.end},
    }]


@pytest.mark.parametrize(
    "move, reason",
    [("B", "not available"), ("AL*", "no bridges"), ("C", "not available")],
)
def test_illegal_moves_are_refused_and_change_nothing(move, reason):
    state = Crossroads(first=0).new(seed=1)
    before = state.record()
    with pytest.raises(IllegalMove, match=reason):
        state.play(0, move)
    assert state.record() == before


def test_later_cards_need_an_end_and_the_wrong_seat_is_refused():
    state = Crossroads(first=0).new(seed=1)
    state.play(0, "A")
    with pytest.raises(IllegalMove, match="not your turn"):
        state.play(0, "EL")
    state.play(1, "E")
    with pytest.raises(IllegalMove, match="which end"):
        state.play(0, "B")


def test_a_first_card_typed_with_an_end_is_taken_as_the_letter_alone():
    state = Crossroads(first=0).new(seed=1)
    state.play(0, "AR")
    assert [str(m) for m in state.moves] == ["A"]


@pytest.mark.parametrize(
    "kwargs",
    [{"pack": (2, 3)}, {"deal": (2,) * 11}, {"rounds": 3}, {"first": 2}, {"deal": (0,) * 12}],
)
def test_bad_configurations_are_refused(kwargs):
    with pytest.raises(ConfigError):
        Crossroads(**kwargs)


def test_replay_of_a_record_reproduces_the_game_and_rejects_a_tampered_one():
    state = Crossroads(rounds=2).new(seed=9)
    rng = random.Random(9)
    while state.to_move:
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
    record = state.record()
    assert Crossroads.replay(record).record() == record
    record["moves"][3] = "A"
    with pytest.raises(ParseError, match="Move 4"):
        Crossroads.replay(record)


def positions(game, seed):
    """Every position of one random game of `game`, the deal first."""
    state = game.new(seed=seed)
    rng = random.Random(seed)
    found = [state.copy()]
    while state.to_move:
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
        found.append(state.copy())
    return found


@pytest.mark.parametrize("rounds", [1, 2])
def test_state_from_view_rebuilds_every_position_each_seat_sees(rounds):
    for seed in range(4):
        for state in positions(Crossroads(rounds=rounds), seed):
            for seat in (0, 1, None):
                rebuilt = state_from_view(state.view(seat))
                assert rebuilt.view(seat) == state.view(seat)
                assert [rebuilt.legal_moves(s) for s in (0, 1)] == [
                    state.legal_moves(s) for s in (0, 1)
                ]


def test_state_from_view_mid_second_round_keeps_the_match():
    state = positions(Crossroads(rounds=2, first=1), 7)[17]
    assert state.round == 1
    rebuilt = state_from_view(state.view(0))
    assert (rebuilt.round, rebuilt.totals(), rebuilt.trails) == (
        state.round, state.totals(), state.trails)


@pytest.mark.parametrize(
    "change",
    [{"game": "caravan"}, {"first": None}, {"deal": "1 2 3"}, {"moves": ["A", "C"]},
     {"moves": "A"}],
)
def test_state_from_view_refuses_a_view_it_cannot_replay_in_one_sentence(change):
    view = Crossroads(first=0).new(seed=1).view(0)
    with pytest.raises(ParseError):
        state_from_view({**view, **change})


@pytest.mark.parametrize("rounds", [1, 2])
def test_replay_shows_the_deal_then_every_move_with_its_seat(rounds):
    final = positions(Crossroads(rounds=rounds), 3)[-1]
    seen = []
    Crossroads.replay(final.record(), lambda state, seat, move: seen.append(
        (seat, move, state.view(None))))
    assert seen[0][:2] == (None, None) and seen[0][2]["moves"] == []
    assert [move for _, move, _ in seen[1:]] == final.moves
    assert [view["moves"][-1] for _, _, view in seen[1:]] == [str(m) for m in final.moves]
    starts = [final.first, 1 - final.first][: rounds]
    assert [seat for seat, _, _ in seen[1:]] == [
        (start + n) % 2 for start in starts for n in range(12)]


@pytest.mark.parametrize("seat", [0, 1, None])
def test_frames_are_one_per_move_after_the_deal_ending_on_the_final_view(seat):
    final = positions(Crossroads(rounds=2), 4)[-1]
    frames = Crossroads.frames(final.record(), ["Ann", "Bob"], seat)
    assert len(frames) == len(final.moves) + 1 == 25
    assert frames[-1]["view"] == final.view(seat)
    assert all(isinstance(f["caption"], str) and f["caption"] for f in frames)


def test_packs_are_read_by_name_list_or_range_through_the_options_too():
    plain = tuple(range(2, 14))
    assert Crossroads(pack="plain").pack == Crossroads(pack="2-13").pack == plain
    assert Crossroads(pack=" 2,3 4-13").pack == plain
    assert Crossroads.from_options({"pack": "plain"}).pack == plain
    assert sorted(Crossroads(pack="plain").new(seed=1).layout) == list(plain)


def test_a_deal_is_read_in_rows():
    assert Crossroads(deal=EXAMPLE).deal == parse_layout(EXAMPLE)


@pytest.mark.parametrize(
    "options, error, words",
    [
        ({"pack": "2-5"}, ConfigError, "exactly 12 cards, but the pack has 4"),
        ({"pack": "nope"}, ParseError, "not a card, a range or a pack name"),
        ({"rounds": 3}, ConfigError, "Rounds"),
        ({"first": "2"}, ConfigError, "Who starts"),
        ({"bridges": 2}, ConfigError, "no option 'bridges'"),
    ],
)
def test_bad_options_are_refused_in_one_sentence(options, error, words):
    with pytest.raises(error, match=words) as refused:
        Crossroads.from_options(options)
    message = str(refused.value)
    assert message.endswith(".") and message.count(". ") == 0


@pytest.mark.parametrize("pack", [5, [1, 2, "a"], "2-13,0", "6 10 / 7"])
def test_bad_packs_given_to_the_constructor_are_refused_in_one_sentence(pack):
    with pytest.raises((ConfigError, ParseError)):
        Crossroads(pack=pack)


# --- chance: the layout's shuffle and the first player (C1); nothing after the deal (C3) ------


def test_seeded_games_deal_as_they_always_have():
    state = Crossroads().new(seed=0)  # pinned before chance was made explicit
    assert state.record()["deal"] == "6 21 15 10 / 22 7 8 14 / 9 2 30 11" and state.first == 0


def test_from_order_lays_the_order_out_in_rows_with_the_chosen_first_player():
    game = Crossroads(pack="2-13")
    assert game.deck() == list(range(2, 14)) and game.deal_choices() == (2,)
    state = game.from_order(list(range(13, 1, -1)), [1])
    assert state.record()["deal"] == "13 12 11 10 / 9 8 7 6 / 5 4 3 2" and state.to_move == (1,)
    assert Crossroads(first=0).deal_choices() == () and Crossroads(first=0).from_order(
        Crossroads().deck()).first == 0


@pytest.mark.parametrize("game, order, choices, words", [
    (Crossroads(), list(range(2, 14)), [0], "12 cards of the pack"),
    (Crossroads(), "2 6 7", [0], "list"),
    (Crossroads(), Crossroads().deck(), [2], "0 or 1"),
    (Crossroads(), Crossroads().deck(), [], "0 or 1"),
    (Crossroads(), Crossroads().deck(), 0, "0 or 1"),
    (Crossroads(first=1), Crossroads().deck(), [0], "no choice"),
    (Crossroads(deal=parse_layout(EXAMPLE)), Crossroads().deck(), [0], "fixed deal"),
])
def test_from_order_refuses_what_is_no_shuffle_in_one_sentence(game, order, choices, words):
    with pytest.raises(ConfigError, match=words):
        game.from_order(order, choices)


def test_a_fixed_deal_is_never_shuffled_and_from_deal_keeps_to_it():
    game = Crossroads(deal=parse_layout(EXAMPLE), first=1)
    assert game.deck() == [] and game.from_order([]).layout == parse_layout(EXAMPLE)
    assert game.from_deal(EXAMPLE).record() == game.new(seed=3).record()
    with pytest.raises(ConfigError, match="fixed deal"):
        game.from_deal("6 10 30 30 / 15 7 30 30 / 1 1 30 9")


def test_from_deal_takes_the_first_player_from_the_deal_or_the_game_and_never_draws_it():
    record = Crossroads(rounds=2).new(seed=4).record()
    both = {"deal": record["deal"], "first": record["first"]}
    starts = {json.dumps(Crossroads(rounds=2).from_deal(both, rng=random.Random(s)).record())
              for s in range(8)}
    assert starts == {json.dumps(record)}
    game = Crossroads.replay(record).game  # the record's game fixes its first player
    assert game.from_deal(record["deal"]).record() == record
    assert game.from_deal(parse_layout(record["deal"])).record() == record
    assert game.from_deal(both).record() == record
    with pytest.raises(ConfigError, match='The deal must say who starts: give {"deal"'):
        Crossroads().from_deal(record["deal"], rng=random.Random(1))
    with pytest.raises(ConfigError, match=f"not seat {record['first']}, as the game sets"):
        game.from_deal({**both, "first": 1 - record["first"]})
    for deal in ("1 2 3", [2] * 12, None, "2 6 7 8 / 9 10 11 14 / 15 21 22 31", {"first": 0},
                 {**both, "first": 2}, {**both, "first": True}):
        with pytest.raises(ConfigError):
            Crossroads().from_deal(deal)


def test_a_match_has_no_chance_after_its_deal():
    state = Crossroads(rounds=2).from_order(Crossroads().deck(), [0], explicit_chance=True)
    rng = random.Random(2)
    while state.to_move:
        assert not state.is_chance and state.chance_outcomes() == []
        state.play(state.to_move[0], state.random_move(state.to_move[0], rng))
    assert state.round == 1 and state.layout == tuple(Crossroads().deck())
