"""What Crossroads and Caravan share: a 12-card layout game's configuration and deal.

Both games take cards from the same 4×3 layout (ruling G3) with the same move
notation (ruling G4); each game's own module decides what a move may do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import Any

from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.layout import (
    COLUMNS,
    LETTERS,
    SIZE,
    LayoutMove,
    available_positions,
    layout_text,
    parse_layout,
)
from chuko.core.packs import PACKS, as_pack, pack_text
from chuko.core.protocol import Game, Json, Observer, State
from chuko.core.text import Text


@dataclass(frozen=True)
class LayoutGame(Game):
    """A layout game: a pack of exactly 12 cards, or a fixed deal (which then is the pack)."""

    pack: tuple[int, ...] = PACKS["standard"]
    deal: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pack", as_pack(self.pack))
        if self.deal is not None:
            # A deal is written in rows ('6 15 10 7 / 9 14 8 11 / 2 21 22 30') or is 12 cards.
            deal = parse_layout(self.deal) if isinstance(self.deal, str) else as_pack(self.deal)
            object.__setattr__(self, "deal", deal)
        cards = self.deal if self.deal is not None else self.pack
        if len(cards) != SIZE:
            if self.deal is not None:
                raise ConfigError(Text("{game} is dealt from exactly 12 cards, but the deal has "
                                       "{cards}.", game=self.title, cards=len(cards)))
            raise ConfigError(Text("{game} is dealt from exactly 12 cards, but the pack has "
                                   "{cards}.", game=self.title, cards=len(cards)))
        if self.deal is not None:
            object.__setattr__(self, "pack", tuple(sorted(self.deal)))

    def deck(self) -> list[int]:
        """The pack; nothing for a fixed deal, which is never shuffled."""
        return [] if self.deal is not None else list(self.pack)

    def shuffled(self, rng: Random) -> list[int]:
        """`deck()` shuffled with `rng`: the order `new` deals from."""
        cards = self.deck()
        rng.shuffle(cards)
        return cards

    def layout_from_order(self, order: Sequence[Any]) -> tuple[int, ...]:
        """The layout dealt from `order`, a permutation of `deck()` laid out row by row (the
        fixed deal for the empty order); ConfigError in one sentence otherwise."""
        if isinstance(order, str | bytes) or not isinstance(order, Sequence):
            raise ConfigError(Text("An order is a list of the pack's cards."))
        if self.deal is not None:
            if len(order):
                raise ConfigError(Text("This game has a fixed deal: its order is empty."))
            return self.deal
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in order) or (
            sorted(order) != sorted(self.pack)
        ):
            raise ConfigError(Text("An order is the {size} cards of the pack, each as often as "
                                   "the pack has it.", size=SIZE))
        return tuple(order)

    def layout_from_deal(self, deal: Any) -> tuple[int, ...]:
        """The layout a deal gives, in the shape of `record()["deal"]` (rows of text, or the 12
        cards row by row): the fixed deal, or any arrangement of the pack; ConfigError in one
        sentence otherwise."""
        try:
            layout = read_deal(deal)
        except ParseError as error:
            raise ConfigError(*error.args) from None
        if self.deal is not None and layout != self.deal:
            raise ConfigError(Text("This game has a fixed deal: {deal}.",
                                   deal=layout_text(self.deal)))
        if sorted(layout) != sorted(self.pack):
            raise ConfigError(Text("That deal does not lay out the cards of this game's pack."))
        return layout

    @staticmethod
    def parse_move(text: str) -> LayoutMove:
        return LayoutMove.parse(text)

    def config_json(self) -> Json:
        # A replayed game knows its pack from the deal, so records write the pack sorted.
        pack = tuple(sorted(self.pack))
        return {"game": self.id, "pack": list(pack), "pack_name": pack_text(pack)}


def deal_from_record(record: Json) -> tuple[int, ...]:
    """The layout stored in a record, as text or a list."""
    return read_deal(record.get("deal"))


def read_deal(deal: Any) -> tuple[int, ...]:
    """A layout as records write it (rows of text) or as a list of 12 cards; ParseError in
    one sentence otherwise."""
    if isinstance(deal, str):
        return parse_layout(deal)
    if isinstance(deal, list | tuple) and len(deal) == SIZE and all(
        isinstance(c, int) and not isinstance(c, bool) for c in deal
    ):
        return tuple(deal)
    raise ParseError(Text("A deal is three rows of four cards, such as "
                          "'6 15 10 7 / 9 14 8 11 / 2 21 22 30', or a list of 12 cards."))


class LayoutState(State):
    """A position of a layout game: the deal, how many cards each row has lost, and the
    moves so far as the engine applied them."""

    game: LayoutGame
    layout: tuple[int, ...]
    taken: tuple[int, ...]
    moves: list[LayoutMove]


def replay_moves(state: LayoutState, moves: Any, observe: Observer | None = None) -> None:
    """Play a record's moves in turn order, re-checking each one; `observe` sees the deal,
    then the position after each move with the seat and the move as the engine applied it."""
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ParseError(Text("The record's 'moves' must be a list of moves such as \"A\" or "
                              "\"BR\"."))
    if observe is not None:
        observe(state, None, None)
    for number, text in enumerate(moves, 1):
        if not state.to_move:
            raise ParseError(Text("The record goes on after the game ended (move {number}).",
                                  number=number))
        seat = state.to_move[0]
        try:
            state.play(seat, text)
        except (IllegalMove, ParseError) as error:
            raise ParseError(Text("Move {number} of the record ({move}) is refused: {refusal}",
                                  number=number, move=text, refusal=error.args[0])) from None
        if observe is not None:
            observe(state, seat, state.moves[-1])


@lru_cache(maxsize=1024)
def deal_text(layout: tuple[int, ...]) -> str:
    """`layout_text(layout)`, which every view of a game repeats, worked out once a deal."""
    return layout_text(layout)


def layout_view(layout: tuple[int, ...], taken: tuple[int, ...]) -> Json:
    """The layout as any seat sees it: the cards still there (None where taken) and the
    positions available now (a position's letter is the move that takes it)."""
    remaining = [
        card if (i % COLUMNS) >= taken[i // COLUMNS] else None for i, card in enumerate(layout)
    ]
    return {
        "deal": deal_text(layout),
        "layout": remaining,
        "available": [LETTERS[p] for p in available_positions(taken)],
    }
