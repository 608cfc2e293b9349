"""Multilayer perceptrons in numpy with their backward pass written out, and Adam.

A network is a list of (weights, bias) pairs; tanh sits between layers, the last layer is
linear. `forward` keeps what `backward` needs; `backward` turns the gradient of a loss with
respect to the outputs into gradients for every parameter, in the same order as `params`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Layer = tuple[np.ndarray, np.ndarray]


def init_mlp(sizes: Sequence[int], rng: np.random.Generator, last_scale: float) -> list[Layer]:
    """Orthogonal weights (gain √2 for hidden layers, `last_scale` for the output) and zero
    biases, as PPO implementations start: a small last layer makes the first policy nearly
    uniform over the legal actions."""
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        gain = last_scale if i == len(sizes) - 2 else np.sqrt(2.0)
        a = rng.standard_normal((max(n_in, n_out), min(n_in, n_out)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        w = q if n_in >= n_out else q.T
        layers.append(((gain * w).astype(np.float64), np.zeros(n_out)))
    return layers


def forward(layers: Sequence[Layer], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The outputs for the rows of `x`, and each layer's input (for `backward`)."""
    inputs = []
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        inputs.append(x)
        x = x @ w + b
        if i < last:
            x = np.tanh(x)
    return x, inputs


def backward(layers: Sequence[Layer], inputs: Sequence[np.ndarray],
             d_out: np.ndarray) -> list[np.ndarray]:
    """Gradients [dW0, db0, dW1, db1, ...] given d(loss)/d(outputs)."""
    grads: list[np.ndarray] = []
    d = d_out
    for i in range(len(layers) - 1, -1, -1):
        w, _ = layers[i]
        x = inputs[i]
        grads[:0] = [x.T @ d, d.sum(axis=0)]
        if i > 0:
            # x is the previous layer's tanh output: tanh' = 1 - tanh².
            d = (d @ w.T) * (1.0 - x * x)
    return grads


def parameters(layers: Sequence[Layer]) -> list[np.ndarray]:
    """The arrays of `layers` in `backward`'s order (views: updating them updates the net)."""
    return [array for layer in layers for array in layer]


class Adam:
    """Adam (Kingma and Ba) over a fixed list of arrays, updated in place."""

    def __init__(self, params: Sequence[np.ndarray], lr: float, betas: tuple[float, float] = (
            0.9, 0.999), eps: float = 1e-5) -> None:
        self.params = list(params)
        self.lr, self.betas, self.eps = lr, betas, eps
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, grads: Sequence[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = self.betas
        correction = np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.lr * correction * m / (np.sqrt(v) + self.eps)


def clip_by_norm(grads: list[np.ndarray], max_norm: float) -> list[np.ndarray]:
    """The gradients scaled down together so their joint norm is at most `max_norm`."""
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads)))
    if norm <= max_norm:
        return grads
    return [g * (max_norm / norm) for g in grads]
