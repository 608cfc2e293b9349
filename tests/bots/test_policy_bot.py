"""A trained policy as a bot: the file round-trips, a file for another game or configuration
is refused in one sentence, and the bot plays only legal moves from its seat's view."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

np = pytest.importorskip("numpy")

from chuko.bots.policy import (  # noqa: E402
    Policy,
    describe,
    game_encoding,
    load_policy,
    policy_bot,
    save_policy,
)
from chuko.core.errors import ChukoError, ConfigError  # noqa: E402
from chuko.games import game_class  # noqa: E402


def random_policy(game_id: str, options: dict, seed: int = 0) -> tuple[Policy, object]:
    game = game_class(game_id).from_options(options, bots_only=True)
    encoding = game_encoding(game)
    rng = np.random.default_rng(seed)
    sizes = [encoding.observation_shape[0], 16, 16, encoding.num_actions]
    weights = tuple((rng.standard_normal((a, b)).astype(np.float32),
                     rng.standard_normal(b).astype(np.float32))
                    for a, b in zip(sizes[:-1], sizes[1:], strict=True))
    return Policy(weights, describe(game, encoding, options, sizes)), game


def saved(tmp_path: Path, game_id: str, options: dict) -> tuple[str, object]:
    policy, game = random_policy(game_id, options)
    path = str(tmp_path / f"{game_id}.npz")
    save_policy(path, policy)
    return path, game


def test_a_saved_policy_reads_back_with_its_metadata_and_weights(tmp_path: Path) -> None:
    policy, _ = random_policy("chuko", {"players": 2})
    path = str(tmp_path / "p.npz")
    save_policy(path, policy, dtype="float32")
    loaded = load_policy(path)
    assert loaded.metadata == policy.metadata
    for (w, b), (w2, b2) in zip(policy.weights, loaded.weights, strict=True):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    observations = np.random.default_rng(1).random((5, policy.weights[0][0].shape[0]))
    np.testing.assert_array_equal(policy.logits(observations), loaded.logits(observations))


def test_the_default_storage_is_half_precision_and_small(tmp_path: Path) -> None:
    policy, _ = random_policy("caravan", {})
    path = tmp_path / "p.npz"
    save_policy(str(path), policy)
    loaded = load_policy(str(path))
    np.testing.assert_allclose(loaded.weights[0][0], policy.weights[0][0], rtol=1e-3,
                               atol=1e-3)
    assert path.stat().st_size < 20_000


@pytest.mark.parametrize("game_id, options", [("crossroads", {}), ("chuko", {"players": 3}),
                                              ("chuko", {"pack": "primes"})])
def test_a_policy_for_another_game_or_configuration_is_refused(
        tmp_path: Path, game_id: str, options: dict) -> None:
    path, _ = saved(tmp_path, "chuko", {"players": 2})
    other = game_class(game_id).from_options(options, bots_only=True)
    with pytest.raises(ConfigError) as refused:
        policy_bot(path, other, Random(0))
    message = str(refused.value)
    assert message.endswith(".") and message.count(". ") == 0


@pytest.mark.parametrize("content", [b"", b"not a zip", None])
def test_a_file_that_is_no_policy_is_refused_in_one_sentence(tmp_path: Path,
                                                             content: bytes | None) -> None:
    path = tmp_path / "x.npz"
    if content is None:
        np.savez(path, w0=np.zeros(3))  # an npz, but not a policy
    else:
        path.write_bytes(content)
    game = game_class("chuko").from_options({"players": 2}, bots_only=True)
    with pytest.raises(ConfigError):
        policy_bot(str(path), game, Random(0))
    with pytest.raises(ConfigError):
        policy_bot(str(tmp_path / "missing.npz"), game, Random(0))


# A greedy policy of random weights can keep resetting; a short turn limit bounds its games.
@pytest.mark.parametrize("game_id, options", [
    ("chuko", {"players": 2, "turn_limit": 60}), ("crossroads", {}), ("caravan", {}),
    ("chuko", {"players": 3, "turn_limit": 60})])
@pytest.mark.parametrize("greedy", [True, False])
def test_a_policy_bot_plays_only_legal_moves(tmp_path: Path, game_id: str, options: dict,
                                             greedy: bool) -> None:
    path, game = saved(tmp_path, game_id, options)
    bot = policy_bot(path, game, Random(1), greedy=greedy)
    for seed in range(15):
        state = game.new(seed)
        while state.outcome is None:
            for seat in state.to_move:
                legal = state.legal_moves(seat)
                move = bot.choose(state.view(seat), legal)
                assert move in legal
                state.play(seat, move)


def test_a_policy_bot_needs_legal_moves(tmp_path: Path) -> None:
    path, game = saved(tmp_path, "caravan", {})
    bot = policy_bot(path, game, Random(0))
    state = game.new(0)
    with pytest.raises(ChukoError):
        bot.choose(state.view(0), [])


def test_a_policy_made_on_other_observations_is_refused(tmp_path: Path) -> None:
    policy, game = random_policy("caravan", {})
    metadata = {**policy.metadata, "observation_check": "0" * 16}  # an encoding since changed
    path = str(tmp_path / "old.npz")
    save_policy(path, Policy(policy.weights, metadata))
    with pytest.raises(ConfigError, match="no longer makes"):
        policy_bot(path, game, Random(0))


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "src/chuko/data/policies").glob("*.npz"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_policy_fits_its_game_and_plays_legal_moves(path: Path) -> None:
    metadata = load_policy(str(path)).metadata
    game = game_class(metadata["game"]).from_options(metadata["options"], bots_only=True)
    bot = policy_bot(str(path), game, Random(0))
    assert path.stat().st_size < 60_000
    state = game.new(7)
    while state.outcome is None:
        for seat in state.to_move:
            legal = state.legal_moves(seat)
            move = bot.choose(state.view(seat), legal)
            assert move in legal
            state.play(seat, move)
