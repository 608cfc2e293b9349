"""Caravan: solitaire on the 4×3 layout, building one caravan with face-down bridges
(rulings V1–V4).

The first card is any available card, face up. Each later card goes at an end: face up
it must share a prime factor with that end's card, unless that end is a bridge; face
down (a bridge) it may go beside any face-up end card, within the game's bridge limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from chuko.core.descriptor import Descriptor, Integrations, Option, Study, Traits, pack_option
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.layout import SIZE, LayoutMove, available_positions, take
from chuko.core.numbers import matches
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text

from .layout_game import LayoutGame, LayoutState, deal_from_record, layout_view, replay_moves

# ruling V3: 2 standard, 1 hard, 3 easy; any limit from 0 to 11.
BRIDGE_LEVELS = {"easy": 3, "standard": 2, "hard": 1}
MAX_BRIDGES = 11


DESCRIPTOR = Descriptor(
    id="caravan",
    title="Caravan",
    summary=Text("solitaire: one caravan of all 12 cards, with face-down bridges"),
    # The pack is the face-up layout and bridges stay known once laid (the view shows
    # them): the one seat sees the whole state.
    traits=Traits(min_players=1, max_players=1, information="perfect"),
    integrations=Integrations(
        bots="chuko.bots.caravan:make_bot",
        hints="chuko.bots.caravan:Adviser",
        review="chuko.bots.caravan:review",
        commands={"play": "chuko.tui.caravan:run", "solve": "chuko.cli.solve:run"},
        screen="chuko.web:js/caravan.js",
        rules="chuko.games:rules/caravan.md",
        lessons="chuko.games:lessons/caravan.json",
        encoding="chuko.games.encodings.caravan:encoding",
        twin="chuko.envs.twins.caravan:twin",
        study=Study("chuko.analysis.study.caravan:run_study"),
    ),
    options=(
        pack_option(),
        Option("bridges", Text("Bridges"), "int", BRIDGE_LEVELS["standard"], min=0,
               max=MAX_BRIDGES, help=Text("face-down cards allowed: 3 easy, 2 standard, 1 hard"),
               named=tuple(BRIDGE_LEVELS.items()),
               named_labels=(Text("Easy"), Text("Standard"), Text("Hard"))),
    ),
    levels=("random", "easy", "hard", "perfect"),
    examples=({}, {"bridges": 0}, {"bridges": 11, "pack": "2-13"}),
    notation="ABCDEFGHIJKLR*",
)


@dataclass(frozen=True)
class Caravan(LayoutGame):
    descriptor: ClassVar[Descriptor] = DESCRIPTOR

    bridges: int = BRIDGE_LEVELS["standard"]

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.bridges, int) or not 0 <= self.bridges <= MAX_BRIDGES:
            raise ConfigError(Text("The bridge limit must be a whole number from 0 to {most}.",
                                   most=MAX_BRIDGES))

    @property
    def players(self) -> int:
        return 1

    # Chance: the shuffle of the layout, and nothing after it (`explicit_chance` changes
    # nothing).

    def new(self, seed: int | None = None) -> CaravanState:
        return self.from_order(self.shuffled(make_rng(seed)))

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> CaravanState:
        if not isinstance(choices, Sequence) or len(choices):
            raise ConfigError(Text("A Caravan deal makes no choice after its shuffle."))
        return CaravanState(self, self.layout_from_order(order))

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> CaravanState:
        return CaravanState(self, self.layout_from_deal(deal))

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> CaravanState:
        if record.get("game") != cls.id:
            raise ParseError(Text("That record is not a Caravan game."))
        deal = deal_from_record(record)
        state = CaravanState(cls(deal=deal, bridges=record.get("bridges", 2)), deal)
        replay_moves(state, record.get("moves", []), observe)
        return state


def state_from_view(view: Json) -> CaravanState:
    """The position the player's view shows. Caravan hides nothing, and a view carries the
    deal, the bridge limit and every move, so the engine replays them."""
    return Caravan.replay({key: view.get(key) for key in ("game", "deal", "bridges", "moves")})


@dataclass(frozen=True)
class CaravanOutcome(Outcome):
    """The end of a Caravan game: how many cards were laid and how many of them are bridges."""

    laid: int
    bridges: int

    def to_json(self) -> Json:
        return {**super().to_json(), "laid": self.laid, "bridges": self.bridges}

    def describe(self, names: Sequence[str], for_seat: int | None) -> Text:
        """"You laid all 12 cards in one caravan with 1 bridge.", or why the game was lost:
        "No card can go on: 9 of 12 laid."."""
        if self.winners:
            if for_seat == 0:
                if not self.bridges:
                    return Text("You laid all {size} cards in one caravan with no bridge.",
                                size=SIZE)
                return Plural("You laid all {size} cards in one caravan with {n} bridge.",
                              "You laid all {size} cards in one caravan with {n} bridges.",
                              size=SIZE, n=self.bridges)
            if not self.bridges:
                return Text("{name} laid all {size} cards in one caravan with no bridge.",
                            name=names[0], size=SIZE)
            return Plural("{name} laid all {size} cards in one caravan with {n} bridge.",
                          "{name} laid all {size} cards in one caravan with {n} bridges.",
                          name=names[0], size=SIZE, n=self.bridges)
        if self.laid == SIZE:
            return Text("All {size} cards are laid, but the caravan ends on a bridge: no win.",
                        size=SIZE)
        return Text("No card can go on: {laid} of {size} laid.", laid=self.laid, size=SIZE)


def _no_bridge_left(limit: int) -> Text:
    if limit == 0:
        return Text("This game allows no bridges.")
    if limit == 1:
        return Text("The one bridge of this game is used.")
    return Text("All {limit} bridges of this game are used.", limit=limit)


class CaravanState(LayoutState):
    game: Caravan

    def __init__(self, game: Caravan, layout: tuple[int, ...]) -> None:
        self.game = game
        self.layout = layout
        self.taken = (0, 0, 0)
        # The caravan from left to right as (card, face_up).
        self.caravan: list[tuple[int, bool]] = []
        self.bridges_used = 0
        self.moves: list[LayoutMove] = []
        self._outcome: CaravanOutcome | None = None

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.outcome is not None else (0,)

    def _end(self, end: str) -> tuple[int, bool]:
        return self.caravan[0] if end == "L" else self.caravan[-1]

    def _refusal(self, move: LayoutMove) -> tuple[Any, ...] | None:
        """Why `move` is illegal now, as a reason and its values (`_refusal_text` words
        it), or None when it is legal. `legal_moves` asks this of every candidate, so no
        sentence is built until one is shown."""
        available = available_positions(self.taken)
        if move.position not in available:
            return ("unavailable", available)
        if not self.caravan:
            return ("first face down",) if move.bridge else None
        if move.end is None:
            return ("no end",)
        end_card, end_up = self._end(move.end)
        if move.bridge:
            if not end_up:
                return ("bridges touch",)
            if self.bridges_used >= self.game.bridges:
                return ("no bridge left",)
            return None
        if end_up and not matches(self.layout[move.position], end_card):
            return ("no factor", end_card)
        return None

    def _refusal_text(self, move: LayoutMove, reason: tuple[Any, ...]) -> Text:
        """A `_refusal` reason in one sentence."""
        kind, letter, left = reason[0], move.position_name, move.end == "L"
        if kind == "unavailable":
            names = ", ".join(LayoutMove(p).position_name for p in reason[1])
            return Text("{letter} is not available: take the leftmost card of a row "
                        "({letters}).", letter=letter, letters=names)
        if kind == "first face down":
            return Text("The first card goes face up: write the letter alone.")
        if kind == "no end":
            return Text("Say which end {letter} goes to: {letter}L or {letter}R.",
                        letter=letter)
        if kind == "bridges touch":
            return (Text("The left end is already a bridge: two bridges may not touch.")
                    if left else
                    Text("The right end is already a bridge: two bridges may not touch."))
        if kind == "no bridge left":
            return _no_bridge_left(self.game.bridges)
        card = self.layout[move.position]
        if left:
            return Text("{card} shares no prime factor with {end} at the left end.",
                        card=card, end=reason[1])
        return Text("{card} shares no prime factor with {end} at the right end.",
                    card=card, end=reason[1])

    def _candidates(self) -> list[LayoutMove]:
        if not self.caravan:
            return [LayoutMove(p) for p in available_positions(self.taken)]
        return [
            LayoutMove(p, end, bridge)
            for p in available_positions(self.taken)
            for end in ("L", "R")
            for bridge in (False, True)
        ]

    def legal_moves(self, seat: int) -> list[LayoutMove]:
        if seat not in self.to_move:
            return []
        return [m for m in self._candidates() if self._refusal(m) is None]

    def _apply(self, seat: int, move: LayoutMove) -> None:
        if not self.caravan and move.end is not None and not move.bridge:
            move = LayoutMove(move.position)  # ruling G4: a first card has no end
        reason = self._refusal(move)
        if reason:
            raise IllegalMove(self._refusal_text(move, reason))
        piece = (self.layout[move.position], not move.bridge)
        if move.end == "L":
            self.caravan.insert(0, piece)
        else:
            self.caravan.append(piece)
        self.bridges_used += move.bridge
        self.taken = take(self.taken, move.position)
        self.moves.append(move)
        self._outcome = self._judge()

    def describe(self, seat: int, move: LayoutMove, names: Sequence[str],
                 for_seat: int | None) -> Text:
        """"You laid 15 face up at the left end.", "You laid 6 face down at the right end:
        bridge 1 of 2."; the result follows when the move ended the game."""
        # The move as the engine applied it: a first card typed with an end loses the end.
        applied = self.moves[-1]
        text = _laid(self.layout[applied.position], applied, len(self.caravan) == 1,
                     (self.bridges_used, self.game.bridges),
                     None if seat == for_seat else names[seat])
        if self.outcome is not None:
            return Text("{move} {result}", move=text,
                        result=self.outcome.describe(names, for_seat))
        return text

    @property
    def outcome(self) -> CaravanOutcome | None:
        return self._outcome

    def _judge(self) -> CaravanOutcome | None:
        """Whether the game is over after a move, and how (ruling V4)."""
        laid, used = len(self.caravan), self.bridges_used
        if laid == SIZE:
            if self.caravan[0][1] and self.caravan[-1][1]:
                return CaravanOutcome((1,), (0,),
                                      Text("All 12 cards are in the caravan: a win."), laid, used)
            return CaravanOutcome((0,), (),
                                  Text("All 12 cards are placed but a bridge is unfinished."),
                                  laid, used)
        if self.caravan and not any(self._refusal(m) is None for m in self._candidates()):
            return CaravanOutcome((0,), (), Text("No legal move is left."), laid, used)
        return None

    def view(self, seat: int | None) -> Json:
        # Caravan shows every card: nothing is secret, bridges included (they were seen).
        return {
            "game": self.game.id,
            "seat": seat,
            **layout_view(self.layout, self.taken),
            "bridges": self.game.bridges,
            "bridges_used": self.bridges_used,
            "caravan": [{"card": card, "face_up": up} for card, up in self.caravan],
            "to_move": list(self.to_move),
            "moves": [str(m) for m in self.moves],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def record(self) -> Json:
        return {
            **self.game.config_json(),
            "bridges": self.game.bridges,
            "deal": self.view(None)["deal"],
            "moves": [str(m) for m in self.moves],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def cards(self) -> list[int]:
        left = [c for c in layout_view(self.layout, self.taken)["layout"] if c is not None]
        return sorted(left + [card for card, _ in self.caravan])

    def copy(self) -> CaravanState:
        clone = object.__new__(CaravanState)
        clone.__dict__.update(self.__dict__)
        clone.caravan = list(self.caravan)
        clone.moves = list(self.moves)
        return clone


def _laid(card: int, move: LayoutMove, first: bool, bridges: tuple[int, int],
          name: str | None) -> Text:
    """A move in one sentence, said to its player (`name` None) or of them."""
    used, limit = bridges
    if first:
        if name is None:
            return Text("You laid {card} face up to start the caravan.", card=card)
        return Text("{name} laid {card} face up to start the caravan.", name=name, card=card)
    if move.bridge:
        if name is None:
            if move.end == "L":
                return Text("You laid {card} face down at the left end: bridge {used} of "
                            "{limit}.", card=card, used=used, limit=limit)
            return Text("You laid {card} face down at the right end: bridge {used} of "
                        "{limit}.", card=card, used=used, limit=limit)
        if move.end == "L":
            return Text("{name} laid {card} face down at the left end: bridge {used} of "
                        "{limit}.", name=name, card=card, used=used, limit=limit)
        return Text("{name} laid {card} face down at the right end: bridge {used} of "
                    "{limit}.", name=name, card=card, used=used, limit=limit)
    if name is None:
        if move.end == "L":
            return Text("You laid {card} face up at the left end.", card=card)
        return Text("You laid {card} face up at the right end.", card=card)
    if move.end == "L":
        return Text("{name} laid {card} face up at the left end.", name=name, card=card)
    return Text("{name} laid {card} face up at the right end.", name=name, card=card)


# The registry's uniform names (games/__init__.py).
Game = Caravan
State = CaravanState
