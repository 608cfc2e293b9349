"""The registry: the one list of games, which every front end loops over.

A game is a module defining `Game` (a subclass of core.protocol.Game with a `descriptor`)
and its `State`. The four games of this package are listed below; a game from another
package registers itself through the `chuko.games` entry-point group, naming its module or
its Game class:

    [project.entry-points."chuko.games"]
    takeaway = "chuko_takeaway.game"

and then appears in the menu, `--help`, `/api/games`, the home page, simulations and the
conformance suite with no change here.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import PurePosixPath
from types import ModuleType
from typing import Any

from chuko.core import references
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game

ENTRY_POINT_GROUP = "chuko.games"
BUILT_IN = (
    "chuko.games.chuko",
    "chuko.games.crossroads",
    "chuko.games.caravan",
    "chuko.games.chuchula",
)

log = logging.getLogger("chuko.games")
# Each installed plug-in the registry left out (its entry point) → why, in one sentence.
_left_out: dict[str, str] = {}


def _game_class(loaded: Any) -> type[Game]:
    found = loaded.Game if isinstance(loaded, ModuleType) else loaded
    if not (isinstance(found, type) and issubclass(found, Game) and "descriptor" in vars(found)):
        raise TypeError(f"{loaded!r} is not a game module or a Game class with a descriptor")
    return found


def refusal(game: type[Game]) -> str | None:
    """Why the registry refuses a game, in one sentence naming it and the field at fault
    (a reference that is malformed or names nothing there); None when it takes it."""
    wrong = references.problems(game.descriptor)
    return wrong[0] if wrong else None


@cache
def registry() -> dict[str, type[Game]]:
    """Game id → Game class: the built-in games, then every installed plug-in. A plug-in
    that fails to load, that the registry refuses, or that reuses an id, is logged and left
    out, so it cannot break the others; a built-in game refused is a bug, raised."""
    games: dict[str, type[Game]] = {}
    _left_out.clear()
    for name in BUILT_IN:
        game = _game_class(import_module(name))
        wrong = refusal(game)
        if wrong:
            raise ConfigError(wrong)
        games[game.id] = game
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            game = _game_class(point.load())
        except Exception as error:
            log.exception("The game plug-in %r cannot be loaded.", point.value)
            _left_out[point.value] = f"Loading it raised {type(error).__name__}: {error}"
            continue
        wrong = refusal(game) or (f"The id {game.id!r} is another game's." if game.id in games
                                  else None)
        if wrong:
            log.error("The game plug-in %r is left out: %s", point.value, wrong)
            _left_out[point.value] = wrong
            continue
        games[game.id] = game
    return games


def left_out() -> dict[str, str]:
    """Each installed plug-in the registry left out (its entry point) → why."""
    registry()
    return dict(_left_out)


def game_ids() -> list[str]:
    """Every registered game's id, built-in games first."""
    return list(registry())


def game_class(game_id: str) -> type[Game]:
    """A registered game's rules; ConfigError names the known ids."""
    games = registry()
    if not isinstance(game_id, str) or game_id not in games:
        raise ConfigError(f"There is no game {game_id!r}; the games are {', '.join(games)}.")
    return games[game_id]


def descriptor(game_id: str) -> Descriptor:
    return game_class(game_id).descriptor


def descriptors() -> list[Descriptor]:
    return [game.descriptor for game in registry().values()]


def rules_text(game_id: str, lang: str | None = None) -> str:
    """The game's rules as Markdown, from the file its descriptor names (the summary where
    it names none): the one text the terminal and the browser both show. In language
    `lang` ("de", or "de-AT" then "de") the translation beside that file is read, named
    with the language before the suffix (rules/chuko.de.md); a language with no such file,
    English and None read the file itself, which is the English text."""
    described = descriptor(game_id)
    if described.integrations.rules is None:
        return f"# {described.title}\n\n{described.summary[0].upper()}{described.summary[1:]}.\n"
    for translated in _translations(described.integrations.rules, lang):
        try:
            return references.read_text(translated)
        except FileNotFoundError:
            continue
    return references.read_text(described.integrations.rules)


# A language tag as a file name may hold it: "de", "pt-BR" (a tag is the caller's text).
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")


def _translations(reference: str, lang: str | None) -> list[str]:
    """The references of the file's translations into `lang`, the closest first."""
    if lang is None or not _LANGUAGE_TAG.fullmatch(lang):
        return []
    package, path = references.split(reference)
    original = PurePosixPath(path)
    tags = dict.fromkeys((lang, lang.split("-")[0]))
    return [f"{package}:{original.with_name(f'{original.stem}.{tag}{original.suffix}')}"
            for tag in tags]
