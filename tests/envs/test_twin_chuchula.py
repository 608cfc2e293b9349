"""Chuchula's compiled twin against the engine: both dealt the same games (`from_order`),
given the same chance outcomes, stepped with the same random legal actions; at every step
the same seat to move, legal mask (the encoding's), observations for every seat (the
encoding's, from each seat's view), rewards (`common.returns`) and endings."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from chuko.core.deck52 import DECK  # noqa: E402
from chuko.core.errors import ConfigError, IllegalMove  # noqa: E402
from chuko.envs.common import returns  # noqa: E402
from chuko.envs.twins.chuchula import twin  # noqa: E402
from chuko.games.chuchula import Game  # noqa: E402
from chuko.games.encodings.chuchula import encoding  # noqa: E402


class Side:
    """The engine's side: a game dealt with explicit chance, and each seat's partial move.
    A seat's view changes only when a grouping is committed or chance is drawn, so views
    (and observations without a partial move) are kept until then."""

    def __init__(self, game: Game, order: list[int], dealer: int) -> None:
        self.game, self.encoding = game, encoding(game)
        self.state = game.from_order([DECK[i] for i in order], (dealer,), explicit_chance=True)
        self.partial: list = [None] * game.players
        self.views: dict[int, dict] = {}
        self.seen: dict[int, np.ndarray] = {}

    def view(self, seat: int) -> dict:
        if seat not in self.views:
            self.views[seat] = self.state.view(seat)
        return self.views[seat]

    def changed(self) -> None:
        self.views.clear()
        self.seen.clear()

    def mask(self, seat: int) -> np.ndarray:
        return self.encoding.legal_mask(self.state, seat, self.partial[seat])

    def observation(self, seat: int) -> np.ndarray:
        if self.partial[seat] is not None:
            return self.encoding.observation(self.view(seat), self.partial[seat])
        if seat not in self.seen:
            self.seen[seat] = self.encoding.observation(self.view(seat))
        return self.seen[seat]

    def step(self, seat: int, action: int) -> None:
        folded, move = self.encoding.step_move(self.partial[seat], action)
        self.partial[seat] = folded
        if move is not None:
            self.state.play(seat, move)
            self.changed()



def chance(side: Side, rng: random.Random) -> list[int] | None:
    """Give the engine its chance outcomes; the next round's order when it dealt one."""
    state, dealt = side.state, None
    while state.is_chance:
        if state._dealing is not None:
            dealt = list(range(len(DECK)))
            rng.shuffle(dealt)
            for index in dealt[: min(side.game.players * 13, len(DECK) - 1)]:
                state.apply_chance(str(DECK[index]))
        else:
            state.apply_chance(rng.choice([o for o, _ in state.chance_outcomes()]))
    side.changed()
    return dealt


def compare(game: Game, games: int, seed: int) -> int:
    """Play `games` games on both sides; the number of actions compared."""
    rng = random.Random(seed)
    copy = twin(game)
    batch, players = copy.batch(1), game.players
    mask = np.zeros((1, copy.num_actions), np.int8)
    seen = np.zeros((1, *copy.observation_shape), np.float32)
    rewards = np.zeros((1, players), np.float32)
    ended, truncated = np.zeros(1, np.int8), np.zeros(1, np.int8)
    actions = 0
    for _ in range(games):
        order = list(range(len(DECK)))
        rng.shuffle(order)
        dealer = rng.randrange(players)
        side = Side(game, order, dealer)
        copy.deal(batch, np.array([0]), np.array([order]), np.array([[dealer]]))
        while True:
            agree(side, copy, batch, seen, mask)
            if side.state.outcome is not None:
                break
            seat = side.state.to_move[0]
            action = rng.choice(np.flatnonzero(mask[0]).tolist())
            side.step(seat, action)
            copy.step(batch, np.array([action]), rewards, ended, truncated)
            actions += 1
            dealt = chance(side, rng)
            if dealt is not None:
                copy.deal_round(batch, 0, np.array(dealt))
            over = side.state.outcome is not None
            assert bool(ended[0]) == over and not truncated[0]
            final = returns(side.state.outcome.scores) if over else [0.0] * players
            assert rewards[0].tolist() == pytest.approx(final)
    return actions


def agree(side: Side, copy, batch, seen: np.ndarray, mask: np.ndarray) -> None:
    state = side.state
    moving = state.to_move[0] if state.to_move else -1
    assert copy.to_move(batch)[0] == moving
    copy.masks(batch, mask)
    if moving >= 0:
        expected = side.mask(moving)
        assert np.array_equal(mask[0], expected), (side.partial[moving], side.view(moving)["hand"])
    else:
        assert not mask.any()
    for seat in range(side.game.players):
        copy.observe(batch, np.array([seat]), seen)
        expected = side.observation(seat)
        assert np.array_equal(seen[0], expected), (seat, np.flatnonzero(seen[0] != expected))


CONFIGURATIONS = [(2, "rounds", 2), (3, "points", 3), (4, "rounds", 1), (2, "points", 2)]


@pytest.mark.parametrize(("players", "mode", "length"), CONFIGURATIONS)
def test_the_twin_plays_a_sample_of_games_as_the_engine_does(players, mode, length):
    assert compare(Game(players, mode, length), games=12, seed=players) > 0


def test_the_twin_cancels_a_tied_position_as_the_engine_does():
    """A seeded game in which two groups meet at equal strength (H5: the point is
    cancelled), rare in random play."""
    assert compare(Game(2, "rounds", 5), games=1, seed=2) > 0


# The long run: a million actions in all, over 2, 3 and 4 players, round and point games.
LONG_RUN = [(2, "rounds", 5), (3, "rounds", 3), (4, "rounds", 5), (2, "points", 6),
            (3, "points", 4), (4, "points", 2)]
LONG_ACTIONS = 1_000_000 // len(LONG_RUN) + 1


@pytest.mark.slow
@pytest.mark.parametrize(("players", "mode", "length"), LONG_RUN)
def test_the_twin_plays_a_million_random_actions_as_the_engine_does(players, mode, length,
                                                                    differential_actions):
    """A seeded tenth of the million unless the run is --full (tests/conftest.py)."""
    game, played, seed = Game(players, mode, length), 0, 1000 * players + length
    actions = differential_actions(LONG_ACTIONS)
    while played < actions:
        played += compare(game, games=10, seed=seed)
        seed += 1


def test_a_point_game_counts_its_rounds_at_most_to_its_length():
    """Every value of an observation lies in the encoding's bounds, even in a point game
    that runs past `length` rounds (a round may score nothing)."""
    game = Game(2, "points", 1)
    state = game.new(seed=3)
    rng = random.Random(3)
    while state.outcome is None:
        for seat in state.to_move:
            state.play(seat, state.random_move(seat, rng))
    view = state.view(0)
    view["rounds"] = view["rounds"] * 5
    seen = encoding(game).observation(view)
    low, high = encoding(game).observation_bounds
    assert seen[302] == 1.0 and low <= seen.min() and seen.max() <= high


def test_a_game_played_alone_is_rebuilt_on_the_engine_from_what_the_twin_dealt_and_drew():
    """`deal_one` and `play_one` (one compiled call a step) play the game that `dealt` and
    `drawn` describe: the engine, dealt and given those chance outcomes, sees the same
    observations, masks and returns."""
    game = Game(3, "rounds", 2)
    copy, code = twin(game), encoding(game)
    batch = copy.batch(1)
    deal, play = copy.deal_one(batch), copy.play_one(batch)
    observation = np.zeros(copy.observation_shape, np.float32)
    moving = deal(7, observation)
    order, choices = copy.dealt(batch, 0)
    state = game.from_order([DECK[i] for i in order], choices, explicit_chance=True)
    rng, partial = random.Random(7), None
    assert play(-1, observation) == -2  # refused: nothing changes
    while moving >= 0:
        pattern, seat = divmod(moving, game.players)
        assert seat == state.to_move[0] and pattern - 1 == copy.pattern(batch)
        mask = code.legal_mask(state, seat, partial)
        assert np.array_equal(observation, code.observation(state.view(seat), partial))
        assert [a for a in range(52) if pattern - 1 >> a & 1] == np.flatnonzero(mask).tolist()
        assert copy.partial(batch, 0) == partial
        action = rng.choice(np.flatnonzero(mask).tolist())
        moving = play(action, observation)
        partial, move = code.step_move(partial, action)
        if move is not None:
            state.play(seat, move)
        for outcome in copy.drawn(batch, 0):
            state.apply_chance(outcome)
    rewards = np.zeros(game.players)
    copy.rewards(batch, 0, rewards)
    assert rewards.tolist() == pytest.approx(returns(state.outcome.scores))
    assert state.ranking and not copy.truncated(batch, 0)


def test_random_steps_play_every_row_and_leave_each_seat_to_moves_observation():
    game = Game(4, "points", 3)
    copy = twin(game)
    batch = copy.batch(5)
    observations = np.zeros((5, *copy.observation_shape), np.float32)
    assert copy.random_steps(batch, 40, seed=1, observations=observations) == 200
    seen = np.zeros_like(observations)
    copy.observe(batch, copy.to_move(batch), seen)
    assert np.array_equal(seen, observations) and (copy.to_move(batch) >= 0).all()


def test_random_steps_observations_updated_step_by_step_match_whole_ones_at_every_length():
    copy = twin(Game(3, "rounds", 2))
    batch = copy.batch(4)
    observations = np.zeros((4, *copy.observation_shape), np.float32)
    copy.random_steps(batch, 1, seed=3, observations=observations)
    seen = np.zeros_like(observations)
    for steps in (2, 3, 5, 7, 11, 12, 13, 25, 36):
        copy.random_steps(batch, steps, observations=observations)
        copy.observe(batch, copy.to_move(batch), seen)
        assert np.array_equal(seen, observations), steps


def test_random_steps_without_a_seed_go_on_with_the_rows_games():
    copy = twin(Game(4, "rounds", 5))
    batch = copy.batch(3)
    copy.random_steps(batch, 10, seed=1)
    copy.random_steps(batch, 10)
    # 20 actions into each game: seat 0 has committed its 12 cards, seat 1 placed 8.
    assert copy.to_move(batch).tolist() == [1, 1, 1]
    assert all(len([g for g in copy.partial(batch, row) or () if g]) == 8 for row in range(3))
    copy.random_steps(batch, 10, seed=1)
    assert copy.to_move(batch).tolist() == [0, 0, 0]  # a seed deals afresh


def test_a_deal_that_is_no_permutation_or_names_no_seat_is_refused_in_a_sentence():
    copy = twin(Game(2, "rounds", 1))
    batch = copy.batch(1)
    with pytest.raises(ConfigError, match="permutation"):
        copy.deal(batch, np.array([0]), np.array([[0] * 52]), np.array([[0]]))
    with pytest.raises(ConfigError, match="first dealer"):
        copy.deal(batch, np.array([0]), np.array([list(range(52))]), np.array([[2]]))
    copy.deal(batch, np.array([0]), np.array([list(range(52))]), np.array([[1]]))
    mask = np.zeros((1, 52), np.int8)
    copy.masks(batch, mask)
    with pytest.raises(IllegalMove, match="row 0"):
        copy.step(batch, np.array([52]), np.zeros((1, 2), np.float32), np.zeros(1, np.int8),
                  np.zeros(1, np.int8))
    copy.masks(batch, mask)
    assert mask.sum() and copy.to_move(batch)[0] == 0  # nothing changed
