"""The standard 52-card deck and its card text (docs/architecture.md, "Card text").

Input takes the rank `A K Q J 10 9 … 2` (`T` for ten) and the suit `s h d c`
or `♠ ♥ ♦ ♣` in either order, in any case: `As`, `A♠`, `♠A`, `10h`, `Th`.
Records write `As 10h`; screens write `A♠ 10♥` (`Card.symbol_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ParseError
from .text import Text

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
SUITS = "shdc"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")

_RANK_OF = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}
_SUIT_OF = {s: s for s in SUITS} | {symbol: s for s, symbol in SUIT_SYMBOLS.items()}
_RANK = r"(?:10|[2-9TJQKA])"
_SUIT = r"[SHDC♠♥♦♣]"
_RANK_FIRST = re.compile(rf"(?:{_RANK}{_SUIT})+")
_SUIT_FIRST = re.compile(rf"(?:{_SUIT}{_RANK})+")
_ONE_CARD = re.compile(rf"({_RANK})({_SUIT})|({_SUIT})({_RANK})")


@dataclass(frozen=True, order=True, slots=True, repr=False)
class Card:
    """A card of the 52-card deck: rank 2–14 (ace high, ruling H1) and suit 's', 'h', 'd', 'c'.

    Cards order by rank, then suit (clubs < diamonds < hearts < spades), which only
    serves to sort hands: suits never break ties between groups."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES or self.suit not in SUITS:
            raise ParseError(Text("There is no card with rank {rank} and suit {suit}.",
                                   rank=repr(self.rank), suit=repr(self.suit)))

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def symbol_text(self) -> str:
        """The card as screens show it: 'A♠', '10♥'."""
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card such as 'As', 'A♠', '♠A', '10h' or 'Th'; ParseError with a hint otherwise."""
        found = _ONE_CARD.fullmatch(text.strip().upper())
        if not found:
            raise _not_a_card(text.strip())
        rank, suit = (found[1], found[2]) if found[1] else (found[4], found[3])
        return cls(_RANK_OF[rank], _SUIT_OF[suit.lower()])


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas, or written together ('♠A♦A♣A', 'AsKsQs').

    Duplicates are kept: whether they are allowed is the caller's rule."""
    cards: list[Card] = []
    for word in re.split(r"[,\s]+", text.strip()):
        if not word:
            continue
        upper = word.upper()
        for whole, one in ((_RANK_FIRST, _RANK + _SUIT), (_SUIT_FIRST, _SUIT + _RANK)):
            if whole.fullmatch(upper):
                cards.extend(Card.parse(piece) for piece in re.findall(one, upper))
                break
        else:
            raise _not_a_card(word)
    return tuple(cards)


def _not_a_card(word: str) -> ParseError:
    return ParseError(Text("{word} is not a card: write a rank (A K Q J 10 9 … 2, T for ten) "
                           "and a suit (s h d c or ♠ ♥ ♦ ♣), e.g. As or 10♥.", word=repr(word)))


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """Record text: 'As 10h Kd'."""
    return " ".join(map(str, cards))


def sort_hand(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Highest rank first; within a rank, spades, hearts, diamonds, clubs."""
    return tuple(sorted(cards, reverse=True))
