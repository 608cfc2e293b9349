"""A Chükö pack costs memory in proportion to its size, freed with the game
that holds it, and no cache in the package grows without a bound."""

from __future__ import annotations

import gc
import importlib
import inspect
import pkgutil
import tracemalloc
from random import Random

import chuko
from chuko.games.chuko import Game, Move, may_follow


def test_eight_games_with_big_packs_hold_little_memory_and_free_it():
    gc.collect()
    tracemalloc.start()
    try:
        states = []
        for i in range(8):  # the eight rooms: 8 players, 1,000 cards each
            low = 200_000 + i * 7_919
            states.append(Game(players=8, pack=f"{low}-{low + 999}").new(i))
        held = tracemalloc.get_traced_memory()[0]
        del states
        gc.collect()
        left = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 2_000_000  # was about 250 MB: a table of followers per pack, kept forever
    assert left < 100_000


def test_legal_moves_follow_ruling_k1_for_every_top_card():
    game = Game(players=2, pack=(1, 1, 2, 3, 4, 6, 9, 9, 15, 35, 49))  # 1s and repeats
    rng = Random(3)
    for _ in range(200):
        state = game.new(rng=rng)
        seat, top = state.to_move[0], state.top
        cards = sorted({c for c in state.hand(seat) if may_follow(c, top)})
        assert state.legal_moves(seat) == [Move(c) for c in cards] + [Move(None)]


def _caches():
    """Every functools cache in the package's modules, by its qualified name."""
    for info in pkgutil.walk_packages(chuko.__path__, "chuko."):
        if ".migrations" in info.name:  # Alembic's scripts, run by Alembic alone
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if callable(getattr(value, "cache_info", None)) and value.__module__ == info.name:
                yield f"{info.name}.{name}", value


def test_every_cache_with_arguments_has_a_maxsize():
    found = dict(_caches())
    assert "chuko.games.chuko._move" in found  # the walk does find the caches
    unbounded = [name for name, cached in found.items()
                 if cached.cache_parameters()["maxsize"] is None
                 and inspect.signature(cached.__wrapped__).parameters]
    assert unbounded == []
