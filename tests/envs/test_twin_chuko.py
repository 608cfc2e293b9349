"""Chükö's compiled twin against the engine: from the same deals, with the same random
legal actions and the same chance outcomes, the same masks, observations for every seat,
rewards and endings at every step; and its own generator's play (deals, chance, random
steps) stays within the rules."""

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from chuko.core.errors import ConfigError, IllegalMove  # noqa: E402
from chuko.envs.common import load_encoding, make_game, returns  # noqa: E402
from chuko.envs.twins.chuko import twin  # noqa: E402
from chuko.games import descriptor  # noqa: E402

# Configurations as the environments make them (turn limits included), 2 to 4 players,
# every named pack, packs with repeated values, and a short limit that truncates often.
CONFIGS = [
    {"players": 2},
    {"players": 3, "pack": "plain"},
    {"players": 4, "pack": "primes"},
    {"players": 2, "pack": "composite"},
    {"players": 3, "pack": "large"},
    {"players": 4, "pack": "2,2,2,3,3,6,6,9,10,12,15,15,21"},
    {"players": 2, "pack": "1,1,2,3,4,6,9,9,15,35,49", "turn_limit": 9},
    {"players": 5, "pack": "2-30", "turn_limit": 40},
]


class Pair:
    """One configuration's engine games and twin batch, side by side, row by row."""

    def __init__(self, options, seed, fast=False):
        self.fast = fast
        # The engine's side costs the same per row; the twin's calls are shared by the rows.
        self.rows = rows = 32 if fast else 8
        self.trackers = [None] * rows
        self.game = make_game("chuko", options)
        self.encoding = load_encoding(self.game)
        self.twin = twin(self.game)
        self.batch = self.twin.batch(rows, explicit_chance=True)
        self.rng = random.Random(seed)
        self.states = [None] * rows
        self.obs = np.zeros((rows, *self.twin.observation_shape), np.float32)
        self.masks = np.zeros((rows, self.twin.num_actions), np.int8)
        self.actions = 0

    def deal(self, row):
        deck = self.game.deck()
        order = list(range(len(deck)))
        self.rng.shuffle(order)
        choices = [self.rng.randrange(size) for size in self.game.deal_choices()]
        self.states[row] = self.game.from_order([deck[i] for i in order], choices,
                                                explicit_chance=True)
        if self.fast:
            self.trackers[row] = self.encoding.tracker(self.states[row])
        self.twin.deal(self.batch, np.array([row]), np.array([order]), np.array([choices]))
        self.settle(row)

    def settle(self, row):
        """Both sides through any chance nodes, given the same outcomes."""
        state = self.states[row]
        while state.is_chance:
            outcomes = state.chance_outcomes()
            assert self.twin.chance_outcomes(self.batch, row) == outcomes
            card = self.rng.choices([c for c, _ in outcomes], [w for _, w in outcomes])[0]
            state.apply_chance(card)
            self.twin.apply_chance(self.batch, row, card)

    def compare(self):
        to_move = self.twin.to_move(self.batch)
        self.twin.masks(self.batch, self.masks)
        expected = [state.to_move[0] if state.to_move else -1 for state in self.states]
        assert list(to_move) == expected
        if self.fast:
            masks = [tracker.mask() for tracker in self.trackers]
        else:
            masks = [self.encoding.legal_mask(state, max(seat, 0))
                     for state, seat in zip(self.states, expected, strict=True)]
        assert_rows_equal(self.masks, masks, "mask")
        for seat in range(self.game.players):
            self.twin.observe(self.batch, np.full(self.rows, seat), self.obs)
            if self.fast:
                seen = [tracker.observe(seat) for tracker in self.trackers]
            else:
                seen = [self.encoding.observation(state.view(seat)) for state in self.states]
            assert_rows_equal(self.obs, seen, f"seat {seat}'s observation")

    def step(self):
        """One random legal action in every live row, on both sides."""
        choice = self.rng.choice
        actions = np.array([choice(np.flatnonzero(mask)) if state.to_move else 0
                            for mask, state in zip(self.masks, self.states, strict=True)])
        rewards = np.zeros((self.rows, self.game.players), np.float64)
        ended, truncated = np.zeros(self.rows, np.int8), np.zeros(self.rows, np.int8)
        self.twin.step(self.batch, actions, rewards, ended, truncated)
        for row, state in enumerate(self.states):
            if not state.to_move:
                assert not ended[row]
                continue
            action = int(actions[row])
            if self.fast:
                self.trackers[row].play(action)
            else:
                state.play(state.to_move[0], self.encoding.move(action))
            self.actions += 1
            self.settle(row)
            outcome = state.outcome
            assert bool(ended[row]) == (outcome is not None)
            if outcome is None:
                assert not rewards[row].any()
                continue
            assert bool(truncated[row]) == self.encoding.truncated(state)
            assert list(rewards[row]) == returns(outcome.scores)
            self.deal(row)


def assert_rows_equal(got, expected, what):
    """The twin's rows equal the engine's arrays (one comparison; the rows only on failure)."""
    if not np.array_equal(got, np.stack(expected)):
        for row, array in enumerate(expected):
            np.testing.assert_array_equal(got[row], array, err_msg=f"{what}, row {row}")


def play_side_by_side(options, actions, seed, fast=False):
    """`actions` random actions of `options` on both sides; `fast`: the engine's side is
    observed through its encoding's tracker (held equal to the views by its own tests)."""
    pair = Pair(options, seed, fast)
    for row in range(pair.rows):
        pair.deal(row)
    while pair.actions < actions:
        pair.compare()
        pair.step()
    return pair.actions


def test_chuko_names_its_twin_and_every_option_is_covered():
    assert descriptor("chuko").integrations.twin == "chuko.envs.twins.chuko:twin"
    for options in CONFIGS + [{"players": 3, "turn_limit": 0}]:
        made = twin(make_game("chuko", options))
        assert made.observation_shape == load_encoding(made.game).observation_shape


@pytest.mark.parametrize("options", CONFIGS)
def test_the_twin_steps_as_the_engine_does_a_sample(options):
    assert play_side_by_side(options, 400, seed=len(CONFIGS)) >= 400
    assert play_side_by_side(options, 400, seed=len(CONFIGS), fast=True) >= 400


# A million random actions in all, an eighth in each configuration (a test each, so the
# slow set can share them out among its workers).
MILLION_SHARE = 1_000_000 // len(CONFIGS)


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_the_twin_steps_as_the_engine_does_for_a_million_random_actions(
        number, differential_actions):
    """A seeded tenth of the million unless the run is --full (tests/conftest.py)."""
    actions = differential_actions(MILLION_SHARE)
    played = play_side_by_side(CONFIGS[number], actions, seed=number, fast=True)
    assert played >= actions and MILLION_SHARE * len(CONFIGS) == 1_000_000


def test_observations_lie_in_the_encodings_bounds():
    for options in CONFIGS:
        game = make_game("chuko", options)
        made = twin(game)
        batch = made.batch(64)
        observations = np.zeros((64, *made.observation_shape), np.float32)
        made.random_steps(batch, 300, seed=1, observations=observations)
        low, high = load_encoding(game).observation_bounds
        assert observations.min() >= low and observations.max() <= high


def test_random_steps_play_legal_games_that_end_as_the_rules_say():
    game = make_game("chuko", {"players": 3, "turn_limit": 30})
    made = twin(game)
    batch = made.batch(50)
    assert made.random_steps(batch, 200, seed=3) == 50 * 200
    again = made.batch(50)
    made.random_steps(again, 200, seed=3)
    np.testing.assert_array_equal(batch.s, again.s)  # the seed fixes the play
    for row in range(50):  # every row is a legal position: replay it on the engine
        order, choices = made.dealt(batch, row)
        assert sorted(order) == list(range(len(game.pack)))
        assert all(0 <= c < 3 for c in choices)


def test_an_illegal_action_is_refused_naming_its_row_and_changes_nothing():
    game = make_game("chuko", {"players": 2})
    made = twin(game)
    batch = made.batch(3)
    made.deal_random(batch, np.arange(3), 5)
    masks = np.zeros((3, made.num_actions), np.int8)
    made.masks(batch, masks)
    actions = masks.argmax(axis=1)
    actions[1] = np.flatnonzero(masks[1] == 0)[0]
    before = batch.s.copy()
    rewards = np.zeros((3, 2), np.float32)
    flags = np.zeros(3, np.int8), np.zeros(3, np.int8)
    with pytest.raises(IllegalMove, match="row 1"):
        made.step(batch, actions, rewards, *flags)
    np.testing.assert_array_equal(batch.s, before)
    with pytest.raises(IllegalMove):
        made.apply_chance(batch, 0, 2)  # no chance node, and chance is not explicit
    with pytest.raises(ConfigError):
        made.deal(batch, np.array([0]), np.array([[0] * 12]), np.array([[0]]))
    with pytest.raises(ConfigError):
        made.random_steps(made.batch(1, explicit_chance=True), 1)
    # The kernels write where they are told: arrays and rows that do not fit are refused.
    for call in (lambda: made.step(batch, actions[:2], rewards, *flags),
                 lambda: made.step(batch, actions, rewards[:, :1], *flags),
                 lambda: made.masks(batch, masks[:2]),
                 lambda: made.observe(batch, [0, 1], np.zeros((3, 1), np.float32)),
                 lambda: made.observe(batch, [0, 1, 2], np.zeros((3, 58), np.float32)),
                 lambda: made.deal_random(batch, [3], 1),
                 lambda: made.apply_chance(batch, -1, 2)):
        with pytest.raises(ConfigError):
            call()


def test_random_steps_choose_among_exactly_the_legal_actions():
    from chuko.envs.twins import chuko_kernels

    for options in CONFIGS[:4]:
        made = twin(make_game("chuko", options))
        batch = made.batch(16)
        masks = np.zeros((16, made.num_actions), np.int8)
        for round_ in range(5):
            made.random_steps(batch, 3 + round_, seed=round_)
            made.masks(batch, masks)
            for row in range(16):
                chosen = {chuko_kernels._random_action(batch.cfg, batch.s, row)
                          for _ in range(300)}
                assert chosen == set(np.flatnonzero(masks[row]))
