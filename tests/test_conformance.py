"""The conformance suite of DESIGN.md: every game in the registry keeps the protocol.

Random playouts check that cards are conserved, views are JSON and stable, replaying
the record reproduces the state, a refused move changes nothing, copies are
independent, and every game ends.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chuko.core.errors import ChukoError, IllegalMove
from chuko.core.protocol import Game, State
from chuko.games import GAMES, game_module

MAX_STEPS = 5_000


def configurations(game_id):
    """A few configurations of each game, bot-only where a game could go on forever."""
    module = game_module(game_id)
    options = {
        "chuko": [{"players": 2}, {"players": 4}, {"players": 3, "pack": (1, 2, 3, 4, 4, 6, 9)}],
        "crossroads": [{}, {"rounds": 2}, {"pack": (1, 1, 2, 2, 3, 4, 6, 6, 9, 10, 25, 1)}],
        "caravan": [{}, {"bridges": 0}, {"bridges": 11, "pack": tuple(range(2, 14))}],
        "chuchula": [{"players": 2, "mode": "rounds", "length": 2}, {"players": 4}],
    }[game_id]
    return [module.Game(**o) for o in options]


CASES = [(gid, i) for gid in GAMES for i in range(len(configurations(gid)))]


def wrong_move(state: State, rng: random.Random):
    """A move that must be refused now: another seat's legal move, or one not legal at all."""
    waiting = [s for s in range(state.game.players) if s not in state.to_move]
    if waiting:
        seat = state.to_move[0]
        return waiting[0], state.random_move(seat, rng)
    return None


def playout(state: State, rng: random.Random, check_every: int):
    steps = 0
    cards = Counter(map(str, state.cards()))
    while state.to_move:
        assert state.outcome is None
        for seat in (*range(state.game.players), None):
            json.dumps(state.view(seat))
        if steps % check_every == 0:
            before = state.record()
            refused = wrong_move(state, rng)
            if refused:
                with pytest.raises(IllegalMove):
                    state.play(*refused)
            with pytest.raises(ChukoError):
                state.play(state.to_move[0], "not a move at all")
            assert state.record() == before
            clone = state.copy()
            seat = clone.to_move[0]
            clone.play(seat, clone.random_move(seat, rng))
            assert state.record() == before
            assert type(state.game).replay(json.loads(json.dumps(before))).record() == before
        seat = rng.choice(state.to_move)
        state.play(seat, state.random_move(seat, rng))
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        if state.game.id != "chuchula":  # Chuchula deals a fresh deck each round
            assert Counter(map(str, state.cards())) == cards, "cards appeared or vanished"
    return steps


@pytest.mark.parametrize("game_id, index", CASES)
def test_random_games_keep_the_protocol(game_id, index):
    game = configurations(game_id)[index]
    assert isinstance(game, Game) and game.id == game_id
    rng = random.Random(index)
    for seed in range(3):
        state = game.new(seed=seed)
        playout(state, rng, check_every=7)
        outcome = state.outcome
        assert outcome is not None and len(outcome.scores) == game.players
        assert state.to_move == () and state.legal_moves(0) == []
        record = json.loads(json.dumps(state.record()))
        assert record["game"] == game_id
        assert type(game).replay(record).record() == state.record()


@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_deals_are_reproducible_and_differ_by_seed(game_id):
    game = configurations(game_id)[0]
    assert game.new(seed=1).view(None) == game.new(seed=1).view(None)
    assert len({json.dumps(game.new(seed=s).view(None)) for s in range(6)}) > 1


@pytest.mark.parametrize("game_id", GAMES)
def test_moves_have_canonical_text_that_parses_back(game_id):
    game = configurations(game_id)[0]
    state = game.new(seed=4)
    rng = random.Random(4)
    for _ in range(5):
        if not state.to_move:
            break
        seat = state.to_move[0]
        move = state.random_move(seat, rng)
        assert game.parse_move(str(move)) == move
        assert str(game.parse_move(str(move))) == str(move)
        state.play(seat, str(move))


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_is_a_move_or_a_sentence_never_a_crash(game_id, text):
    state = configurations(game_id)[0].new(seed=1)
    before = state.record()
    try:
        state.play(state.to_move[0], text)
    except ChukoError as error:
        assert str(error).strip() and state.record() == before
