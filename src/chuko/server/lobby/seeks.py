"""Open seeks and the lobby's limits: a seek as a player posts it over the lobby socket
(`read_seek`, any game and options its descriptor allows, casual or rated, a rating range,
a clock from the lobby's menu), checked in one sentence; who may play rated (`may_play`);
what other players see of a seek (`public_seek`: never a player's id or address, its
poster's rating as the club writes it, `Standing`) and a page of them (`seek_page`); what
one player may ask of the lobby (`LobbyLimits`); and which waits and seeks stay up while
their player is away (`waits_away`: days a move)."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from typing import Any, NamedTuple

from chuko.core.descriptor import QUICK_CLOCKS, SLOW_CLOCKS
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Plural, Text
from chuko.games import descriptor, game_class
from chuko.server.rooms.clocks import read_control, realtime
from chuko.server.rooms.room import Forbidden
from chuko.server.shared.limits import Rate

RATING_LOW, RATING_HIGH = 0, 4000  # the ratings a seek's range may name (display scale)
DEFAULT_RATING = 1500.0  # a player with no rating yet, on the display scale
SCALE = 60.0  # display points per unit of an openskill mu (25 → 1500)
# The clocks a seek may choose: a pool's quick ones, and days a move for slow play.
SEEK_CLOCKS: tuple[Json, ...] = tuple(dict(clock) for clock in QUICK_CLOCKS + SLOW_CLOCKS)


class Standing(NamedTuple):
    """A player's rating as the lobby pairs and shows it: on the display scale, and in
    words, as the club writes it ("1500?" while provisional)."""

    rating: float = DEFAULT_RATING
    text: str = f"{DEFAULT_RATING:.0f}?"


ACCOUNTS_ONLY = Text("Rated games are for players with an account: sign up on the Account page "
                     "(/account) to play rated; as a guest you play casual games.")


@dataclass(frozen=True)
class LobbyLimits:
    """What one player may ask of the lobby, and how often it speaks."""

    seeks: Rate = Rate(0.5, 5)  # seeks posted, per player
    toggles: Rate = Rate(2, 10)  # pool joins and leaves, per player
    seeks_per_player: int = 3  # open at once
    seeks_per_address: int = 10  # open at once from one address, all its guests together
    seeks_in_all: int = 1_000  # open at once on the server
    first_seeks: int = 100  # the newest seeks a socket is sent on connecting; a page after
    sockets_per_player: int = 8  # lobby sockets of one player on one worker
    messages: Rate = Rate(10, 20)  # per socket, every message
    every: float = 0.5  # seconds between two updates of the lists sent to a socket
    wave: float = 1.5  # seconds between two pairing waves
    grace: float = 10.0  # seconds a player's seeks stay up after their last socket closed
    bots_after: tuple[float, float] = (5.0, 300.0)  # the waits a player may choose
    keep_making: float = 30.0  # seconds before a pairing left half made is taken up again
    slow_wait: float = 7 * 86_400.0  # seconds a wait or seek with days a move stays up


def waits_away(clock: Json | None) -> bool:
    """Whether a pool entry or a seek with this clock stays up while its player is away.

    A quick clock's game needs its players at the table at once: a player paired while no
    lobby socket of theirs is open would lose their first move's seconds before they knew,
    so a quick wait or seek ends with their last socket (a seek after `grace`). With days a
    move (correspondence), a game paired while its player is away loses nothing: they have a
    day or more for their first move and find the game on their home page and in their own
    games (`GET /api/me/games`). So, as lichess keeps a correspondence seek open while its
    poster is away, such a wait or seek stays up until its player leaves it, is paired, or
    `slow_wait` has passed since it began (the board keeps nobody waiting for ever)."""
    return clock is not None and not realtime(clock)


def lapsed(clock: Json | None, since: float, now: float, limits: LobbyLimits) -> bool:
    """Whether a wait or seek that waits away (`waits_away`), begun at `since`, is over."""
    return waits_away(clock) and now - since >= limits.slow_wait


def read_seek(data: Json) -> Json:
    """The seek a player's message describes: game, options (read as a room would), seats,
    rated, range and clock (a rated seek has one); ConfigError in one sentence for anything
    wrong."""
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ConfigError(Text("Say which game the seek is for."))
    described = descriptor(game_id)
    values = described.read_online(data.get("options"), bots_only=False)
    players = game_class(game_id).configure(values, bots_only=False).players
    if players < 2:
        raise ConfigError(Text("{title} is played alone: start it from the home page.",
                               title=described.title))
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ConfigError(Text("Say whether the seek is rated with true or false."))
    clock = read_choice(data.get("clock"), SEEK_CLOCKS, Text("a seek"))
    if rated and clock is None:
        raise ConfigError(Text("A rated seek needs a clock, so that no game can be stalled: "
                               "choose one."))
    return {"game": game_id, "options": values, "players": players, "rated": rated,
            "range": read_range(data.get("range")), "clock": clock}


def read_choice(given: Any, menu: tuple[Json, ...], what: str) -> Json | None:
    """One of `menu`'s clocks as a client names it (read as a room's clock is: whole
    numbers in range), or None for none; ConfigError in one sentence for anything else."""
    clock = read_control(given)
    if clock is None or clock in menu:
        return clock
    choices = "; ".join(clock_text(choice) for choice in menu)
    raise ConfigError(Text("The clocks of {what} are {choices}, not {clock}.", what=what,
                           choices=choices, clock=clock_text(clock)))


def clock_text(clock: Json) -> str:
    """A clock as a player reads it: "30 s a move + 1 min", "3 days a move"."""
    if clock["kind"] == "days":
        return Plural("{n} day a move", "{n} days a move", n=clock["days"])
    return Text("{move} a move + {reserve}", move=_duration(clock["seconds"]),
                reserve=_duration(clock["reserve"]))


def _duration(seconds: int) -> Text:
    if seconds >= 60 and seconds % 60 == 0:
        return Text("{minutes} min", minutes=seconds // 60)
    return Text("{seconds} s", seconds=seconds)


def may_play(rated: bool, username: str | None) -> None:
    """Forbidden for a guest (no username) asking for a rated game."""
    if rated and username is None:
        raise Forbidden(ACCOUNTS_ONLY)


def read_range(given: Any) -> list[int] | None:
    """A seek's rating range, [low, high] whole numbers, or None for anyone."""
    if given is None:
        return None
    if (not isinstance(given, list) or len(given) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in given)):
        raise ConfigError(Text("A rating range is two whole numbers, [low, high], or null."))
    low, high = given
    if not RATING_LOW <= low <= high <= RATING_HIGH:
        raise ConfigError(Text("A rating range goes from low to high within {lowest} to "
                               "{highest}, not {low} to {high}.",
                               lowest=RATING_LOW, highest=RATING_HIGH,
                           low=low, high=high))
    return [low, high]


def new_seek(read: Json, player: str, name: str, standing: Standing, now: float,
             address: str) -> Json:
    """The seek as stored: what was read, with its id, poster (and their rating), their
    address and time."""
    return {**read, "id": secrets.token_urlsafe(9), "player": player, "name": name,
            "address": address, "rating": round(standing.rating),
            "rating_text": standing.text, "created": now, "takers": []}


def public_seek(seek: Json) -> Json:
    """What every lobby socket is told of a seek: no player's id, no address."""
    return {"id": seek["id"], "game": seek["game"], "title": descriptor(seek["game"]).title,
            "options": seek["options"], "players": seek["players"], "rated": seek["rated"],
            "range": seek["range"], "clock": seek.get("clock"), "by": seek["name"],
            "rating": seek["rating"], "rating_text": seek["rating_text"],
            "seats_left": seek["players"] - 1 - len(seek["takers"]),
            "created": seek["created"]}


def seek_page(seeks: list[Json], before: Any, count: int) -> Json:
    """A page of public seeks: the newest `count` older than the cursor `before` (None: the
    newest of all), oldest first; `total`, how many are open; `next`, the cursor of the page
    before it (None: none left). A cursor is `"{created}/{id}"` of the oldest seek listed."""
    key = read_cursor(before)
    older = sorted((seek for seek in seeks if key is None or _key(seek) < key), key=_key)
    page = older[-count:] if count else []
    more = len(older) > len(page)
    return {"seeks": page, "total": len(seeks),
            "next": f"{page[0]['created']!r}/{page[0]['id']}" if more and page else None}


def _key(seek: Json) -> tuple[float, str]:
    return float(seek["created"]), str(seek["id"])


def read_cursor(given: Any) -> tuple[float, str] | None:
    """A page's cursor as a client gives it back; ConfigError for anything not one."""
    if given is None:
        return None
    created, _, seek_id = given.partition("/") if isinstance(given, str) else ("", "", "")
    try:
        at = float(created)
    except ValueError:
        at = math.nan
    if not seek_id or not math.isfinite(at):
        raise ConfigError(Text("A page of seeks starts before a cursor from the last page's "
                               '"next", as given.'))
    return at, seek_id


def rating_class(players: int) -> str:
    """The ratings' class of a table: heads-up or more."""
    return "duel" if players == 2 else "multi"
