"""The registry: game ids to their rules modules, so front ends loop over games.

Every module registered here defines `Game` (a subclass of core.protocol.Game)
and a `State`; adding a game is one new module and one line below.
"""

from importlib import import_module
from types import ModuleType

GAMES: dict[str, str] = {
    "chuko": "chuko.games.chuko",
    "crossroads": "chuko.games.crossroads",
    "caravan": "chuko.games.caravan",
    "chuchula": "chuko.games.chuchula",
}


def game_module(game_id: str) -> ModuleType:
    """The rules module of a registered game; KeyError names the known ids."""
    if game_id not in GAMES:
        raise KeyError(f"Unknown game {game_id!r}; the games are {', '.join(GAMES)}.")
    return import_module(GAMES[game_id])
