"""Take-away: players in turn take 1 to `most` stones from one pile; who takes the last wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from chuko.core.descriptor import Descriptor, Integrations, Option, Pool, Study, Traits, Varied
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.protocol import Game as BaseGame
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.protocol import State as BaseState
from chuko.core.words import count, who

DESCRIPTOR = Descriptor(
    id="takeaway",
    title="Take-away",
    summary="take 1 to 3 stones from the pile; whoever takes the last stone wins",
    traits=Traits(min_players=2, max_players=2, information="perfect"),
    integrations=Integrations(
        bots="chuko_takeaway.bots:make_bot",
        rules="chuko_takeaway:rules.md",
        lessons="chuko_takeaway:lessons.json",  # a lesson of its own, on the generic screen
        # Perfect play wins for the first player unless the stones are a multiple of most + 1.
        study=Study(varies=(Varied("stones", (12, 15, 20)), Varied("most", (2, 3))),
                    lineups=("random", "perfect")),
        facts="chuko_takeaway:facts.json",
    ),
    options=(
        Option("stones", "Stones", "int", 15, min=1, max=99),
        Option("most", "Most taken at once", "int", 3, min=1, max=9),
    ),
    levels=("random", "perfect"),
    examples=({}, {"stones": 4, "most": 1}),
    notation="0123456789",
    # The lobby pairs strangers for it with no change to the server.
    pools=(Pool("twenty", "Twenty stones", 2, {"stones": 20}),),
)


@dataclass(frozen=True)
class Game(BaseGame):
    descriptor: ClassVar[Descriptor] = DESCRIPTOR
    stones: int = 15
    most: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.most <= 9 or not 1 <= self.stones <= 99:
            raise ConfigError("Take-away has 1 to 99 stones and takes of 1 to 9.")

    @property
    def players(self) -> int:
        return 2

    # Chance: only who moves first; there are no cards to shuffle.
    def deck(self) -> list[Any]:
        return []

    def deal_choices(self) -> tuple[int, ...]:
        return (2,)

    def new(self, seed: int | None = None) -> State:
        return self.from_order([], [Random(seed).randrange(2)])

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> State:
        if not isinstance(order, Sequence) or len(order):
            raise ConfigError("Take-away shuffles nothing: its order is empty.")
        if not isinstance(choices, Sequence) or len(choices) != 1:
            raise ConfigError("The deal makes one choice, who moves first: 0 or 1.")
        return self.from_deal({"first": choices[0]})

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> State:
        first = deal.get("first") if isinstance(deal, dict) else None
        if type(first) is not int or first not in (0, 1):
            raise ConfigError("A deal says who moves first: {\"first\": 0} or {\"first\": 1}.")
        return State(self, first)

    @staticmethod
    def parse_move(text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) < 3):
            raise ParseError(f"{text!r} is not a move: type how many stones to take.")
        return int(text)

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> State:
        state = cls(record["stones"], record["most"]).from_deal(record["deal"])
        if observe:
            observe(state, None, None)
        for take in record["moves"]:
            seat = state.to_move[0]
            state.play(seat, take)
            if observe:
                observe(state, seat, take)
        return state


class State(BaseState):
    def __init__(self, game: Game, first: int) -> None:
        self.game, self.first, self.moves = game, first, []
        self.left = game.stones

    @property
    def to_move(self) -> tuple[int, ...]:
        return ((self.first + len(self.moves)) % 2,) if self.left else ()

    def legal_moves(self, seat: int) -> list[int]:
        return list(range(1, min(self.game.most, self.left) + 1)) if seat in self.to_move else []

    def _apply(self, seat: int, move: Any) -> None:
        if move not in self.legal_moves(seat):
            raise IllegalMove(f"Take 1 to {min(self.game.most, self.left)} stones.")
        self.left -= move
        self.moves.append(move)

    def view(self, seat: int | None) -> Json:
        return {"game": self.game.id, "seat": seat, "left": self.left,
                "to_move": list(self.to_move), "moves": list(self.moves)}

    def describe(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None) -> str:
        text = f"{who(seat, names, for_seat)} took {count(move, 'stone')}; {self.left} left."
        return text + (f" {self.outcome.describe(names, for_seat)}" if self.outcome else "")

    @property
    def outcome(self) -> Outcome | None:
        if self.left:
            return None
        winner = (self.first + len(self.moves) - 1) % 2
        return Outcome(tuple(float(s == winner) for s in range(2)), (winner,), "Last stone.")

    def record(self) -> Json:
        return {"game": self.game.id, "stones": self.game.stones, "most": self.game.most,
                "deal": {"first": self.first}, "moves": list(self.moves)}

    def cards(self) -> list[int]:
        return [1] * self.game.stones  # stones move from the pile to the players, none vanish

    def copy(self) -> State:
        clone = State(self.game, self.first)
        clone.left, clone.moves = self.left, list(self.moves)
        return clone
