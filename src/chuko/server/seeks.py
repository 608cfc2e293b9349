"""Open seeks and the lobby's limits: a seek as a player posts it over the lobby socket
(`read_seek`, any game and options its descriptor allows, casual or rated, a rating range),
checked in one sentence; what other players see of it (`public_seek`: never a player's id);
and what one player may ask of the lobby (`LobbyLimits`)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from chuko.core.errors import ConfigError
from chuko.games import descriptor, game_class

from .limits import Rate

Json = dict[str, Any]
RATING_LOW, RATING_HIGH = 0, 4000  # the ratings a seek's range may name (display scale)
DEFAULT_RATING = 1500.0  # a player with no rating yet, on the display scale
SCALE = 60.0  # display points per unit of an openskill mu (25 → 1500)


@dataclass(frozen=True)
class LobbyLimits:
    """What one player may ask of the lobby, and how often it speaks."""

    seeks: Rate = Rate(0.5, 5)  # seeks posted, per player
    toggles: Rate = Rate(2, 10)  # pool joins and leaves, per player
    seeks_per_player: int = 3  # open at once
    seeks_in_all: int = 1_000  # open at once on the server
    sockets_per_player: int = 8  # lobby sockets of one player on one worker
    messages: Rate = Rate(10, 20)  # per socket, every message
    every: float = 0.5  # seconds between two updates of the lists sent to a socket
    wave: float = 1.5  # seconds between two pairing waves
    grace: float = 10.0  # seconds a player stays in pools after their last socket closed
    bots_after: tuple[float, float] = (5.0, 300.0)  # the waits a player may choose
    keep_making: float = 30.0  # seconds before a pairing left half made is taken up again


def read_seek(data: Json) -> Json:
    """The seek a player's message describes: game, options (read as a room would), seats,
    rated and range; ConfigError in one sentence for anything wrong."""
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ConfigError("Say which game the seek is for.")
    described = descriptor(game_id)
    values = described.read_online(data.get("options"), bots_only=False)
    players = game_class(game_id).configure(values, bots_only=False).players
    if players < 2:
        raise ConfigError(f"{described.title} is played alone: start it from the home page.")
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ConfigError("Say whether the seek is rated with true or false.")
    return {"game": game_id, "options": values, "players": players, "rated": rated,
            "range": read_range(data.get("range")), "clock": None}


def read_range(given: Any) -> list[int] | None:
    """A seek's rating range, [low, high] whole numbers, or None for anyone."""
    if given is None:
        return None
    if (not isinstance(given, list) or len(given) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in given)):
        raise ConfigError("A rating range is two whole numbers, [low, high], or null.")
    low, high = given
    if not RATING_LOW <= low <= high <= RATING_HIGH:
        raise ConfigError(f"A rating range goes from low to high within {RATING_LOW} to "
                          f"{RATING_HIGH}, not {low} to {high}.")
    return [low, high]


def new_seek(read: Json, player: str, name: str, rating: float, now: float) -> Json:
    """The seek as stored: what was read, with its id, poster and time."""
    return {**read, "id": secrets.token_urlsafe(9), "player": player, "name": name,
            "rating": round(rating), "created": now, "takers": []}


def public_seek(seek: Json) -> Json:
    """What every lobby socket is told of a seek: no player's id."""
    return {"id": seek["id"], "game": seek["game"], "title": descriptor(seek["game"]).title,
            "options": seek["options"], "players": seek["players"], "rated": seek["rated"],
            "range": seek["range"], "by": seek["name"], "rating": seek["rating"],
            "seats_left": seek["players"] - 1 - len(seek["takers"]),
            "created": seek["created"]}


def rating_class(players: int) -> str:
    """The ratings' class of a table: heads-up or more."""
    return "duel" if players == 2 else "multi"
