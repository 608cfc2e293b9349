"""Take-away's bots: random, and perfect (leave the other a multiple of most + 1)."""

from random import Random
from typing import Any


class Bot:
    def __init__(self, level: str, rng: Random) -> None:
        self.level, self.rng = level, rng

    def choose(self, view: dict[str, Any], legal_moves: list[int]) -> int:
        best = view["left"] % (len(legal_moves) + 1) if self.level == "perfect" else 0
        return best if best in legal_moves else self.rng.choice(legal_moves)


def make_bot(level: str, rng: Random, **options: Any) -> Bot:
    return Bot(level, rng)
