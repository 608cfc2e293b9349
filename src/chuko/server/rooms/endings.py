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
from chuko.core.words import who
from chuko.server.store.schema import SeatRow

REASONS = ("timeout", "resigned", "left")
_DID = {"timeout": "ran out of time", "resigned": "resigned", "left": "left the game"}
# A forfeit (resigning, claiming, time) before the game has this many moves aborts a game
# between people; so does a seat's time running out before its first move.
ABORT_BEFORE = 2
_ABORTED = {"first_move": "did not make a first move in time",
            "timeout": "ran out of time before two moves were played",
            "resigned": "resigned before two moves were played",
            "left": "left before two moves were played"}


def people(seats: Iterable[SeatRow]) -> int:
    """How many of the seats are or were played by people (a seat a bot took over was):
    with two or more, the game is between people, which a forfeit may abort."""
    return sum(seat.kind == "human" or seat.gone is not None for seat in seats)


def forfeit_sentence(result: Json, names: Sequence[str], for_seat: int | None) -> str:
    """The result of a forfeit as `for_seat` reads it: "Ann ran out of time: you win.",
    "You resigned: Bob wins."; one seat alone: "You ran out of time."; an abort: "Game
    aborted: you did not make a first move in time." """
    loser = int(result["seat"])
    if result["kind"] == "aborted":
        name = who(loser, names, for_seat)
        return f"Game aborted: {'you' if name == 'You' else name} {_ABORTED[result['why']]}."
    sentence = f"{who(loser, names, for_seat)} {_DID[result['kind']]}"
    others = [seat for seat in range(len(names)) if seat != loser]
    if not others:
        return f"{sentence}."
    winner = who(others[0], names, for_seat)
    if winner == "You":
        return f"{sentence}: you win."
    return f"{sentence}: {winner} wins."


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

