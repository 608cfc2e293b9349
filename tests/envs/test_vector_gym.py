"""Gymnasium's vector API over a compiled twin (envs/vector_gym.py): made by
`gymnasium.make_vec`, batched spaces, same-step autoreset, masks where maskable PPO reads
them, and the same observations and rewards as the single-game environment on the same
deals."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from gymnasium.vector import AutoresetMode  # noqa: E402

from chuko.core.errors import ConfigError, IllegalMove  # noqa: E402
from chuko.envs import gym_env  # noqa: E402
from chuko.envs.vector_gym import ChukoVectorGym, gym_vector_env  # noqa: E402

ROWS = 6


def random_actions(rng, masks):
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def test_make_vec_builds_the_compiled_vector_environment_with_batched_spaces():
    env = gymnasium.make_vec("chuko/Caravan-v0", num_envs=ROWS,
                             vectorization_mode="vector_entry_point", bridges=1)
    assert isinstance(env, ChukoVectorGym) and env.unwrapped.game.bridges == 1
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.observation_space.shape == (ROWS, 200)
    assert env.single_observation_space.low.min() == 0
    assert env.single_observation_space.high.max() == 1
    assert env.action_space.shape == (ROWS,)
    observations, infos = env.reset(seed=0)
    assert observations in env.observation_space
    np.testing.assert_array_equal(infos["action_mask"], env.action_masks())
    assert infos["action_mask"].shape == (ROWS, 60) and infos["action_mask"].any(axis=1).all()


def test_games_that_end_are_dealt_again_in_the_same_step():
    env = gym_vector_env("caravan", ROWS)
    rng = np.random.default_rng(1)
    _, infos = env.reset(seed=1)
    ended = 0
    for _ in range(60):
        observations, rewards, terminated, truncated, infos = env.step(
            random_actions(rng, infos["action_mask"]))
        assert infos["action_mask"].any(axis=1).all()  # every row has a move, always
        assert not truncated.any()
        for row in np.flatnonzero(terminated):
            assert infos["_final_obs"][row]
            assert infos["final_obs"][row].shape == (200,)
            assert observations[row][192] == 1  # the next game: its caravan is empty
            ended += 1
        assert set(rewards[~terminated]) <= {0.0}
    assert ended > 20


def test_observations_and_rewards_equal_the_single_game_environment_on_the_same_deals():
    env = gym_vector_env("caravan", ROWS, bridges=2)
    game = env.game
    rng = np.random.default_rng(2)
    orders = np.array([rng.permutation(12) for _ in range(ROWS)])
    observations, infos = env.reset(seed=2, options={"orders": orders})
    singles = []
    for row in range(ROWS):
        single = gym_env("caravan", bridges=2).unwrapped
        single.reset(seed=row)
        deal_into(single, game.from_order([game.deck()[i] for i in orders[row]]))
        singles.append(single)
    played = 0
    while played < 400:
        actions = random_actions(rng, infos["action_mask"])
        for row, single in enumerate(singles):
            np.testing.assert_array_equal(observations[row], single._observation())
            np.testing.assert_array_equal(infos["action_mask"][row], single.action_masks())
        observations, rewards, terminated, _, infos = env.step(actions)
        for row, single in enumerate(singles):
            final, reward, done, _, _ = single.step(int(actions[row]))
            assert (reward, done) == (rewards[row], terminated[row])
            if done:
                np.testing.assert_array_equal(infos["final_obs"][row], final)
                order, _ = env.twin.dealt(env.batch, row)
                deal_into(single, game.from_order([game.deck()[i] for i in order]))
        played += ROWS


def deal_into(single, state):
    """The single-game environment, playing `state` from its start (its own deals are
    random; this one is the vector environment's)."""
    single.state = state
    single.builder.clear()
    single._over = False


def test_an_illegal_action_ends_its_game_with_the_least_return():
    env = gym_vector_env("caravan", ROWS)
    observations, infos = env.reset(seed=3)
    actions = random_actions(np.random.default_rng(3), infos["action_mask"])
    actions[4] = 59  # LR*: no caravan yet, so no bridge
    _, rewards, terminated, _, infos = env.step(actions)
    assert terminated[4] and rewards[4] == 0.0 and infos["illegal_move"][4]
    np.testing.assert_array_equal(infos["final_obs"][4], observations[4])
    assert infos["illegal_move"].sum() == 1


def test_the_same_seed_and_actions_give_the_same_games():
    runs = []
    for _ in range(2):
        env = gym_vector_env("caravan", ROWS)
        rng = np.random.default_rng(4)
        observations, infos = env.reset(seed=4)
        seen = [observations]
        for _ in range(20):
            observations, *_, infos = env.step(random_actions(rng, infos["action_mask"]))
            seen.append(observations)
        runs.append(np.array(seen))
    np.testing.assert_array_equal(runs[0], runs[1])


def test_games_of_several_seats_and_steps_before_reset_are_refused():
    with pytest.raises(ConfigError, match="one seat"):
        gym_vector_env("crossroads", ROWS)
    with pytest.raises(ConfigError):
        gym_vector_env("caravan", 0)
    with pytest.raises(IllegalMove, match="reset"):
        gym_vector_env("caravan", ROWS).step(np.zeros(ROWS, np.int64))
