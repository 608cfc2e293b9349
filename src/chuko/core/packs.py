"""Packs of Chükö cards: named packs, explicit lists and ranges (rulings G2, G5)."""

import re
from collections.abc import Iterable
from typing import Any

from .errors import ConfigError, ParseError
from .numbers import MAX_CARD, whole_number
from .text import Text

# ruling G5: `standard` is the default for every Chükö game.
PACKS: dict[str, tuple[int, ...]] = {
    "standard": (2, 6, 7, 8, 9, 10, 11, 14, 15, 21, 22, 30),
    "plain": (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
    "composite": (4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21),
    "primes": (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37),
    "large": tuple(range(2, 31)),
}

_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$", re.ASCII)
# Chükö deals at most 5 cards a hand, so a thousand cards serve hundreds of players.
_MAX_PACK = 1_000


def parse_pack(text: str) -> tuple[int, ...]:
    """A pack from a name ('plain'), a list ('2,6,7' or '2 6 7') or ranges ('2-13', '2-9,15')."""
    text = text.strip()
    if not text:
        raise ParseError(Text("The pack is empty: give a name, a list like 2,6,7 or a range like "
                               "2-13."))
    named = PACKS.get(text.lower())
    if named is not None:
        return named
    cards: list[int] = []
    for part in re.split(r"[,\s]+", text):
        if not part:
            continue
        span = _RANGE.match(part)
        if span:
            low, high = int(span[1]), int(span[2])
            if low > high:
                raise ParseError(Text("The range {range} runs backwards: write the low end first.",
                                       range=part))
            if high - low >= _MAX_PACK:
                raise ParseError(Text("The range {range} is too large for a pack.", range=part))
            cards.extend(range(low, high + 1))
        elif (card := whole_number(part)) is not None:
            cards.append(card)
        else:
            names = ", ".join(PACKS)
            raise ParseError(Text(
                "{word} is not a card, a range or a pack name (named packs: {names}).",
                word=repr(part), names=names))
        if len(cards) > _MAX_PACK:
            raise ParseError(Text("A pack has at most {most:,} cards.", most=_MAX_PACK))
    if any(card < 1 for card in cards):
        raise ParseError(Text("Cards are positive whole numbers; 0 is not a card."))
    if any(card > MAX_CARD for card in cards):
        raise ParseError(Text("Cards go up to {most:,}.", most=MAX_CARD))
    return tuple(cards)


def as_pack(value: Any) -> tuple[int, ...]:
    """Every game constructor's reading of a pack: text as `parse_pack` reads it, or an
    iterable of cards; ParseError or ConfigError in one sentence otherwise."""
    if isinstance(value, str):
        return parse_pack(value)
    if not isinstance(value, Iterable):
        raise ConfigError(Text("A pack is a name, a list of cards or a range such as 2-13."))
    cards = tuple(value)
    if len(cards) > _MAX_PACK:
        raise ConfigError(Text("A pack has at most {most:,} cards.", most=_MAX_PACK))
    if not all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= MAX_CARD
               for c in cards):
        raise ConfigError(Text("A pack's cards are whole numbers from 1 to {most:,}.",
                                most=MAX_CARD))
    return cards


def pack_text(pack: tuple[int, ...]) -> str:
    """Canonical text of a pack: its name when it is a named pack, else a comma list."""
    for name, cards in PACKS.items():
        if cards == pack:
            return name
    return ",".join(map(str, pack))
