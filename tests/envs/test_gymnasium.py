"""Gymnasium's `check_env` on every single-learner environment, registration with
`gymnasium.make`, the masks maskable PPO reads, the bots as opponents, and the example
script."""

import runpy
import sys
import warnings
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from envs_helpers import GAMES  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from chuko.core.errors import ConfigError  # noqa: E402
from chuko.envs import gym_env, gym_id  # noqa: E402
from terminal_session import Terminal  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "caravan_gym.py"
# Caravan alone; Chükö and Crossroads against each of their bots' levels.
SINGLE = [("caravan", None), ("chuko", "random"), ("chuko", "easy"),
          pytest.param("chuko", "hard", marks=pytest.mark.slow),  # a search per bot move
          ("crossroads", "random"), ("crossroads", "hard"), ("crossroads", "perfect")]


@pytest.mark.parametrize(("game_id", "level"), SINGLE)
def test_gym_env_passes_gymnasium_check_env_without_a_warning(game_id, level):
    options = {"level": level} if level else {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym_env(game_id, **options, **GAMES[game_id]), skip_render_check=True)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("render_mode", ["ansi", "human"])
def test_gym_env_renders_the_table_in_both_modes(render_mode, capsys):
    env = gymnasium.make(gym_id("crossroads"), render_mode=render_mode).unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)  # with its render check, in every mode
    assert [str(w.message) for w in caught] == []
    env.reset(seed=0)
    drawn = env.render()
    text = drawn if render_mode == "ansi" else capsys.readouterr().out
    assert drawn is None or render_mode == "ansi"
    assert "Crossroads" in text and "Layout" in text and "Learner" in text


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_spaces_are_bounded_by_the_encodings_bounds(game_id):
    env = gym_env(game_id, **GAMES[game_id])
    low, high = env.encoding.observation_bounds
    assert np.isfinite([low, high]).all()
    assert (env.observation_space.low == low).all() and (env.observation_space.high == high).all()
    rng = np.random.default_rng(3)
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            assert observation in env.observation_space
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert observation in env.observation_space


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_with_an_encoding_is_made_by_gymnasium_make(game_id):
    env = gymnasium.make(gym_id(game_id))
    observation, info = env.reset(seed=0)
    assert observation in env.observation_space
    np.testing.assert_array_equal(info["action_mask"], env.unwrapped.action_masks())
    assert info["action_mask"].any()


def test_caravan_is_registered_under_its_documented_id():
    assert gym_id("caravan") == "chuko/Caravan-v0"
    env = gymnasium.make("chuko/Caravan-v0", bridges=0)
    assert env.unwrapped.game.bridges == 0


def play(env, seed):
    """One episode with random legal actions; (total reward, terminated, truncated)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return total, terminated, truncated


def test_the_learner_only_acts_on_its_own_turns_and_the_bots_play_the_rest():
    env = gym_env("crossroads", level="easy", seat=1)
    _, info = env.reset(seed=7)
    assert env.state.to_move == (1,)
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        assert env.state.to_move == (1,)
    assert env.state.outcome is not None
    totals = env.state.totals()
    assert reward == totals[1] - totals[0]


def test_a_random_learner_loses_more_to_the_perfect_bot_than_to_the_random_one():
    def mean(level):
        env = gym_env("crossroads", level=level)
        return sum(play(env, seed)[0] for seed in range(30)) / 30

    assert mean("perfect") < mean("random")


def test_chuko_against_bots_is_truncated_at_its_turn_limit():
    env = gym_env("chuko", level="random", turn_limit=4)
    results = {play(env, seed)[1:] for seed in range(10)}
    assert (False, True) in results  # truncated, not terminated


def test_wrong_options_are_one_sentence_at_construction():
    with pytest.raises(ConfigError, match="no 'grandmaster' bot"):
        gym_env("chuko", level="grandmaster")
    with pytest.raises(ConfigError, match="no opponents"):
        gym_env("caravan", level="easy")
    with pytest.raises(ConfigError, match="seat"):
        gym_env("crossroads", seat=2)


def test_the_caravan_example_plays_both_policies_and_prints_their_win_rates(capsys,
                                                                           monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--episodes", "20"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" won ")[0].strip() for line in lines] == [
        "masked random", "perfect (oracle)"]
    random_won, oracle_won = (int(line.split(" won ")[1].split()[0]) for line in lines)
    assert random_won <= oracle_won


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_the_caravan_example_shows_its_progress_on_a_terminal():
    session = Terminal([sys.executable, str(EXAMPLE), "--episodes", "30"], columns=100)
    random_bar = session.expect(r"masked random.*\d+/30")
    session.expect(r"perfect \(oracle\).*\d+/30", after=random_bar)
    assert session.wait() == 0
    assert "perfect (oracle)  won" in session.text
