"""How a game ends when the engine does not say: a forfeit's sentence, and the places of a
finished game with seats that went to bots.

`rooms.result` (JSON) records what the engine cannot know: `{"kind": "timeout" | "resigned"
| "left", "seat": n}` when a heads-up game ended by a forfeit; `{"kind": "aborted", "seat":
n, "why": "resigned" | "left" | "timeout" | "first_move"}` when a game between people was
aborted (`ABORT_BEFORE`); `"gone": [n, …]`, the seats a bot took over in the order they went
(the reasons are the seats' `gone`); and `"unrated": reason` when a rated game ended without
changing ratings (`ratings.UNRATED`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chuko.core.protocol import Json
from chuko.core.text import Text
from chuko.server.store.schema import SeatRow

REASONS = ("timeout", "resigned", "left")
# A forfeit (resigning, claiming, time) before the game has this many moves aborts a game
# between people; so does a seat's time running out before its first move.
ABORT_BEFORE = 2


def people(seats: Iterable[SeatRow]) -> int:
    """How many of the seats are or were played by people (a seat a bot took over was):
    with two or more, the game is between people, which a forfeit may abort."""
    return sum(seat.kind == "human" or seat.gone is not None for seat in seats)


def forfeit_sentence(result: Json, names: Sequence[str], for_seat: int | None) -> str:
    """The result of a forfeit as `for_seat` reads it: "Ann ran out of time: you win.",
    "You resigned: Bob wins."; one seat alone: "You ran out of time."; an abort: "Game
    aborted: you did not make a first move in time." """
    loser = int(result["seat"])
    name = None if loser == for_seat else names[loser]  # None: the reader forfeited
    if result["kind"] == "aborted":
        return _aborted(name)[result["why"]]
    forfeit = _forfeited(name)[result["kind"]]
    others = [seat for seat in range(len(names)) if seat != loser]
    if not others:
        return Text("{forfeit}.", forfeit=forfeit)
    if others[0] == for_seat:
        return Text("{forfeit}: you win.", forfeit=forfeit)
    return Text("{forfeit}: {winner} wins.", forfeit=forfeit, winner=names[others[0]])


def _forfeited(name: str | None) -> dict[str, Text]:
    """What the forfeiter did, by the kind of forfeit: "You resigned" for the forfeiter
    (`name` None), "Ann resigned" for the others."""
    if name is None:
        return {"timeout": Text("You ran out of time"), "resigned": Text("You resigned"),
                "left": Text("You left the game")}
    return {"timeout": Text("{name} ran out of time", name=name),
            "resigned": Text("{name} resigned", name=name),
            "left": Text("{name} left the game", name=name)}


def _aborted(name: str | None) -> dict[str, Text]:
    """Why a game was aborted, by the forfeiter's reason, for the forfeiter (`name` None)
    or the others."""
    if name is None:
        return {"first_move": Text("Game aborted: you did not make a first move in time."),
                "timeout": Text("Game aborted: you ran out of time before two moves were "
                                "played."),
                "resigned": Text("Game aborted: you resigned before two moves were played."),
                "left": Text("Game aborted: you left before two moves were played.")}
    return {"first_move": Text("Game aborted: {name} did not make a first move in time.",
                               name=name),
            "timeout": Text("Game aborted: {name} ran out of time before two moves were "
                            "played.", name=name),
            "resigned": Text("Game aborted: {name} resigned before two moves were played.",
                             name=name),
            "left": Text("Game aborted: {name} left before two moves were played.",
                         name=name)}


def ranks(seats: int, scores: Sequence[float] | None, result: Json | None) -> list[int]:
    """Each seat's place (0 first, ties share) in a finished game: a heads-up forfeiter last;
    else by `scores` (higher is better), the seats gone to bots after every other, the
    earliest gone lowest."""
    result = result or {}
    if result.get("kind") == "aborted":
        return [0] * seats  # nobody's win
    if "kind" in result:
        loser = int(result["seat"])
        return [1 if seat == loser else 0 for seat in range(seats)]
    gone = [int(seat) for seat in result.get("gone", [])]
    staying = [seat for seat in range(seats) if seat not in gone]
    places = [0] * seats
    values = list(scores) if scores is not None else [0.0] * seats
    for seat in staying:
        places[seat] = sum(values[other] > values[seat] for other in staying)
    for order, seat in enumerate(reversed(gone)):
        places[seat] = len(staying) + order
    return places

