"""Proximal policy optimisation's loss and its gradients, for a masked policy network and a
separate value network (Schulman et al. 2017, with the usual details: advantages
normalised per minibatch, the ratio clipped to 1 ± `clip`, an entropy bonus, the value's
squared error).

Illegal actions are masked to −∞ before the softmax: they get probability 0, add nothing
to the entropy and receive no gradient. `loss_and_grads` returns the loss and the gradient
of every parameter, computed by the backward pass of chuko.train.network; a test checks
them against finite differences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .network import Layer, backward, forward


@dataclass(frozen=True)
class Batch:
    """Transitions to learn from: observations, legal masks (bool), the actions taken, their
    log-probabilities under the policy that took them, advantages and value targets."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    old_log_probs: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray

    def rows(self, index: np.ndarray) -> Batch:
        return Batch(self.observations[index], self.masks[index], self.actions[index],
                     self.old_log_probs[index], self.advantages[index], self.returns[index])


@dataclass(frozen=True)
class LossWeights:
    clip: float = 0.2
    entropy: float = 0.01
    value: float = 0.5


def masked_log_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Log-probabilities with the illegal actions at −∞ (every row has a legal action)."""
    masked = np.where(masks, logits, -np.inf)
    shifted = masked - masked.max(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def policy_terms(logits: np.ndarray, batch: Batch, weights: LossWeights
                 ) -> tuple[float, np.ndarray, dict[str, float]]:
    """The clipped surrogate and entropy terms of the loss, and their gradient with respect
    to the logits."""
    n = len(batch.actions)
    log_p = masked_log_softmax(logits, batch.masks)
    p = np.exp(log_p)
    safe_log_p = np.where(batch.masks, log_p, 0.0)
    rows = np.arange(n)
    ratio = np.exp(log_p[rows, batch.actions] - batch.old_log_probs)
    advantages = batch.advantages
    unclipped = ratio * advantages
    clipped = np.clip(ratio, 1 - weights.clip, 1 + weights.clip) * advantages
    entropy = -(p * safe_log_p).sum(axis=1)
    loss = -np.minimum(unclipped, clipped).mean() - weights.entropy * entropy.mean()
    # d(-min)/d(log p_a): -A·r where the unclipped term is the smaller, else 0.
    d_log_pa = np.where(unclipped <= clipped, -advantages * ratio, 0.0) / n
    d_logits = -p * d_log_pa[:, None]
    d_logits[rows, batch.actions] += d_log_pa
    # dH/dz_j = -p_j (log p_j + H); the loss holds -entropy·H.
    d_logits += (weights.entropy / n) * p * (safe_log_p + entropy[:, None])
    stats = {"entropy": float(entropy.mean()),
             "clipped": float((np.abs(ratio - 1) > weights.clip).mean()),
             "kl": float((batch.old_log_probs - log_p[rows, batch.actions]).mean())}
    return float(loss), d_logits, stats


def loss_and_grads(policy: Sequence[Layer], value: Sequence[Layer], batch: Batch,
                   weights: LossWeights) -> tuple[float, list[np.ndarray], dict[str, float]]:
    """The whole loss and its gradients: the policy's parameters, then the value's."""
    logits, policy_inputs = forward(policy, batch.observations)
    policy_loss, d_logits, stats = policy_terms(logits, batch, weights)
    values, value_inputs = forward(value, batch.observations)
    error = values[:, 0] - batch.returns
    value_loss = 0.5 * weights.value * float((error * error).mean())
    d_values = (weights.value / len(error)) * error[:, None]
    grads = backward(policy, policy_inputs, d_logits) + backward(value, value_inputs,
                                                                    d_values)
    stats["value_loss"] = value_loss / weights.value
    return policy_loss + value_loss, grads, stats
