"""PettingZoo's own test suites on every environment, and the behaviour they do not check:
observations from the view alone, the truncation flag, illegal actions, and Chuchula's
grouping built in steps by every seat at once."""

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from envs_helpers import GAMES  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from chuko.core.errors import ConfigError  # noqa: E402
from chuko.envs import aec_env, parallel_env  # noqa: E402


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_env_passes_pettingzoo_api_test(game_id):
    api_test(aec_env(game_id, **GAMES[game_id]), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_env_passes_pettingzoo_seed_test(game_id):
    seed_test(lambda: aec_env(game_id, **GAMES[game_id]), num_cycles=100)


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_env_passes_pettingzoo_render_test(game_id, capsys):
    render_test(lambda render_mode: aec_env(game_id, render_mode=render_mode, **GAMES[game_id]))
    assert capsys.readouterr().out  # "human" printed the table


@pytest.mark.parametrize("game_id", GAMES)
def test_ansi_rendering_draws_the_whole_table_and_human_prints_it(game_id, capsys):
    env = aec_env(game_id, render_mode="ansi", **GAMES[game_id])
    env.reset(seed=2)
    text = env.render()
    title = env.game.title
    full = env.state.full_view(None)
    assert text.splitlines()[0].strip("─ ") == title and len(text.splitlines()) > 5
    assert text.rstrip().endswith(f"To move: {env.agent_selection}.") or (
        env.game.descriptor.traits.simultaneous)
    # every seat's cards are on the table, as an onlooker sees them
    hands = full.get("hands") or []
    assert all(str(card) in text for hand in hands for card in hand)
    human = aec_env(game_id, render_mode="human", **GAMES[game_id])
    human.reset(seed=2)
    assert human.render() is None and capsys.readouterr().out == text


def test_an_unknown_render_mode_is_refused_in_a_sentence():
    with pytest.raises(ConfigError, match="render mode is 'human', 'ansi' or None"):
        aec_env("caravan", render_mode="rgb_array")


@pytest.mark.parametrize("game_id", GAMES)
def test_parallel_env_passes_pettingzoo_parallel_api_test(game_id):
    parallel_api_test(parallel_env(game_id, **GAMES[game_id]), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_parallel_env_passes_pettingzoo_parallel_seed_test(game_id):
    parallel_seed_test(lambda: parallel_env(game_id, **GAMES[game_id]), num_cycles=100)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_fast_loop_gives_what_pettingzoos_own_methods_give(game_id):
    """agent_iter, last and the dead steps are rewritten for speed: side by side with
    PettingZoo's base-class methods, the same deals give the same agents, observations,
    rewards, flags and infos at every step, an illegal action's ending included."""
    from pettingzoo import AECEnv

    fast, base = aec_env(game_id, **GAMES[game_id]), aec_env(game_id, **GAMES[game_id])
    rng = np.random.default_rng(5)
    for seed in range(4):
        fast.reset(seed=seed)
        base.reset(seed=seed)
        expected_agents = iter(AECEnv.agent_iter(base, 500))
        for steps, agent in enumerate(fast.agent_iter(500)):
            assert agent == next(expected_agents)
            got, expected = fast.last(), AECEnv.last(base)
            assert fast.last(observe=False)[1:] == expected[1:] == got[1:]
            for key in ("observation", "action_mask"):
                np.testing.assert_array_equal(got[0][key], expected[0][key])
            mask = got[0]["action_mask"]
            if got[2] or got[3]:
                action = None
            elif seed == 3 and steps == 3 and not mask.all():  # one game ends illegally
                action = int(np.flatnonzero(mask == 0)[0])
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            fast.step(action)
            if base._over:
                AECEnv._was_dead_step(base, action)
            else:
                base.step(action)
            for name in ("agents", "agent_selection", "rewards", "_cumulative_rewards",
                         "terminations", "truncations", "infos"):
                assert getattr(fast, name) == getattr(base, name), name
        assert next(expected_agents, None) is None


def random_actions(env, seed):
    """Play one game of `env` with random legal actions, yielding before each action."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, observation
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_observation_is_the_encoding_of_the_seats_view(game_id):
    env = aec_env(game_id, **GAMES[game_id])
    for agent, observation in random_actions(env, seed=3):
        seat = env.seats[agent]
        played = env._twin_game  # a game played on its twin builds its moves there
        partial = env.builder.partial[seat] if played is None else played.partial(seat)
        expected = env.encoding.observation(env.state.view(seat), partial)
        np.testing.assert_array_equal(observation["observation"], expected)
        np.testing.assert_array_equal(observation["action_mask"],
                                      env.encoding.legal_mask(env.state, seat, partial))
        for other in env.agents:
            if other != agent:  # a seat not to act may not act
                assert not env.observe(other)["action_mask"].any()


def test_what_an_agent_keeps_does_not_change_later_and_masks_are_read_only():
    env = aec_env("chuko", players=2)
    kept = [(observation, {key: array.copy() for key, array in observation.items()})
            for _, observation in random_actions(env, seed=4)]
    assert len(kept) > 10
    for observation, then in kept:  # every array as it was when observed
        for key, array in observation.items():
            np.testing.assert_array_equal(array, then[key])
    with pytest.raises(ValueError, match="read-only"):
        kept[0][0]["action_mask"][0] = 1


def test_chuko_stopped_by_its_turn_limit_is_truncated_not_terminated():
    env = aec_env("chuko", players=2, turn_limit=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(env.truncations.values()) and not any(env.terminations.values()):
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.state.outcome.truncated
    assert set(env.rewards.values()) == {0.0}


def test_a_finished_chuko_game_is_terminated_with_zero_sum_rewards():
    env = aec_env("chuko", players=3)
    rewards = {}
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert terminated and not truncated
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    winner = env.state.outcome.winners[0]
    assert rewards[f"player_{winner}"] == 1.0
    assert sum(rewards.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_ends_the_game_with_the_least_return_and_a_sentence(game_id):
    env = aec_env(game_id, **GAMES[game_id])
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    while mask.all():  # a grouping's first card may be any card: take one, then refuse
        env.step(int(np.flatnonzero(mask)[0]))
        mask = env.observe(env.agent_selection)["action_mask"]
    agent = env.agent_selection
    before = env.state.record()
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state.record() == before
    assert all(env.terminations.values())
    assert env.rewards == {other: env.least_return if other == agent else 0.0
                           for other in env.agents}
    sentence = env.infos[agent]["illegal_move"]
    assert sentence.endswith(".") and "Traceback" not in sentence


def test_an_action_out_of_range_or_not_a_number_is_refused_the_same_way():
    for action in (10**9, -1, "A"):
        env = aec_env("crossroads")
        env.step(action)
        assert all(env.terminations.values())
        assert env.infos[env.agent_selection]["illegal_move"]


def test_chuchula_in_parallel_every_seat_builds_its_grouping_then_the_round_resolves():
    env = parallel_env("chuchula", players=3, mode="rounds", length=2)
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    rounds, steps = env.state.round_number, 0
    while env.state.round_number == rounds:
        assert env.state.to_move == (0, 1, 2)  # nobody has committed yet
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
                   for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        assert not any(infos[agent] for agent in infos)
        steps += 1
    assert steps > 1  # a grouping takes several steps
    assert all(observations[agent]["action_mask"].any() for agent in env.agents)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_versioned_module_as_pettingzoos_classic_games_do(game_id):
    import importlib

    import chuko.envs

    module = importlib.import_module(f"chuko.envs.{game_id}_v0")
    assert getattr(chuko.envs, f"{game_id}_v0") is module
    options = GAMES[game_id]
    raw = module.raw_env(**options)
    assert type(raw) is type(aec_env(game_id)) and raw.game == aec_env(game_id, **options).game
    api_test(module.env(**options), num_cycles=20)
    parallel_api_test(module.parallel_env(**options), num_cycles=20)


def test_the_versioned_modules_are_the_ones_the_docs_name():
    from chuko.envs import caravan_v0, chuchula_v0, chuko_v0, crossroads_v0

    assert caravan_v0.raw_env(bridges=1).game.bridges == 1
    assert chuko_v0.raw_env(players=3).game.players == 3
    assert crossroads_v0.parallel_env(rounds=2).game.rounds == 2
    assert chuchula_v0.env(players=2).unwrapped.game.players == 2
