"""The compiled-twin source feeds the rollout what the Python environments would: checked
with a stand-in twin that runs the engine behind the `Twin` surface."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from chuko.core.errors import ConfigError  # noqa: E402
from chuko.envs.common import load_encoding, make_game, returns  # noqa: E402
from chuko.train.recipes import RECIPES  # noqa: E402
from chuko.train.sources import TwinSource  # noqa: E402
from chuko.train.trainer import Settings, Trainer  # noqa: E402


class EngineTwin:
    """The `chuko.envs.twins.Twin` surface over the engine, a state per row."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.encoding = load_encoding(game)
        self.players = game.players
        self.num_actions = self.encoding.num_actions
        self.observation_shape = self.encoding.observation_shape
        self.deals = 0

    def batch(self, rows: int) -> list[Any]:
        return [None] * rows

    def deal_random(self, batch: list[Any], rows: Any, seed: int) -> None:
        rng = Random(seed)
        for row in rows:
            batch[row] = self.game.new(rng.getrandbits(63))
            self.deals += 1

    def to_move(self, batch: list[Any]) -> Any:
        return np.array([-1 if s.outcome is not None else s.to_move[0] for s in batch])

    def masks(self, batch: list[Any], out: Any) -> None:
        for i, state in enumerate(batch):
            out[i] = 0 if state.outcome is not None else self.encoding.legal_mask(
                state, state.to_move[0])

    def observe(self, batch: list[Any], seats: Any, out: Any) -> None:
        for i, state in enumerate(batch):
            out[i] = self.encoding.observation(state.view(int(seats[i])))

    def step(self, batch: list[Any], actions: Any, rewards: Any, ended: Any,
             truncated: Any) -> None:
        ended[:] = 0
        truncated[:] = 0
        for i, state in enumerate(batch):
            if state.outcome is not None:
                continue
            state.play(state.to_move[0], self.encoding.move(int(actions[i])))
            if state.outcome is not None:
                ended[i] = 1
                truncated[i] = self.encoding.truncated(state)
                if not truncated[i]:
                    rewards[i] = returns(state.outcome.scores)


def test_a_twin_batch_pays_each_seat_at_the_end_and_deals_again() -> None:
    twin = EngineTwin(make_game("chuko", {"players": 2}))
    source = TwinSource(twin, 4, seed=0)
    total, games = np.zeros(2), 0
    for _ in range(200):
        seats, observations, masks = source.observe()
        assert observations.shape == (4, source.observation_size) and masks.any(axis=1).all()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        rewards, ended = source.step(actions)
        assert np.all(rewards[~ended] == 0)
        total += rewards.sum(axis=0)
        games += int(ended.sum())
    assert games > 0 and twin.deals == 4 + games
    assert total.sum() == pytest.approx(0.0)  # zero-sum, scaled to -1..1


def test_self_play_learns_through_a_twin_batch() -> None:
    twin = EngineTwin(make_game("chuko", {"players": 2}))
    trainer = Trainer(TwinSource(twin, 4, seed=1), Settings(hidden=(8,), steps=16), seed=1)
    trainer.run(updates=2)
    assert trainer.steps == 2 * 4 * 16


def test_a_recipe_against_bots_has_no_compiled_version() -> None:
    with pytest.raises(ConfigError, match="Python bots"):
        RECIPES["chuko"].source(seed=0, compiled=True)
