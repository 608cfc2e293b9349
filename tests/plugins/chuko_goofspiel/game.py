"""Goofspiel: both players hold the cards 1 to N; for each prize turned up both bid a card in
secret at once, and the higher bid takes the prize (equal bids discard it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from chuko.core.descriptor import Descriptor, Integrations, Option, Traits
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.protocol import Game as BaseGame
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.protocol import State as BaseState
from chuko.core.rng import make_rng
from chuko.core.words import listing, who, whose

DESCRIPTOR = Descriptor(
    id="goofspiel",
    title="Goofspiel",
    summary="bid a card in secret for each prize turned up; the higher bid takes it",
    traits=Traits(min_players=2, max_players=2, simultaneous=True,
                  seat_lists=("hands", "bids", "committed", "scores", "points")),
    integrations=Integrations(rules="chuko_goofspiel:rules.md"),
    options=(Option("cards", "Cards each", "int", 5, min=1, max=13),),
    examples=({}, {"cards": 2}),
    notation="0123456789",
)

SEATS = (0, 1)


@dataclass(frozen=True)
class Game(BaseGame):
    descriptor: ClassVar[Descriptor] = DESCRIPTOR
    cards: int = 5

    def __post_init__(self) -> None:
        if type(self.cards) is not int or not 1 <= self.cards <= 13:
            raise ConfigError("Goofspiel is played with 1 to 13 cards each.")

    @property
    def players(self) -> int:
        return 2

    # Chance: the order of the prizes; the players' cards are dealt in order.
    def deck(self) -> list[Any]:
        return list(range(1, self.cards + 1))

    def new(self, seed: int | None = None) -> State:
        order = self.deck()
        make_rng(seed).shuffle(order)
        return self.from_order(order)

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> State:
        if not isinstance(choices, Sequence) or len(choices):
            raise ConfigError("Goofspiel makes no choice after its shuffle: give none.")
        return self.from_deal({"prizes": order})

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> State:
        prizes = deal.get("prizes") if isinstance(deal, dict) else None
        if not isinstance(prizes, list) or any(type(p) is not int for p in prizes) \
                or sorted(prizes) != self.deck():
            raise ConfigError(f"A deal lays out the prizes 1 to {self.cards} in an order: "
                              "{\"prizes\": [...]}.")
        return State(self, prizes)

    @staticmethod
    def parse_move(text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) < 3):
            raise ParseError(f"{text!r} is not a bid: type the number of a card in your hand.")
        return int(text)

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> State:
        state = cls(record["cards"]).from_deal(record["deal"])
        if observe:
            observe(state, None, None)
        for seat, card in record["moves"]:
            state.play(seat, card)
            if observe:
                observe(state, seat, card)
        return state


class State(BaseState):
    def __init__(self, game: Game, prizes: Sequence[int]) -> None:
        self.game = game
        self.prizes = list(prizes)  # face down; the first not yet bid for is turned up
        # Every card not yet shown, the secret bid of this round included (anyone could
        # count them), so a hand never gives a bid away.
        self.hands = [game.deck() for _ in SEATS]
        self.pending: list[int | None] = [None, None]  # this round's secret bids
        self.moves: list[list[int]] = []  # [seat, card], in the order the bids were made
        self.tricks: list[tuple[int, int, int]] = []  # (prize, bid of 0, bid of 1)

    @property
    def prize(self) -> int | None:
        return self.prizes[len(self.tricks)] if len(self.tricks) < len(self.prizes) else None

    @property
    def to_move(self) -> tuple[int, ...]:
        if self.prize is None:
            return ()
        return tuple(seat for seat in SEATS if self.pending[seat] is None)

    def legal_moves(self, seat: int) -> list[int]:
        return sorted(self.hands[seat]) if seat in self.to_move else []

    def _apply(self, seat: int, move: Any) -> None:
        if type(move) is not int or move not in self.hands[seat]:
            cards = listing([str(card) for card in sorted(self.hands[seat])])
            raise IllegalMove(f"Bid one of the cards in your hand: {cards}.")
        self.pending[seat] = move
        self.moves.append([seat, move])
        first, second = self.pending
        if first is not None and second is not None:
            assert self.prize is not None  # a bid is legal only while a prize is up
            self.tricks.append((self.prize, first, second))
            self.hands[0].remove(first)
            self.hands[1].remove(second)
            self.pending = [None, None]

    @staticmethod
    def taker(trick: tuple[int, int, int]) -> int | None:
        """The seat whose bid took the prize; None when the bids were equal."""
        _, first, second = trick
        return None if first == second else int(second > first)

    def points(self, trick: tuple[int, int, int]) -> list[int]:
        """What each seat won in a round: the prize to its taker."""
        return [trick[0] if seat == self.taker(trick) else 0 for seat in SEATS]

    def scores(self) -> list[int]:
        return [sum(self.points(trick)[seat] for trick in self.tricks) for seat in SEATS]

    def view(self, seat: int | None) -> Json:
        """The prize turned up, every hand (all cards not yet shown), the seat's own secret
        bid and null for another's, who has bid, the scores and the rounds so far."""
        view = self.full_view(seat)
        view["bids"] = [bid if bidder == seat else None for bidder, bid in enumerate(self.pending)]
        return view

    def full_view(self, seat: int | None) -> Json:
        outcome = self.outcome
        return {
            "game": self.game.id, "seat": seat, "to_move": list(self.to_move),
            "prize": self.prize,
            "prizes_face_down": max(0, len(self.prizes) - len(self.tricks) - 1),
            "hands": [sorted(hand) for hand in self.hands],
            "bids": list(self.pending),
            "committed": [bid is not None for bid in self.pending],
            "scores": self.scores(),
            "rounds": [{"prize": trick[0], "bids": list(trick[1:]), "points": self.points(trick)}
                       for trick in self.tricks],
            "outcome": outcome.to_json() if outcome else None,
        }

    def describe(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None) -> str:
        """'Ann bid a card in secret.' while the other bid is to come (only the bidder reads
        the card), then, when both are in, both bids and who takes the prize."""
        bid = self.pending[seat]
        if bid is None:
            return self._round_text(seat, names, for_seat)
        return f"You bid {bid}." if seat == for_seat else f"{names[seat]} bid a card in secret."

    def describe_revealed(self, seat: int, move: Any, names: Sequence[str],
                          for_seat: int | None) -> str:
        """As `describe`, with another's secret bid named: 'Ann bid 4 in secret.'"""
        bid = self.pending[seat]
        if bid is None or seat == for_seat:
            return self.describe(seat, move, names, for_seat)
        return f"{names[seat]} bid {bid} in secret."

    def _round_text(self, seat: int, names: Sequence[str], for_seat: int | None) -> str:
        """The bid that completed the round against the other, who took the prize, and the
        result if the game is over."""
        trick = self.tricks[-1]
        other = 1 - seat
        taker = self.taker(trick)
        if taker is None:
            end = f"the {trick[0]} is discarded"
        else:
            end = "you take" if taker == for_seat else f"{names[taker]} takes"
            end += f" the {trick[0]}"
        text = (f"{who(seat, names, for_seat)} bid {trick[1 + seat]} against "
                f"{whose(other, names, for_seat)} {trick[1 + other]}: {end}.")
        outcome = self.outcome
        return text + (f" {outcome.describe(names, for_seat)}" if outcome else "")

    @property
    def outcome(self) -> Outcome | None:
        if self.prize is not None:
            return None
        scores = self.scores()
        winners = () if scores[0] == scores[1] else (int(scores[1] > scores[0]),)
        return Outcome(tuple(map(float, scores)), winners, "Every prize was bid for.")

    def record(self) -> Json:
        return {"game": self.game.id, "cards": self.game.cards,
                "deal": {"prizes": list(self.prizes)}, "moves": [list(m) for m in self.moves]}

    def cards(self) -> list[int]:
        return sorted(self.prizes)  # a prize stays in the game, taken or discarded

    def copy(self) -> State:
        clone = State(self.game, self.prizes)
        clone.hands = [list(hand) for hand in self.hands]
        clone.pending = list(self.pending)
        clone.moves = [list(m) for m in self.moves]
        clone.tricks = list(self.tricks)
        return clone
