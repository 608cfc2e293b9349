"""The AEC environment on a game's compiled twin: it plays there, the engine's state is
rebuilt from the deal and the actions only when read and agrees with every observation,
and a twin that offers only the protocol's calls plays the same games."""

from types import SimpleNamespace

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from chuko.envs import aec_env, twin_game  # noqa: E402


def play(env, seed, games, check=None):
    """`games` games of random legal actions; `check(env, agent, observation)` before
    each action. Returns every observation seen."""
    rng = np.random.default_rng(seed)
    seen = []
    for game in range(games):
        env.reset(seed=seed * 1000 + game)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            seen.append(observation["observation"])
            if terminated or truncated:
                env.step(None)
                continue
            if check is not None:
                check(env, agent, observation)
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return seen


def test_chuko_plays_on_its_twin_and_rebuilds_the_engines_state_only_when_read():
    env = aec_env("chuko", players=3, pack="plain")
    assert env._twin_game is not None
    play(env, seed=1, games=3)
    assert env._twin_game._replay is None  # nobody read the state
    assert env.state.outcome is not None


def test_the_rebuilt_state_agrees_with_every_observation_recycles_included():
    env = aec_env("chuko", players=3, pack="plain")
    recycles = 0

    def check(env, agent, observation):
        nonlocal recycles
        seat = env.seats[agent]
        state = env.state
        expected = env.encoding.observation(state.view(seat))
        np.testing.assert_array_equal(observation["observation"], expected)
        np.testing.assert_array_equal(observation["action_mask"],
                                      env.encoding.legal_mask(state, seat))
        recycles += state.view(seat)["recycled"] is not None

    play(env, seed=2, games=12, check=check)
    assert recycles  # draws from a recycled pile: chance the twin drew, replayed


def test_a_twin_with_only_the_protocols_calls_plays_the_same_games(monkeypatch):
    fast = play(aec_env("chuko", players=4, pack="primes"), seed=3, games=6)
    monkeypatch.setattr(twin_game, "FAST_MEMBERS", ("not a member",))
    env = aec_env("chuko", players=4, pack="primes")
    assert "play" not in vars(env._twin_game)  # the protocol's calls, not the closure
    plain = play(env, seed=3, games=6)
    assert len(fast) == len(plain)
    for one, other in zip(fast, plain, strict=True):
        np.testing.assert_array_equal(one, other)


def test_without_numba_the_aec_environment_plays_on_the_engine(monkeypatch):
    from chuko.envs import vector

    def no_numba(reference):
        raise ModuleNotFoundError("No module named 'numba'", name="numba")

    monkeypatch.setattr(vector, "references", SimpleNamespace(load=no_numba))
    with pytest.raises(vector.ConfigError, match="fast"):
        vector.vector_env("chuko", 2)
    env = aec_env("chuko", players=3)
    assert env._twin_game is None
    assert play(env, seed=4, games=2)


def test_a_twin_that_reports_no_chance_cannot_rebuild_a_game_that_drew_some(monkeypatch):
    from chuko.core.errors import ChukoError
    from chuko.envs.twins.chuko import ChukoTwin

    monkeypatch.delattr(ChukoTwin, "drawn")
    env = aec_env("chuko", players=3, pack="plain")
    assert env._twin_game is not None  # it plays on the twin all the same

    def check(env, agent, observation):
        env.state  # noqa: B018 (read to rebuild it)

    with pytest.raises(ChukoError, match="cannot be rebuilt"):
        play(env, seed=2, games=12, check=check)


def test_any_seats_observation_is_the_encodings_and_a_seat_not_there_is_refused():
    from chuko.core.errors import ConfigError

    env = aec_env("chuko", players=3)
    env.reset(seed=5)
    played = env._twin_game
    for seat in range(3):
        np.testing.assert_array_equal(played.observe(seat),
                                      env.encoding.observation(env.state.view(seat)))
    with pytest.raises(ConfigError):
        played.observe(3)
