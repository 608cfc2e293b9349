"""Chükö's encoding: actions both ways, masks from the engine's legal
moves, observations from the view alone, and the tracker equal to them at every step."""

import json
import random

import numpy as np
import pytest

from chuko.core.errors import IllegalMove, ParseError
from chuko.envs.common import load_encoding
from chuko.games.chuko import Game, Move
from chuko.games.encodings.chuko import encoding

# The named packs, and two with repeated values (one action per value).
PACKS = ["standard", "plain", "primes", "composite", "large", "1,1,2,3,4,6,9,9,15,35,49",
         "2,2,2,3,3,6,6,9"]


def random_states(game, games, seed, explicit=False):
    """Every position of `games` random games (chance drawn at random too)."""
    rng = random.Random(seed)
    for index in range(games):
        state = game.new(seed * 1000 + index)
        if explicit:
            state = game.from_deal({**state.record()["deal"], "first": state.first},
                                   explicit_chance=True)
        yield state
        while state.outcome is None:
            if state.is_chance:
                state.apply_chance(rng.choice(state.chance_outcomes())[0])
            else:
                seat = state.to_move[0]
                state.play(seat, state.random_move(seat, rng))
            yield state


def test_the_descriptor_names_the_encoding_and_actions_number_the_distinct_values_then_reset():
    game = Game(players=3, pack="2,2,3,6,6,9,10")
    enc = load_encoding(game)
    assert enc.num_actions == 6 and enc.values == (2, 3, 6, 9, 10)
    assert [enc.move(a) for a in range(6)] == [Move(2), Move(3), Move(6), Move(9), Move(10),
                                               Move(None)]
    for action in range(6):
        assert enc.action(enc.move(action)) == action
        assert enc.action(str(enc.move(action))) == action
        assert enc.step_move(None, action) == (None, enc.move(action))
    assert enc.observation_shape == (4 * 5 + 4 * 3 + 2,)
    assert (enc.min_utility, enc.max_utility) == (0.0, 1.0)
    assert enc.observation_bounds == (0.0, 1.0)  # counts over their greatest (a turn limit)
    assert Game(players=3, turn_limit=None).turn_limit is None
    assert encoding(Game(players=3, turn_limit=None)).observation_bounds[1] == float("inf")
    for bad in (-1, 6, 2.0, True, "2"):
        with pytest.raises(ParseError):
            enc.move(bad)
    for bad in (Move(4), 3, "x"):
        with pytest.raises(ParseError):
            enc.action(bad)


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize("pack", PACKS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_masks_are_the_legal_moves_and_the_tracker_equals_the_views_observation(players, pack):
    game = Game(players=players, pack=pack, turn_limit=150)
    enc = encoding(game)
    tracker = None
    for state in random_states(game, games=12, seed=players):
        if tracker is None:
            tracker = enc.tracker(state)
        elif tracker.state is not state:  # the next game: the same arrays, cleared
            tracker.track(state)
        for seat in range(players):
            view = state.view(seat)
            observation = enc.observation(view)
            assert np.array_equal(tracker.observe(seat), observation)
            assert observation.min() >= 0.0 and observation.max() <= 1.0  # normalised
            mask = enc.legal_mask(state, seat)
            assert [enc.move(a) for a in np.flatnonzero(mask)] == state.legal_moves(seat)
            if seat in state.to_move:
                assert np.array_equal(tracker.mask(), mask)
        if not state.to_move:
            assert not tracker.mask().any()


@pytest.mark.parametrize("explicit", [False, True])
def test_a_tracker_started_at_any_position_agrees_with_the_view(explicit):
    game = Game(players=3, pack="2,2,2,3,3,6,6,9,10,12", turn_limit=100)
    enc = encoding(game)
    rng = random.Random(6)
    for state in random_states(game, games=10, seed=6, explicit=explicit):
        tracker = enc.tracker(state)
        later = state.copy()  # and a few moves on, chance included
        for _ in range(rng.randrange(4)):
            if later.outcome is None:
                if later.is_chance:
                    later.apply_chance(rng.choice(later.chance_outcomes())[0])
                else:
                    later.play(later.to_move[0], later.random_move(later.to_move[0], rng))
        for seat in range(3):
            assert np.array_equal(tracker.observe(seat), enc.observation(state.view(seat)))
        if state.to_move:
            assert np.array_equal(tracker.mask(), enc.legal_mask(state, state.to_move[0]))
            assert tracker.legal_actions() == [
                enc.action(m) for m in state.legal_moves(state.to_move[0])]
        tracker.track(later)
        for seat in range(3):
            assert np.array_equal(tracker.observe(seat), enc.observation(later.view(seat)))


def test_the_tracker_follows_explicit_chance_and_moves_made_through_it():
    game = Game(players=3, pack="2-12", turn_limit=200)
    enc = encoding(game)
    rng = random.Random(4)
    nodes = 0
    for state in random_states(game, games=20, seed=4, explicit=True):
        tracker = enc.tracker(state)
        while state.outcome is None:
            if state.is_chance:
                nodes += 1
                assert not tracker.mask().any()
                state.apply_chance(rng.choice(state.chance_outcomes())[0])
            else:
                legal = np.flatnonzero(tracker.mask())
                tracker.play(int(rng.choice(legal)))
            for seat in range(3):
                assert np.array_equal(tracker.observe(seat), enc.observation(state.view(seat)))
        assert not tracker.mask().any()
    assert nodes > 20


def test_the_tracker_refuses_an_illegal_action_and_changes_nothing():
    state = Game(players=2).from_deal({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]],
                                       "top": 22, "draw": [30], "first": 0})
    enc = encoding(state.game)
    tracker = enc.tracker(state)
    before = json.dumps(state.view(0))
    for bad in (enc.index[7] + 1 + 100, -1, enc.index[10]):  # out of range, not in hand
        with pytest.raises(IllegalMove):
            tracker.play(bad)
    assert json.dumps(state.view(0)) == before


def test_a_view_is_all_an_observation_uses():  # ruling K6: nothing hidden leaks in
    game = Game(players=3, pack="2-12", turn_limit=100)
    enc = encoding(game)
    for state in random_states(game, games=5, seed=9):
        for seat in range(3):
            view = json.loads(json.dumps(state.view(seat)))
            assert np.array_equal(enc.observation(view), enc.observation(state.view(seat)))
            assert enc.information_state(view) == enc.information_state(state.view(seat))


def test_the_turn_limit_truncates_and_an_emptied_hand_terminates():
    enc = encoding(Game(players=2, turn_limit=3))
    state = Game(players=2, turn_limit=3).new(1)
    assert not enc.truncated(state)
    stopped = won = 0
    for state in random_states(Game(players=2, pack="2-30", turn_limit=12), games=40, seed=1):
        if state.outcome is not None:
            assert enc.truncated(state) == (state.winner is None)
            assert state.outcome.truncated == (state.winner is None)
            assert state.outcome.to_json()["truncated"] == (state.winner is None)
            stopped += state.winner is None
            won += state.winner is not None
    assert stopped and won


def test_information_states_ignore_hidden_cards_and_tell_apart_the_seats_own():
    game = Game(players=3, pack="2-12", turn_limit=100)
    enc = encoding(game)
    seen = set()
    for state in random_states(game, games=5, seed=2):
        for seat in range(3):
            blind = state.copy()  # every card the seat may not know, replaced
            blind._hands = [h if s == seat else [99] * len(h) for s, h in enumerate(blind._hands)]
            blind._draw = [99] * len(blind._draw)
            if state.outcome is None:
                text = enc.information_state(state.view(seat))
                assert enc.information_state(blind.view(seat)) == text
                seen.add((text, tuple(state.hand(seat))))
    texts = [text for text, _ in seen]
    assert len(set(texts)) == len(texts)  # a different own hand is a different string
