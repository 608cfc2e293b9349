"""A tournament's settings as a client or the schedule gives them, each checked
(`read_settings`: one sentence for the first thing wrong, nothing stored), and its rules in
words, as its page states them (`rules_in_words`)."""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.games import game_class, registry
from chuko.server.rooms.clocks import read_control

NAME_LENGTH = (3, 40)
MAX_AHEAD = 30 * 24 * 3600  # seconds ahead a tournament may start, at most
LATE = 60.0  # seconds in the past a start may be given (the client's clock), then "now"
ARENA_MINUTES = (5, 720)
SWISS_ROUNDS = (2, 15)
RATINGS = (0, 4000)  # the bounds of a rating range
PASSWORD_LENGTH = 64
SYSTEMS = ("arena", "swiss")
FIELDS = {"name", "game", "options", "clock", "rated", "system", "starts_at", "minutes",
          "rounds", "rating_min", "rating_max", "password"}


@dataclass(frozen=True)
class Settings:
    """A tournament's settings, checked."""

    name: str
    game: str
    options: dict[str, Any]
    clock: dict[str, Any]
    rated: bool
    system: str
    table_size: int
    starts_at: float
    minutes: int | None
    rounds: int | None
    rating_min: int | None
    rating_max: int | None
    password: str | None


def read_settings(data: Any, now: float, *, account: bool) -> Settings:
    """The settings of a new tournament from `data` (a JSON object), made by an account
    (`account`) or not: ConfigError with one sentence for the first thing wrong."""
    if not isinstance(data, dict):
        raise ConfigError(Text("A tournament's settings are a JSON object."))
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise ConfigError(Text("A tournament has no setting {setting!r}.", setting=unknown[0]))
    system = data.get("system")
    if system not in SYSTEMS:
        raise ConfigError(Text('A tournament\'s system is "arena" or "swiss".'))
    game, options, size = _game(data.get("game"), data.get("options"))
    clock = read_control(data.get("clock"))
    if clock is None:
        raise ConfigError(Text("A tournament's games need a clock."))
    if system == "arena" and (size != 2 or clock["kind"] != "move"):
        raise ConfigError(Text("An arena pairs heads-up games on a per-move clock; tables of "
                               "more, or days a move, are for a Swiss."))
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ConfigError(Text("Say whether the tournament is rated with true or false."))
    if rated and not account:
        raise ConfigError(Text("Only an account may play rated: log in, or make it casual."))
    low = _rating(data.get("rating_min"), Text("lowest"))
    high = _rating(data.get("rating_max"), Text("highest"))
    if low is not None and high is not None and low >= high:
        raise ConfigError(Text("A rating range's lowest rating must be below its highest."))
    return Settings(
        _name(data.get("name")), game, options, clock, rated, system, size,
        _start(data.get("starts_at"), now),
        _whole(data.get("minutes"), ARENA_MINUTES, Text("An arena lasts {low} to {high} minutes.",
                                                        low=ARENA_MINUTES[0],
                                                        high=ARENA_MINUTES[1]))
        if system == "arena" else None,
        _whole(data.get("rounds"), SWISS_ROUNDS, Text("A Swiss has {low} to {high} rounds.",
                                                      low=SWISS_ROUNDS[0], high=SWISS_ROUNDS[1]))
        if system == "swiss" else None,
        low, high, _password(data.get("password")))


def _name(value: Any) -> str:
    low, high = NAME_LENGTH
    if not isinstance(value, str) or not low <= len(value.strip()) <= high \
            or not value.isprintable():
        raise ConfigError(Text("A tournament's name is {low} to {high} printable characters.",
                               low=low, high=high))
    return " ".join(value.split())


def _game(game_id: Any, given: Any) -> tuple[str, dict[str, Any], int]:
    """The game, its options read as a room on this server reads them, and its table's
    size, which one of the game's pools must seat."""
    if not isinstance(game_id, str) or game_id not in registry():
        raise ConfigError(Text("There is no game {game!r}.", game=str(game_id)[:64]))
    if given is not None and not isinstance(given, dict):
        raise ConfigError(Text("A tournament's options are a JSON object."))
    rules = game_class(game_id)
    described = rules.descriptor
    values = described.read_online(given, bots_only=False)
    size = rules.configure(values, bots_only=False).players
    if not any(pool.players == size for pool in described.pools):
        raise ConfigError(Text("{title} has no pool of {size} players, so no "
                               "tournament of them.", title=described.title, size=size))
    return game_id, values, size


def _start(value: Any, now: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not now - LATE <= value <= now + MAX_AHEAD:
        raise ConfigError(Text("A tournament starts between now and 30 days from now (seconds "
                               "since the epoch)."))
    return max(float(value), now)


def _whole(value: Any, bounds: tuple[int, int], refusal: Text) -> int:
    """`value`, a whole number within `bounds`; ConfigError saying `refusal` otherwise."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(refusal)
    return value


def _rating(value: Any, which: str) -> int | None:
    low, high = RATINGS
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(Text("A rating range's {which} rating is a whole number from {low} to "
                               "{high}, or null.", which=which, low=low, high=high))
    return value


def _password(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > PASSWORD_LENGTH:
        raise ConfigError(Text("A tournament's password is up to {most} characters.",
                               most=PASSWORD_LENGTH))
    return value


def password_hash(tournament_id: str, password: str) -> str:
    """The entry code as stored: a SHA-256 of the tournament's id and the code."""
    return hashlib.sha256(f"{tournament_id}:{password}".encode()).hexdigest()


def password_matches(tournament_id: str, stored: str | None, given: Any) -> bool:
    """Whether `given` opens a tournament whose stored code is `stored` (None: open)."""
    if stored is None:
        return True
    return isinstance(given, str) and hmac.compare_digest(
        stored, password_hash(tournament_id, given[:PASSWORD_LENGTH]))


def rules_in_words(system: str, table_size: int, minutes: int | None,
                   rounds: int | None) -> list[str]:
    """The tournament's rules as its page states them."""
    if system == "arena":
        return [Text("An arena of {minutes} minutes: when your game ends you are paired "
                     "again at once, with a player near you in points and rating (never the "
                     "same opponent twice in a row).", minutes=minutes),
                Text("A win scores 2 points and a draw 1; after two wins in a row you are on "
                     "fire: a win scores 4 and a draw 2, until a draw or a loss ends the "
                     "streak."),
                Text("You may pause and come back; a player who loses a game without making a "
                     "move is paused. Games still running at the end count."),
                Text("Ties in points are broken by rating at entry.")]
    late = Text("Players who join late enter the next round with 0; withdrawn players are not "
                "paired.")
    if table_size > 2:
        return [Text("A Swiss of {rounds} rounds: each round seats tables of {size} by "
                     "score (bots take the seats left), and a place scores a point for each "
                     "player placed below it and half for each tied with it.", rounds=rounds,
                     size=table_size), late,
                Text("Ties in points are broken by rating at entry.")]
    return [Text("A Swiss of {rounds} rounds: each round pairs players within their score "
                 "group, never against the same opponent twice; with an odd number one player "
                 "has a bye, worth a win.", rounds=rounds),
            Text("A win scores 1, a draw ½ and a loss 0. {late}", late=late),
            Text("Ties are broken by Buchholz (the sum of your opponents' scores; a bye counts "
                 "as a game against your own score), then by Sonneborn–Berger (the scores of "
                 "the opponents you beat, and half of those you drew with), then by rating.")]
