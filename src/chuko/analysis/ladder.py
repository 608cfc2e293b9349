"""Fixed, versioned ladders: an arena a paper can cite, the same numbers on the same version.

A ladder is a data file (`chuko/data/ladder-<name>.json`, or any file given by its path)
that pins, for each game it covers, the game's options, the built-in levels with the bot
version of each, the games per pairing, the seed, the search budget and the bootstrap's
resamples, with the chuko version it was made with. `chuko arena GAME --ladder v1` plays
exactly that, with any `--agent`s added, and names the ladder and every version in its
output, with a line to cite.

A bot's version lives in `chuko/data/bot-versions.json` with a fingerprint of its
behaviour: a hash of the moves it chooses in a few seeded games (`fingerprint`). A test
recomputes every fingerprint, so a change to a bot's play cannot pass unnoticed: its
version goes up and the new fingerprint is recorded. A ladder run whose bots or chuko
differ from the versions it pinned says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from random import Random
from typing import Any

import chuko
from chuko.analysis.agents import Agent, play_judged
from chuko.bots import Bot
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json
from chuko.core.text import Text
from chuko.games import game_class

BOT_VERSIONS = "bot-versions.json"
FINGERPRINT_GAMES = 2  # seeded games of a level against itself
FINGERPRINT_BUDGET = {"simulations": 50}  # for the levels that search
RESAMPLES = 1000  # the bootstrap's, where a ladder file does not say


@dataclass(frozen=True)
class Ladder:
    """One game's part of a ladder file."""

    name: str  # the file's "ladder" ("v1"), else the name it was asked by
    chuko: str  # the chuko version the ladder was made with
    game: Game
    options: Json
    levels: dict[str, int]  # level → its bot version when the ladder was made
    games: int  # per pairing
    seed: int
    budget: dict[str, Any]
    resamples: int  # of the bootstrap intervals

    def drift(self) -> list[str]:
        """A sentence for each version that differs from the ladder's: chuko's, a bot's."""
        said = []
        if chuko.__version__ != self.chuko:
            said.append(f"Ladder {self.name} was made with chuko {self.chuko}; this is chuko "
                        f"{chuko.__version__}.")
        current = bot_versions(self.game.id)
        for level, version in self.levels.items():
            running = current.get(level)
            if running != version:
                now = f"version {running}" if running else "not versioned"
                said.append(f"Ladder {self.name} pins the {level} bot at version {version}; "
                            f"this chuko's is {now}.")
        return said

    def citation(self) -> str:
        """One line naming everything that fixes the numbers, for a paper."""
        bots = ", ".join(f"{level} v{version}" for level, version in self.levels.items())
        return (f"chuko arena {self.game.id} --ladder {self.name} (ladder made with chuko "
                f"{self.chuko}; bots {bots}; run with chuko {chuko.__version__})")

    def to_json(self) -> Json:
        current = bot_versions(self.game.id)
        return {"ladder": self.name, "cite": self.citation(), "chuko_version": self.chuko,
                "chuko_version_running": chuko.__version__,
                "bots": [{"level": level, "version": version, "running": current.get(level)}
                         for level, version in self.levels.items()],
                "games": self.games, "seed": self.seed, "budget": self.budget,
                "resamples": self.resamples,
                "as_pinned": not self.drift()}


def _read(path: Path | Any, what: str) -> Json:
    try:
        found: Json = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigError(Text("Cannot read the ladder {name}: {reason}.", name=what,
                               reason=str(error))) from None
    if not isinstance(found, dict):
        raise ConfigError(Text("The ladder {name} is not a JSON object.", name=what))
    return found


def shipped(name: str) -> Any:
    return files(chuko.__name__).joinpath("data", f"ladder-{name}.json")


def load_ladder(name: str, game_id: str) -> Ladder:
    """The part for `game_id` of the shipped ladder `name` (`v1`) or of a ladder file (a path
    ending in .json); ConfigError in one sentence for a ladder that does not exist or lacks
    the game."""
    if name.endswith(".json"):
        if not Path(name).is_file():
            raise ConfigError(Text("There is no ladder file {name}.", name=name))
        found = _read(Path(name), name)
    else:
        if not shipped(name).is_file():
            raise ConfigError(Text("There is no ladder {name}; the shipped ladders are "
                                   "{ladders}.", name=repr(name),
                                   ladders=", ".join(shipped_ladders())))
        found = _read(shipped(name), name)
    entry = found.get("games", {}).get(game_id)
    if not isinstance(entry, dict):
        covered = ", ".join(found.get("games", {}))
        title = game_class(game_id).descriptor.title
        raise ConfigError(Text("Ladder {name} has no {game}; it covers {games}.", name=name,
                               game=title, games=covered) if covered else
                          Text("Ladder {name} has no {game}; it covers no game.", name=name,
                               game=title))
    try:
        game = game_class(game_id).from_options(entry.get("options", {}), bots_only=True)
        return Ladder(str(found.get("ladder", name)), str(found["chuko_version"]), game,
                      game.descriptor.read_options(entry.get("options", {})),
                      {str(k): int(v) for k, v in entry["levels"].items()},
                      int(entry["games"]), int(entry["seed"]), dict(entry.get("budget", {})),
                      int(entry.get("resamples", RESAMPLES)))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        reason = f"{type(error).__name__}: {error}"
        raise ConfigError(Text("Ladder {name} is malformed for {game} ({reason}).", name=name,
                               game=game_id, reason=reason)) from None


def shipped_ladders() -> list[str]:
    return sorted(entry.name.removeprefix("ladder-").removesuffix(".json")
                  for entry in files(chuko.__name__).joinpath("data").iterdir()
                  if entry.name.startswith("ladder-") and entry.name.endswith(".json"))


def recorded_bots() -> Json:
    """game id → level → {"version", "fingerprint"}, as shipped."""
    found: Json = _read(files(chuko.__name__).joinpath("data", BOT_VERSIONS), "the bot versions")
    return dict(found["bots"])


def bot_versions(game_id: str) -> dict[str, int]:
    """level → the version of this chuko's bot of that level for `game_id`."""
    return {level: int(entry["version"])
            for level, entry in recorded_bots().get(game_id, {}).items()}


def fingerprint(game_id: str, level: str) -> str:
    """A hash of the moves bots of `level` choose playing each other in a few seeded games of
    `game_id` (default options; the search levels at a fixed number of simulations): it
    changes when the level's play does (or the engine's deals do)."""
    game = game_class(game_id).from_options({}, bots_only=True)
    agent = Agent(level, "level")
    digest = hashlib.sha256()
    for number in range(FINGERPRINT_GAMES):
        bots = [_Heard(agent.bot(game, Random(number * game.players + seat),
                                 FINGERPRINT_BUDGET), digest)
                for seat in range(game.players)]
        play_judged(game.new(number), [agent] * game.players, bots)
    return digest.hexdigest()[:16]


class _Heard:
    """A bot whose every choice (as text) goes into a hash."""

    def __init__(self, bot: Bot, digest: Any) -> None:
        self.bot, self.digest, self.level = bot, digest, bot.level

    def choose(self, view: Json, legal_moves: list[Any]) -> Any:
        move = self.bot.choose(view, legal_moves)
        self.digest.update(f"{move}\n".encode())
        return move
