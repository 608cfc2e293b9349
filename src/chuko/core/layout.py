"""The 4×3 layout of Crossroads and Caravan and its move notation (rulings G3, G4).

Positions are `A B C D / E F G H / I J K L`; only the leftmost remaining card
of each row is available.
"""

import re
from dataclasses import dataclass

from .errors import ParseError
from .numbers import MAX_CARD, whole_number
from .text import Text

ROWS, COLUMNS = 3, 4
SIZE = ROWS * COLUMNS
LETTERS = "ABCDEFGHIJKL"


def parse_layout(text: str) -> tuple[int, ...]:
    """Twelve cards from layout text such as '6 15 10 7 / 9 14 8 11 / 2 21 22 30'."""
    rows = text.strip().split("/")
    if len(rows) != ROWS:
        raise ParseError(Text("A deal is three rows of four cards separated by '/', not "
                              "{rows} row(s).", rows=len(rows)))
    cards: list[int] = []
    for number, row in enumerate(rows, 1):
        words = [w for w in re.split(r"[,\s]+", row.strip()) if w]
        if len(words) != COLUMNS:
            raise ParseError(Text("Row {row} of the deal has {cards} card(s); it needs four.",
                                   row=number, cards=len(words)))
        for word in words:
            card = whole_number(word)
            if card is None or card < 1:
                raise ParseError(Text("{word} in row {row} is not a card (a positive number).",
                                       word=repr(word), row=number))
            if card > MAX_CARD:
                raise ParseError(Text("{word} in row {row} is too large: the largest card is "
                                      "{most:,}.", word=word, row=number, most=MAX_CARD))
            cards.append(card)
    return tuple(cards)


def layout_text(cards: tuple[int, ...]) -> str:
    """Canonical layout text: cards separated by spaces, rows by ' / '."""
    return " / ".join(
        " ".join(str(c) for c in cards[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS)
    )


def available_positions(taken: tuple[int, ...]) -> list[int]:
    """Positions (0–11) of the cards that may be taken, given how many each row has lost."""
    return [r * COLUMNS + t for r, t in enumerate(taken) if t < COLUMNS]


def take(taken: tuple[int, ...], position: int) -> tuple[int, ...]:
    """The row counts after taking the card at `position` (which must be available)."""
    row = position // COLUMNS
    return taken[:row] + (taken[row] + 1,) + taken[row + 1 :]


_MOVE = re.compile(r"^([A-L])([LR])?(\*)?$")


@dataclass(frozen=True)
class LayoutMove:
    """Take the card at `position` and place it at `end` ('L', 'R', or None for a first card);
    `bridge` places it face down (Caravan). Text: 'A', 'BR', 'FL*' (ruling G4)."""

    position: int
    end: str | None = None
    bridge: bool = False

    @property
    def position_name(self) -> str:
        return LETTERS[self.position]

    def __str__(self) -> str:
        return LETTERS[self.position] + (self.end or "") + ("*" if self.bridge else "")

    @classmethod
    def parse(cls, text: str) -> "LayoutMove":
        """Parse a move case-insensitively; raise ParseError with a hint otherwise."""
        found = _MOVE.match(text.strip().upper())
        if not found:
            raise ParseError(Text(
                "{word} is not a move: write the card's letter A–L, then L or R for the end "
                "(e.g. BR), or the letter alone for a first card.", word=repr(text.strip())))
        letter, end, star = found.groups()
        if star and not end:
            raise ParseError(Text("A bridge needs an end: write e.g. FL* or FR*."))
        return cls(LETTERS.index(letter), end, bool(star))


def parse_moves(text: str) -> list[LayoutMove]:
    """A sequence of moves separated by spaces or commas."""
    return [LayoutMove.parse(w) for w in re.split(r"[,\s]+", text.strip()) if w]
