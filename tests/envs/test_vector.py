"""The batched multi-agent environment over a game's compiled twin: arrays of the right
shapes, the encoding's observations and masks, returns paid as a game ends, rows dealt
again at once, seeding, and refusals in a sentence."""

from dataclasses import replace

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from chuko.core.errors import ConfigError, IllegalMove  # noqa: E402
from chuko.envs.common import load_encoding, make_game  # noqa: E402
from chuko.envs.vector import vector_env  # noqa: E402
from chuko.games import chuko  # noqa: E402


def random_actions(out, rng):
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in out.action_mask])


def test_a_step_gives_every_rows_player_observation_mask_and_rewards_as_arrays():
    env = vector_env("chuko", 16, seed=1, players=3)
    out = env.reset()
    shape = load_encoding(make_game("chuko", {"players": 3})).observation_shape
    assert out.observation.shape == (16, *shape) and out.observation.dtype == np.float32
    assert out.action_mask.shape == (16, env.num_actions)
    assert out.rewards.shape == (16, 3) and not out.rewards.any()
    assert ((out.player >= 0) & (out.player < 3)).all()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        out = env.step(random_actions(out, rng))
        done = out.terminated | out.truncated
        ended += done.sum()
        # Returns are paid as a game ends: zero-sum, the winner's 1.
        assert not out.rewards[~done].any()
        np.testing.assert_allclose(out.rewards[done].sum(axis=1), 0, atol=1e-6)
        assert (out.rewards[out.terminated].max(axis=1) == 1).all()
        # The rows that ended are already the next game's: someone is to move everywhere.
        assert ((out.player >= 0) & out.action_mask.any(axis=1)).all()
        np.testing.assert_array_equal(out.observation, env.observe(out.player))
    assert ended > 16


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    def run(seed):
        env = vector_env("chuko", 8, seed=seed)
        out, rng, seen = env.reset(), np.random.default_rng(0), []
        for _ in range(50):
            out = env.step(random_actions(out, rng))
            seen.append(out.observation)
        return np.stack(seen)

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_a_turn_limit_truncates_with_returns_of_zero():
    env = vector_env("chuko", 32, seed=2, players=2, turn_limit=4)
    out, rng = env.reset(), np.random.default_rng(2)
    cut = 0
    for _ in range(20):
        out = env.step(random_actions(out, rng))
        assert not out.rewards[out.truncated].any()
        assert not (out.truncated & out.terminated).any()
        cut += out.truncated.sum()
    assert cut


def test_observe_gives_any_seats_observation_and_refuses_a_seat_not_there():
    env = vector_env("chuko", 4, seed=0, players=4)
    env.reset()
    for seat in range(4):
        assert env.observe([seat] * 4).shape == (4, *env.observation_shape)
    with pytest.raises(ConfigError):
        env.observe([4, 0, 0, 0])


def test_an_illegal_action_is_refused_in_a_sentence_and_bad_setups_too():
    env = vector_env("chuko", 2, seed=0)
    with pytest.raises(ConfigError):
        env.step([0, 0])  # not reset yet
    out = env.reset()
    actions = random_actions(out, np.random.default_rng(0))
    actions[1] = np.flatnonzero(out.action_mask[1] == 0)[0]
    with pytest.raises(IllegalMove, match="row 1"):
        env.step(actions)
    for bad in (0, -1, True):
        with pytest.raises(ConfigError):
            vector_env("chuko", bad)


def test_a_game_without_a_twin_has_no_vector_environment(monkeypatch):
    bare = replace(chuko.DESCRIPTOR.integrations, twin=None)
    monkeypatch.setattr(chuko.Game, "descriptor", replace(chuko.DESCRIPTOR, integrations=bare))
    with pytest.raises(ConfigError, match="no compiled twin"):
        vector_env("chuko", 2)


def test_random_steps_count_every_rows_actions_compiled_or_not(monkeypatch):
    env = vector_env("chuko", 10, seed=5, players=3)
    assert env.random_steps(30) == 300
    monkeypatch.setattr(type(env.twin), "random_steps", None)
    assert env.random_steps(5) == 50  # through step, for a twin without the fast path
