"""The games a room can be made of: each game's options as the home page's form shows them,
and the engine configuration a room's options make.

The options are described once here (name, label, kind, default…) and both `GET /api/games`
and room creation read them, so the form and the check can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chuko.bots import bot_levels
from chuko.core.errors import ConfigError
from chuko.core.packs import PACKS, parse_pack
from chuko.core.protocol import Game, Json
from chuko.games import GAMES, game_module

# K8: human games have no turn limit unless one is chosen; a game of bots alone needs one.
BOT_TURN_LIMIT = 1000


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    kind: str  # "choice" | "int" | "text"
    default: Any
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def to_json(self) -> Json:
        data: Json = {"name": self.name, "label": self.label, "kind": self.kind,
                      "default": self.default}
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        return data

    def value(self, given: Any) -> Any:
        """The option's value from what the form sent (None: the default); ConfigError says
        what is wrong."""
        if given is None or given == "":
            return self.default
        if self.kind == "int":
            return self._int(given)
        if self.kind == "choice":
            for choice in self.choices or ():
                if given == choice or str(given).strip().lower() == str(choice):
                    return choice
            known = ", ".join(map(str, self.choices or ()))
            raise ConfigError(f"{self.label} must be one of {known}, not {given!r}.")
        if isinstance(given, list):
            given = " ".join(map(str, given))
        if not isinstance(given, str) or len(given) > 2000:
            raise ConfigError(f"{self.label} must be a short text.")
        return given

    def _int(self, given: Any) -> int:
        text = str(given).strip()
        if isinstance(given, bool) or not (text.isascii() and text.lstrip("-").isdigit()):
            raise ConfigError(f"{self.label} must be a whole number, not {given!r}.")
        number = int(text)
        low = self.min if self.min is not None else number
        high = self.max if self.max is not None else number
        if not low <= number <= high:
            limits = f"from {self.min}" + (f" to {self.max}" if self.max is not None else " up")
            raise ConfigError(f"{self.label} must be a whole number {limits}, not {number}.")
        return number


PACK = Option("pack", "Pack", "text", "standard", choices=tuple(PACKS))

OPTIONS: dict[str, tuple[Option, ...]] = {
    "chuko": (
        Option("players", "Players", "int", 2, min=2, max=8),
        PACK,
        Option("turn_limit", "Turn limit (0: none)", "int", 0, min=0, max=100_000),
    ),
    "crossroads": (
        PACK,
        Option("rounds", "Rounds", "choice", 1, choices=(1, 2)),
        Option("first", "Who starts", "choice", "random", choices=("random", "0", "1")),
    ),
    "caravan": (
        PACK,
        Option("bridges", "Bridges", "int", 2, min=0, max=11),
    ),
    "chuchula": (
        Option("players", "Players", "int", 4, min=2, max=4),
        Option("mode", "Game", "choice", "rounds", choices=("rounds", "points")),
        Option("length", "Rounds, or points to reach", "int", 5, min=1, max=100),
    ),
}


def games_json() -> list[Json]:
    """What `GET /api/games` answers: every registered game, its bot levels and options."""
    found = []
    for game_id in GAMES:
        game = game_module(game_id).Game
        found.append({
            "id": game_id,
            "title": game.title,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "levels": list(bot_levels(game_id)),
            "options": [o.to_json() for o in OPTIONS[game_id]],
        })
    return found


def read_options(game_id: str, given: Any) -> Json:
    """Every option of the game with its value (defaults filled in); ConfigError for an
    unknown game, an unknown option or a bad value."""
    if game_id not in GAMES:
        raise ConfigError(f"There is no game {game_id!r}; the games are {', '.join(GAMES)}.")
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ConfigError("The options must be an object of name → value.")
    known = {o.name: o for o in OPTIONS[game_id]}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ConfigError(
            f"{game_id} has no option {unknown[0]!r}; its options are {', '.join(known)}."
        )
    return {name: option.value(given.get(name)) for name, option in known.items()}


def make_game(game_id: str, options: Json, humans: int) -> Game:
    """The engine's configuration for a room (ConfigError when the rules refuse it)."""
    module = game_module(game_id)
    if game_id == "chuko":
        limit = options["turn_limit"] or (None if humans else BOT_TURN_LIMIT)
        return module.Game(players=options["players"], pack=options["pack"], turn_limit=limit)
    if game_id == "chuchula":
        return module.Game(options["players"], options["mode"], options["length"])
    pack = parse_pack(options["pack"])
    if game_id == "crossroads":
        first = None if options["first"] == "random" else int(options["first"])
        return module.Game(pack=pack, rounds=options["rounds"], first=first)
    return module.Game(pack=pack, bridges=options["bridges"])
