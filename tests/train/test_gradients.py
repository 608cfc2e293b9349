"""The hand-written backward pass of the PPO loss agrees with finite differences."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numpy")

from chuko.train.network import init_mlp, parameters  # noqa: E402
from chuko.train.ppo import Batch, LossWeights, loss_and_grads  # noqa: E402


def tiny_problem(seed: int) -> tuple[list, list, Batch]:
    rng = np.random.default_rng(seed)
    policy = init_mlp([5, 4, 3, 4], rng, last_scale=1.0)
    value = init_mlp([5, 4, 1], rng, last_scale=1.0)
    n = 7
    masks = rng.random((n, 4)) < 0.7
    masks[:, 2] = True  # every row has a legal action
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
    batch = Batch(observations=rng.standard_normal((n, 5)), masks=masks, actions=actions,
                  # old probabilities near the current ones, so some ratios clip and some not
                  old_log_probs=np.log(rng.uniform(0.15, 0.6, n)),
                  advantages=rng.standard_normal(n), returns=rng.standard_normal(n))
    return policy, value, batch


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_backward_pass_matches_finite_differences(seed: int) -> None:
    policy, value, batch = tiny_problem(seed)
    weights = LossWeights(clip=0.2, entropy=0.05, value=0.5)
    _, grads, _ = loss_and_grads(policy, value, batch, weights)
    params = parameters(policy) + parameters(value)
    assert len(grads) == len(params)
    eps = 1e-6
    for param, grad in zip(params, grads, strict=True):
        assert grad.shape == param.shape
        numeric = np.zeros_like(param)
        for index in np.ndindex(param.shape):
            kept = param[index]
            param[index] = kept + eps
            up = loss_and_grads(policy, value, batch, weights)[0]
            param[index] = kept - eps
            down = loss_and_grads(policy, value, batch, weights)[0]
            param[index] = kept
            numeric[index] = (up - down) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-8)


def test_illegal_actions_get_no_probability_and_no_gradient() -> None:
    policy, value, batch = tiny_problem(3)
    from chuko.train.network import forward
    from chuko.train.ppo import masked_log_softmax, policy_terms

    logits, _ = forward(policy, batch.observations)
    probabilities = np.exp(masked_log_softmax(logits, batch.masks))
    assert np.all(probabilities[~batch.masks] == 0)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    _, d_logits, _ = policy_terms(logits, batch, LossWeights())
    assert np.all(d_logits[~batch.masks] == 0)
