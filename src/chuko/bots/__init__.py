"""Bots and advisers by game, found through each game's descriptor. A bot sees its seat's
view and the legal moves, nothing more:

    bot = make_bot("crossroads", "perfect", rng)
    move = bot.choose(state.view(seat), state.legal_moves(seat))

Levels have the same names everywhere: random, easy, hard, and perfect where an exact
solver exists. A game's bots module offers `make_bot(level, rng, **options)`; a game with
no bots module gets the random bot, which picks among the legal moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Protocol

from chuko.core import references
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.games import descriptor


class Bot(Protocol):
    level: str

    def choose(self, view: Json, legal_moves: list[Any]) -> Any: ...


class Adviser(Protocol):
    """One game's hints; an adviser may keep what it learns across positions of one deal."""

    def hint(self, state: State, seat: int) -> Json:
        """`{"values": {move text: label}, "note": sentence}` for `seat`, whose turn it is;
        an adviser that knows how each move ends the game adds `"outlook": {move text:
        "win" | "draw" | "loss"}`, which screens colour the labels by."""
        ...


class RandomBot:
    """Any legal move, uniformly: every game that lists its moves has this level."""

    level = "random"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: Json, legal_moves: list[Any]) -> Any:
        if not legal_moves:
            raise ConfigError("The random bot needs the legal moves to choose from.")
        return self.rng.choice(legal_moves)


def refuse_options(options: Mapping[str, Any], bots: str) -> None:
    """ConfigError naming the options given to `bots` (e.g. "Caravan bots"), which take none."""
    if options:
        raise ConfigError(f"{bots} take no options, not {', '.join(options)}.")


def bot_levels(game_id: str) -> tuple[str, ...]:
    """The levels a game's bots come in, weakest first."""
    return descriptor(game_id).levels


def parse_levels(text: str, game_id: str, count: int, option: str = "--vs",
                 others: tuple[str, ...] = ()) -> list[str]:
    """`easy,hard` as one bot level per seat for `count` seats, whatever their number: a
    shorter list repeats in order to fill them (`easy,hard` for 3 seats is easy, hard,
    easy). `others` are words a front end takes besides the levels (`human`)."""
    levels = [w.strip().lower() for w in text.split(",") if w.strip()]
    known = (*bot_levels(game_id), *others)
    if not levels:
        raise ConfigError(f"{option} names no bot; choose from {', '.join(known)}.")
    for level in levels:
        if level not in known:
            raise ConfigError(f"There is no {level!r} bot; choose from {', '.join(known)}.")
    if len(levels) > count:
        raise ConfigError(f"{option} names {len(levels)} bots, more than the seats to fill "
                          f"({count}).")
    return [levels[seat % len(levels)] for seat in range(count)]


def make_bot(game_id: str, level: str, rng: Random | None = None, **options: Any) -> Bot:
    """A bot of `level` for `game_id`; ConfigError names the levels that exist."""
    described = descriptor(game_id)
    if level not in described.levels:
        known = ", ".join(described.levels)
        raise ConfigError(f"There is no {level!r} bot for {described.title}; choose from {known}.")
    rng = rng or Random()
    if described.integrations.bots is None:
        return RandomBot(rng)
    bot: Bot = references.load(described.integrations.bots)(level, rng, **options)
    return bot


def review(game: Game, record: Json) -> list[Json | None] | None:
    """The game's post-game review of a finished record (see `Integrations.review`), one verdict
    per move (None for a move it leaves out); None when the game has no review."""
    named = game.descriptor.integrations.review
    if named is None:
        return None
    verdicts: list[Json | None] = references.load(named)(record)
    return verdicts


def make_adviser(game: Game) -> Adviser | None:
    """The hint provider the game's descriptor names, for this configuration; None when the
    game gives no hints."""
    named = game.descriptor.integrations.hints
    if named is None:
        return None
    adviser: Adviser = references.load(named)(game)
    return adviser
