"""Words the engines build sentences from, so every front end says the same thing.

Seats are people: a sentence names a seat by the name its front end gave (a player's name,
"Hard bot") and says "You" to the seat reading it. Seat numbers appear only in machine
output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def who(seat: int, names: Sequence[str], for_seat: int | None) -> str:
    """The subject of a sentence about `seat`, as `for_seat` reads it: "You" or a name."""
    return "You" if seat == for_seat else names[seat]


def whose(seat: int, names: Sequence[str], for_seat: int | None) -> str:
    """The possessive: "your" or "Ann's"."""
    return "your" if seat == for_seat else f"{names[seat]}'s"


def listing(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def count(number: int, noun: str, plural: str | None = None) -> str:
    """'1 point', '3 points'; `plural` where adding s is wrong."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"


def number_text(value: float) -> str:
    """A score as people write it: 3, not 3.0; 2.5 stays 2.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def score_line(scores: Sequence[float]) -> str:
    """'5–2', '3–3', '4–1–1' with an en dash, in seat order."""
    return "–".join(number_text(s) for s in scores)


def bot_name(level: str) -> str:
    """How a bot of a level is named to people: "Hard bot"."""
    return f"{level.capitalize()} bot"


def seat_names(labels: Sequence[str]) -> list[str]:
    """Names for seats from labels that may repeat: two "Easy bot" seats become "Easy bot 1"
    and "Easy bot 2", so every sentence says which one is meant."""
    totals = Counter(labels)
    seen: Counter[str] = Counter()
    names = []
    for label in labels:
        if totals[label] > 1:
            seen[label] += 1
            names.append(f"{label} {seen[label]}")
        else:
            names.append(label)
    return names
