"""Bots by game and level. A bot sees its seat's view and the legal moves, nothing more:

    bot = make_bot("crossroads", "perfect", rng)
    move = bot.choose(state.view(seat), state.legal_moves(seat))

Levels have the same names everywhere: random, easy, hard, and perfect where an
exact solver exists.
"""

from importlib import import_module
from random import Random
from typing import Any, Protocol

from chuko.core.errors import ConfigError

BOTS: dict[str, str] = {
    "chuko": "chuko.bots.chuko",
    "crossroads": "chuko.bots.layout",
    "caravan": "chuko.bots.layout",
    "chuchula": "chuko.bots.chuchula",
}


class Bot(Protocol):
    level: str

    def choose(self, view: dict[str, Any], legal_moves: list[Any]) -> Any: ...


def bot_levels(game_id: str) -> tuple[str, ...]:
    """The levels a game's bots come in, weakest first."""
    return import_module(BOTS[game_id]).levels(game_id)


def parse_levels(text: str, game_id: str, count: int, option: str = "--vs") -> list[str]:
    """`easy,hard` as one bot level per seat for `count` seats; one level fills every seat."""
    levels = [w.strip().lower() for w in text.split(",") if w.strip()]
    known = bot_levels(game_id)
    for level in levels:
        if level not in known:
            raise ConfigError(f"There is no {level!r} bot; choose from {', '.join(known)}.")
    if len(levels) == 1:
        levels *= count
    if len(levels) != count:
        raise ConfigError(f"{option} names {len(levels)} bot(s) for {count} seat(s).")
    return levels


def make_bot(game_id: str, level: str, rng: Random | None = None, **options: Any) -> Bot:
    """A bot of `level` for `game_id`; ConfigError names the levels that exist."""
    levels = bot_levels(game_id)
    if level not in levels:
        known = ", ".join(levels)
        raise ConfigError(f"There is no {level!r} bot for {game_id}; choose from {known}.")
    return import_module(BOTS[game_id]).make_bot(game_id, level, rng or Random(), **options)
