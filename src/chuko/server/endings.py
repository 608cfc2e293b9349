"""How a game ends when the engine does not say: a forfeit's sentence, and the places of a
finished game with seats that went to bots.

`rooms.result` (JSON) records what the engine cannot know: `{"kind": "timeout" | "resigned"
| "left", "seat": n}` when a heads-up game ended by a forfeit, and `"gone": [n, …]`, the
seats a bot took over in the order they went (the reasons are the seats' `gone`).
"""

from __future__ import annotations

from collections.abc import Sequence

from chuko.core.protocol import Json
from chuko.core.words import who

REASONS = ("timeout", "resigned", "left")
_DID = {"timeout": "ran out of time", "resigned": "resigned", "left": "left the game"}


def forfeit_sentence(result: Json, names: Sequence[str], for_seat: int | None) -> str:
    """The result of a forfeit as `for_seat` reads it: "Ann ran out of time: you win.",
    "You resigned: Bob wins."; one seat alone: "You ran out of time." """
    loser = int(result["seat"])
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
