"""Randomness: seeded and reproducible for tests and studies, secret otherwise."""

import random
import secrets


def make_rng(seed: int | None = None) -> random.Random:
    """A seeded `random.Random`, or `secrets.SystemRandom` when no seed is given."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(seed)
