"""The compiled twin of Crossroads plays as the engine does: the same deals, the same
random legal actions, and at every step the same seat to move, legal mask, observations of
both seats, rewards and endings (tests/envs/twin_helpers.py)."""

import pytest

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from twin_helpers import Pair, configuration, load_twin, play, play_single  # noqa: E402

from chuko.core.errors import ConfigError, IllegalMove  # noqa: E402
from chuko.envs.twins.crossroads import twin as crossroads_twin  # noqa: E402
from chuko.games.caravan import Caravan  # noqa: E402
from chuko.games.crossroads import Crossroads  # noqa: E402

SAMPLE = [{}, {"rounds": 2, "first": "1"},
          {"pack": "1,1,2,2,3,4,6,6,9,10,25,1", "first": "0"}]
# Twice 125,000 actions each: a million in all, over every option.
MILLION = [{}, {"rounds": 2}, {"rounds": 2, "first": "1", "pack": "2-13"},
           {"pack": "1,1,2,2,3,4,6,6,9,10,25,1", "first": "0"}]


@pytest.mark.parametrize("options", SAMPLE)
def test_twin_agrees_with_the_engine_on_a_sample_of_random_play(options):
    assert play(configuration("crossroads", **options), 3_000, rows=32, seed=1) >= 3_000


def test_twin_agrees_with_the_engine_on_a_fixed_deal():
    game = Crossroads(deal="6 15 10 7 / 9 14 8 11 / 2 21 22 30", rounds=2)
    assert play(game, 1_000, rows=8, seed=2) >= 1_000


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("options", MILLION)
def test_twin_agrees_with_the_engine_over_a_million_random_actions(options, seed,
                                                                  differential_actions):
    """A seeded tenth of the million unless the run is --full (tests/conftest.py)."""
    actions = differential_actions(125_000)
    assert play(configuration("crossroads", **options), actions, rows=256, seed=seed) >= actions


def test_a_rule_changed_in_the_twin_is_caught():
    # 2 and 3 made to match in the twin alone: the differential test must notice.
    game = configuration("crossroads", pack="2-13")
    twin = load_twin(game)
    twin.match[0, 1] = twin.match[1, 0] = 1
    with pytest.raises(AssertionError):
        play(game, 3_000, rows=32, seed=4, twin=twin)


def test_an_illegal_action_is_refused_naming_its_row_and_changing_no_row():
    pair = Pair(configuration("crossroads"), rows=4, seed=5)
    before = pair.batch.state.copy()
    actions = np.flatnonzero(pair.mask[0])[[0, 0, 0, 0]]
    actions[2] = 35  # L to the right end: no trail has begun
    with pytest.raises(IllegalMove, match="row 2"):
        pair.twin.step(pair.batch, actions, pair.rewards, pair.ended, pair.truncated)
    np.testing.assert_array_equal(pair.batch.state, before)


def test_random_steps_play_every_row_and_deal_ended_games_again():
    twin = load_twin(configuration("crossroads", **{"rounds": 2}))
    batch = twin.batch(50)
    observations = np.zeros((50, 225), np.float32)
    assert twin.random_steps(batch, 100, seed=7, observations=observations) == 5_000
    assert (twin.to_move(batch) >= 0).all()  # every ended game dealt again at once
    assert observations.min() >= 0 and observations.max() <= 1
    first = batch.state.copy()
    twin.random_steps(batch, 100, seed=7)
    np.testing.assert_array_equal(batch.state, first)  # seeded: the same games


def test_the_one_game_fast_path_agrees_with_the_engine():
    assert play_single(configuration("crossroads", **{"rounds": 2}), 100, seed=8) > 500


def test_the_descriptor_names_the_twin_and_the_twin_refuses_another_game():
    game = configuration("crossroads")
    twin = load_twin(game)
    assert (twin.players, twin.num_actions, twin.observation_shape) == (2, 36, (225,))
    assert (twin.deck_size, twin.choice_sizes) == (12, (2,))
    with pytest.raises(ConfigError):
        crossroads_twin(Caravan())
