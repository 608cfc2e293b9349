"""Chuchula: 13 cards each, four ranked groups of three, compared position by position.

Rulings H1–H8 (docs/rulings.md). A round is one simultaneous move: every seat
commits a `Grouping` in secret; when the last one is in, the four positions are
scored (H5), and the next dealer, anticlockwise (H6), deals the next round unless
the game is over (H7). The final ranking breaks ties with a recorded draw (H8).
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from random import Random
from typing import Any, ClassVar

from chuko.core.deck52 import DECK, Card, cards_text, parse_cards, sort_hand
from chuko.core.descriptor import (
    SLOW_CLOCKS,
    Descriptor,
    Integrations,
    Option,
    Pool,
    Study,
    Traits,
)
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.protocol import Game as BaseGame
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.protocol import State as BaseState
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text
from chuko.core.words import listing

__all__ = [
    "Game", "State", "FinalRanking", "Grouping", "GroupType", "parse_cards", "group_type",
    "group_strength", "describe_group", "order_problem", "random_grouping",
    "HandGrouping", "hand_strengths", "grouping_words",
]

HAND_SIZE = 13
GROUPS = 4
MODES = ("rounds", "points")


class GroupType(IntEnum):
    """The six kinds of group, weakest to strongest (ruling H2)."""

    INDIVIDUAL = 0
    PAIR = 1
    COLOR = 2
    SEQUENCE = 3
    DOUBLE_SEQUENCE = 4
    TRIAL = 5

    @property
    def label(self) -> Text:
        """The kind's name as players read it: "double sequence", "pair" (the screens' groups.js
        says the same)."""
        return _LABELS[self]


_LABELS = {
    GroupType.INDIVIDUAL: Text("individual"),
    GroupType.PAIR: Text("pair"),
    GroupType.COLOR: Text("colour"),
    GroupType.SEQUENCE: Text("sequence"),
    GroupType.DOUBLE_SEQUENCE: Text("double sequence"),
    GroupType.TRIAL: Text("trial"),
}


def _classify(cards: Sequence[Card]) -> tuple[GroupType, tuple[int, ...]]:
    """The group's type and its ranks in the order H3 compares them."""
    high, mid, low = sorted((c.rank for c in cards), reverse=True)
    return _classify_ranks(high, mid, low, cards[0].suit == cards[1].suit == cards[2].suit)


def _classify_ranks(high: int, mid: int, low: int,
                    one_suit: bool) -> tuple[GroupType, tuple[int, ...]]:
    """`_classify` of three ranks, highest first, and whether the cards share a suit."""
    if high == low:
        return GroupType.TRIAL, (high,)
    # ruling H2: A-K-Q and A-2-3 are consecutive, K-A-2 is not; the ace stays high (H3).
    if (high - mid == 1 and mid - low == 1) or (high, mid, low) == (14, 3, 2):
        return (GroupType.DOUBLE_SEQUENCE if one_suit else GroupType.SEQUENCE), (high, mid, low)
    if one_suit:
        return GroupType.COLOR, (high, mid, low)
    if high == mid or mid == low:
        return GroupType.PAIR, (mid, high if mid == low else low)
    return GroupType.INDIVIDUAL, (high, mid, low)


def _symbols(cards: Sequence[Card]) -> str:
    """Cards as players read them: 'K♦ Q♦ J♦'."""
    return " ".join(card.symbol_text for card in cards)


def grouping_words(grouping: Grouping) -> Text:
    """A grouping as players read it: 'K♦ Q♦ J♦ · A♠ 3♥ 2♦ · …, leaving out 5♠'."""
    shown = " · ".join(_symbols(group) for group in grouping.groups)
    return Text("{groups}, leaving out {card}", groups=shown,
                card=grouping.leftover.symbol_text)


def _group(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    """Three distinct cards, from cards or card text; ParseError otherwise."""
    group = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    if len(group) != 3 or len(set(group)) != 3:
        if not group:
            raise ParseError(Text("A group is three different cards, not nothing."))
        raise ParseError(Text("A group is three different cards, not {cards}.",
                              cards=_symbols(group)))
    return group


def group_type(cards: Sequence[Card] | str) -> GroupType:
    """TRIAL, DOUBLE_SEQUENCE, SEQUENCE, COLOR, PAIR or INDIVIDUAL (ruling H2)."""
    return _classify(_group(cards))[0]


def group_strength(cards: Sequence[Card] | str) -> int:
    """An integer that orders groups exactly as rulings H2–H3 do; equal for equal groups."""
    return _strength(*_classify(_group(cards)))


def _strength(kind: GroupType, ranks: tuple[int, ...]) -> int:
    """`group_strength` from the type and the compared ranks: base-15 digits, type first."""
    value = int(kind)
    for rank in (*ranks, 0, 0)[:3]:
        value = value * 15 + rank
    return value


def _strength_type(strength: int) -> GroupType:
    """The type a `group_strength` value encodes in its highest digit."""
    return GroupType(strength // 15**3)


def describe_group(cards: Sequence[Card]) -> Text:
    """'K♦ Q♦ J♦ (double sequence)'."""
    return Text("{cards} ({kind})", cards=_symbols(_display_order(cards)),
                kind=group_type(cards).label)


def _display_order(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A group's cards as they are written: a pair first, then by rank, highest first."""
    ordered = sorted(cards, reverse=True)
    if ordered[1].rank == ordered[2].rank != ordered[0].rank:
        ordered = [ordered[1], ordered[2], ordered[0]]
    return tuple(ordered)


@dataclass(frozen=True)
class Grouping:
    """A commit: four groups of three, in the player's order, and the card left out (H4).

    Text: 'Kd Qd Jd | As 3h 2d | 9c 8c 7h | 4s 4h Jh ; 5s'. Cards within a group are
    put in a canonical order; the order of the groups is the player's and is checked,
    never changed, by the engine."""

    groups: tuple[tuple[Card, ...], ...]
    leftover: Card

    def __post_init__(self) -> None:
        if len(self.groups) != GROUPS:
            raise ParseError(Text("A grouping has four groups, not {groups}.",
                                  groups=len(self.groups)))
        groups = tuple(_display_order(_group(g)) for g in self.groups)
        cards = [c for g in groups for c in g] + [self.leftover]
        if len(set(cards)) != HAND_SIZE:
            twice = sorted({c for c in cards if cards.count(c) > 1}, reverse=True)
            raise ParseError(Text("A grouping uses each card once, but {cards} repeats.",
                                  cards=_symbols(twice)))
        object.__setattr__(self, "groups", groups)

    def __str__(self) -> str:
        return " | ".join(cards_text(g) for g in self.groups) + f" ; {self.leftover}"

    @property
    def cards(self) -> frozenset[Card]:
        return frozenset(self.groups[0] + self.groups[1] + self.groups[2] + self.groups[3]) | {
            self.leftover
        }

    @classmethod
    def parse(cls, text: str) -> Grouping:
        """Four groups separated by '|', then ';' and the card left out."""
        example = "'Kd Qd Jd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; 5s'"
        parts = text.split(";")
        if len(parts) != 2:
            raise ParseError(Text("Write four groups separated by '|', then ';' and the card "
                                  "left out, e.g. {example}.", example=example))
        groups = parts[0].split("|")
        if len(groups) != GROUPS:
            raise ParseError(Text("A grouping has four groups separated by '|', e.g. "
                                  "{example}.", example=example))
        leftover = parse_cards(parts[1])
        if len(leftover) != 1:
            raise ParseError(Text("After ';' write the one card left out of the groups."))
        return cls(tuple(_group(g) for g in groups), leftover[0])

    @classmethod
    def _trusted(cls, groups: tuple[tuple[Card, ...], ...], leftover: Card) -> Grouping:
        """A grouping built by the engine itself from a hand, skipping the checks."""
        move = object.__new__(cls)
        object.__setattr__(move, "groups", groups)
        object.__setattr__(move, "leftover", leftover)
        return move


_PLACES = [0, *sorted(list(range(1, GROUPS + 1)) * 3)]  # a HandGrouping's labels, sorted


@dataclass(frozen=True)
class HandGrouping:
    """A grouping given by places in the hand as `view(seat)["hand"]` lists it: `groups[i]`
    is the group (1–4) of the hand's card i, or 0 for the card left out. Research
    environments build a grouping this way, a card at a time (games/encodings/chuchula.py);
    the engine turns it into the `Grouping` it records."""

    groups: tuple[int, ...]

    def __str__(self) -> str:
        return "groups by place " + "".join(map(str, self.groups))

    def grouping(self, hand: Sequence[Card]) -> Grouping:
        """The grouping of `hand` this stands for; IllegalMove in one sentence if none."""
        labels = list(self.groups)
        if any(type(g) is not int for g in labels) or sorted(labels) != _PLACES:
            raise IllegalMove(Text("A grouping by places puts three of the 13 cards in each of "
                                   "groups 1 to 4 and leaves one out (0)."))
        groups = tuple(_display_order([c for c, g in zip(hand, labels, strict=True) if g == k])
                       for k in range(1, GROUPS + 1))
        return Grouping._trusted(groups, hand[labels.index(0)])


def order_problem(groups: Sequence[Sequence[Card]]) -> Text | None:
    """Why these groups are not strongest first (H4), or None when they are."""
    for number, (upper, lower) in enumerate(itertools.pairwise(groups), 1):
        if group_strength(lower) > group_strength(upper):
            return Text("Group {lower_number}, {lower}, is stronger than group {upper_number}, "
                        "{upper}: put the groups strongest first.", lower_number=number + 1,
                        lower=describe_group(lower), upper_number=number,
                        upper=describe_group(upper))
    return None


@functools.cache
def _strength_table() -> dict[tuple[int, int, int, bool], int]:
    """`group_strength` by three ranks in any order and whether the cards share a suit:
    built once, so that a hand's 286 groups are measured by looking them up."""
    table: dict[tuple[int, int, int, bool], int] = {}
    for a, b, c in itertools.product(range(2, 15), repeat=3):
        high, mid, low = sorted((a, b, c), reverse=True)
        for one_suit in (False, True):
            table[a, b, c, one_suit] = _strength(*_classify_ranks(high, mid, low, one_suit))
    return table


def hand_strengths(hand: Sequence[Card]) -> list[int]:
    """The `group_strength` of every group of three the hand can make, in the order
    `itertools.combinations` lists them by the cards' places in the hand (cards 0 1 2, then
    0 1 3, …, 10 11 12): 286 numbers for 13 cards. A screen arranging the hand checks the
    order of its groups (H4) with these, so that it never rules on groups itself."""
    return list(_hand_strengths(tuple(hand)))


@functools.lru_cache(maxsize=64)
def _hand_strengths(hand: tuple[Card, ...]) -> tuple[int, ...]:
    # Once per hand: a view is drawn many times while its seat arranges the same hand.
    table = _strength_table()
    ranks, suits = [c.rank for c in hand], [c.suit for c in hand]
    return tuple(table[ranks[i], ranks[j], ranks[k], suits[i] == suits[j] == suits[k]]
                 for i, j, k in itertools.combinations(range(len(hand)), 3))


def grouping_problem(hand: Sequence[Card], move: object) -> Text | None:
    """Why `move` is not a valid commit for `hand` (H4), or None when it is."""
    if not isinstance(move, Grouping):
        return Text("{move!r} is not a grouping.", move=move)
    missing = sort_hand(list(move.cards - set(hand)))
    if missing:
        return Text("You do not hold {cards}.", cards=_symbols(missing))
    return order_problem(move.groups)


def random_grouping(hand: Sequence[Card], rng: Random) -> Grouping:
    """A random valid grouping: a random split of the hand, its groups put strongest first."""
    cards = list(hand)
    rng.shuffle(cards)
    groups = sorted(
        (_display_order(cards[i : i + 3]) for i in range(0, 12, 3)), key=group_strength,
        reverse=True,
    )
    return Grouping._trusted(tuple(groups), cards[12])


def all_groupings(hand: Sequence[Card]) -> list[Grouping]:
    """Every valid grouping of a 13-card hand (about 200,000), sorted by text."""
    hand = sort_hand(tuple(hand))
    # Each triple once: its written form, its text and its strength.
    triples: dict[tuple[Card, ...], tuple[tuple[Card, ...], str, int]] = {
        t: (_display_order(t), cards_text(_display_order(t)), group_strength(t))
        for t in itertools.combinations(hand, 3)
    }
    found: list[tuple[str, Grouping]] = []

    def splits(rest: tuple[Card, ...]) -> Iterator[list[tuple[Card, ...]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for a, b in itertools.combinations(others, 2):
            tail = tuple(c for c in others if c is not a and c is not b)
            for split in splits(tail):
                split.append((first, a, b))
                yield split

    for leftover in hand:
        for split in splits(tuple(c for c in hand if c is not leftover)):
            info = sorted((triples[t] for t in split), key=lambda x: x[2], reverse=True)
            # Groups of equal strength may come in either order; every such order is a move.
            runs = [list(run) for _, run in itertools.groupby(info, key=lambda x: x[2])]
            for order in itertools.product(*(itertools.permutations(r) for r in runs)):
                chosen = [x for run in order for x in run]
                text = " | ".join(x[1] for x in chosen) + f" ; {leftover}"
                found.append((text, Grouping._trusted(tuple(x[0] for x in chosen), leftover)))
    found.sort(key=lambda pair: pair[0])
    return [move for _, move in found]


MIN_PLAYERS, MAX_PLAYERS = 2, 4  # ruling H1
MAX_LENGTH = 100

DESCRIPTOR = Descriptor(
    id="chuchula",
    title="Chuchula",
    summary=Text("52 cards: four ranked groups of three meet position by position"),
    traits=Traits(min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, players_option="players",
                  simultaneous=True, lists_moves=False, seat_numbers=("dealer",)),
    integrations=Integrations(
        bots="chuko.bots.chuchula:make_bot",
        hints="chuko.bots.chuchula:Adviser",
        review="chuko.bots.chuchula:review",
        commands={"play": "chuko.tui.chuchula:run",
                  "simulate": "chuko.analysis.simulate_chuchula:run",
                  "advise": "chuko.cli.advise:run"},
        screen="chuko.web:js/chuchula.js",
        rules="chuko.games:rules/chuchula.md",
        lessons="chuko.games:lessons/chuchula.json",
        encoding="chuko.games.encodings.chuchula:encoding",
        twin="chuko.envs.twins.chuchula:twin",
        study=Study("chuko.analysis.study.chuchula:run_study"),
    ),
    options=(
        Option("players", Text("Players"), "int", 4, min=MIN_PLAYERS, max=MAX_PLAYERS,
               help=Text("{least} to {most}", least=MIN_PLAYERS, most=MAX_PLAYERS)),
        Option("mode", Text("Game length"), "choice", "rounds", choices=MODES,
               help=Text("a number of rounds, or first to a number of points")),
        Option("length", Text("Rounds or points"), "int", 5, min=1, max=MAX_LENGTH,
               help=Text("how many rounds, or the points to reach")),
    ),
    levels=("random", "easy", "hard"),
    examples=({"players": 2, "mode": "rounds", "length": 2}, {"players": 4}),
    # Grouping thirteen cards takes longer than a move of the other games.
    pools=(Pool("four", Text("4 players, 5 rounds"), 4,
                {"players": 4, "mode": "rounds", "length": 5},
                ({"kind": "move", "seconds": 30, "reserve": 90},
                 {"kind": "move", "seconds": 60, "reserve": 120},
                 {"kind": "move", "seconds": 120, "reserve": 240}, *SLOW_CLOCKS)),),
)


def _whole(value: object) -> bool:
    """A count as a player means it: an int, and True is not one."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Game(BaseGame):
    """Chuchula for 2–4 players (H1), a round game or a point game (H7)."""

    descriptor: ClassVar[Descriptor] = DESCRIPTOR

    players: int = 4
    mode: str = "rounds"
    length: int = 5

    def __post_init__(self) -> None:
        if not _whole(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(Text("Chuchula is for {least} to {most} players, not {players!r}.",
                                   least=MIN_PLAYERS, most=MAX_PLAYERS, players=self.players))
        if self.mode not in MODES:
            raise ConfigError(Text("A Chuchula game is played in rounds or to points, not "
                                   "{mode!r}.", mode=self.mode))
        if not _whole(self.length) or not 1 <= self.length <= MAX_LENGTH:
            if self.mode == "rounds":
                raise ConfigError(Text("The number of rounds is a whole number from 1 to "
                                       "{most}.", most=MAX_LENGTH))
            raise ConfigError(Text("The number of target points is a whole number from 1 to "
                                   "{most}.", most=MAX_LENGTH))

    @property
    def mode_text(self) -> Text:
        """How long the game lasts, in words: '5 rounds', 'first to 10 points'."""
        if self.mode == "rounds":
            return Plural("{n} round", "{n} rounds", n=self.length)
        return Plural("first to {n} point", "first to {n} points", n=self.length)

    def round_heading(self, number: int) -> Text:
        """A round's heading for players: 'Round 2 of 5', 'Round 2 · first to 10 points'."""
        if self.mode == "rounds":
            return Text("Round {number} of {rounds}", number=number, rounds=self.length)
        return Text("Round {number} · {length}", number=number, length=self.mode_text)

    # Chance: each round's shuffle of the whole deck, the first dealer (H6) and the tie draw
    # at the end (H8). With `explicit_chance`, every round after the first is dealt card by
    # card as chance outcomes (the card text), and the tie draw seat by seat.

    def deck(self) -> list[Card]:
        return list(DECK)

    def deal_choices(self) -> tuple[int, ...]:
        """The first dealer (ruling H6)."""
        return (self.players,)

    def new(self, seed: int | None = None) -> State:
        rng = make_rng(seed)
        # The dealer is drawn before the shuffle, as seeded games always have been.
        dealer = rng.randrange(self.players)
        order = self.deck()
        rng.shuffle(order)
        return self.from_order(order, (dealer,), rng=rng)

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> State:
        """Hands of 13 from `order` (cards or their text) in seat order, the rest set aside;
        `choices` is the first dealer."""
        cards = _order_cards(order)
        if sorted(cards) != sorted(DECK):
            raise ConfigError(Text("An order is the 52 cards of the deck, each once."))
        if not isinstance(choices, Sequence) or [type(c) for c in choices] != [int] or not (
            0 <= choices[0] < self.players
        ):
            raise ConfigError(Text("The deal chooses the first dealer: one seat from 0 to "
                                   "{last}.", last=self.players - 1))
        return State(self, rng or make_rng(), _deal_of(cards, choices[0], self.players),
                     explicit=explicit_chance)

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> State:
        """The game from its first round's deal: `{"dealer", "hands", "aside"}` as
        `record()["deal"]` writes it. The deal names its dealer (the configuration has
        none), so a deal always starts the same game; `rng` deals the later rounds."""
        return State(self, rng or make_rng(), _read_deal(deal, self.players),
                     explicit=explicit_chance)

    @staticmethod
    def parse_move(text: str) -> Grouping:
        return Grouping.parse(text)

    def config_json(self) -> Json:
        return {"game": self.id, "players": self.players, "mode": self.mode, "length": self.length}

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> State:
        """The game a record holds, every move re-checked, each round dealt as recorded.
        `observe` sees the deal, then the state after every commit (one pass)."""
        if not isinstance(record, dict) or record.get("game") != cls.id:
            raise ParseError(Text("This is not a Chuchula record."))
        try:
            game = cls(record.get("players", 4), record.get("mode", "rounds"),
                       record.get("length", 5))
        except TypeError:
            raise ParseError(Text("The record's configuration is not valid.")) from None
        rounds = record.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise ParseError(Text("The record has no rounds."))
        deals = [_deal_from_record(r, game.players, n) for n, r in enumerate(rounds, 1)]
        written = record.get("deal")
        if written is not None and not (
            isinstance(rounds[0], dict)
            and written == {key: rounds[0].get(key) for key in ("dealer", "hands", "aside")}
        ):
            raise ParseError(Text("The record's deal is not the deal of its first round."))
        draw = record.get("draw")
        if draw is not None and (
            not isinstance(draw, list) or not all(map(_whole, draw))
            or sorted(draw) != list(range(game.players))
        ):
            raise ParseError(Text("The record's tie draw is not an order of the seats."))
        explicit = record.get("explicit_chance") is True
        state = State(game, make_rng(None), deals[0], script=deals[1:], draw=draw,
                      explicit=explicit)
        if observe is not None:
            observe(state, None, None)
        for number, round_record in enumerate(rounds, 1):
            if state.round_number != number or state.outcome is not None:
                raise ParseError(Text("Round {number} of the record was never dealt.",
                                      number=number))
            moves = round_record.get("moves", [])
            if not isinstance(moves, list):
                raise ParseError(Text("Round {number} of the record has no list of moves.",
                                      number=number))
            for entry in moves:
                try:
                    seat, text = entry
                    if isinstance(seat, bool) or not isinstance(seat, int):
                        raise ParseError(Text("A move's seat is a number."))
                    move = Grouping.parse(text)
                    state.play(seat, move)
                except (IllegalMove, ParseError, TypeError, ValueError, AttributeError) as error:
                    raise ParseError(Text("In round {number} the record's move {move!r} is "
                                          "refused: {refusal}", number=number, move=entry,
                                          refusal=_said(error))) from None
                if observe is not None:
                    observe(state, seat, move)
        if state._script:
            raise ParseError(Text("The record deals a round that its moves never reach."))
        if draw is not None and state.outcome is None:
            raise ParseError(Text("The record has a tie draw, but its game is not over."))
        state._script = None  # from here on the game goes on with fresh deals
        pending = record.get("pending_chance", [])
        if not isinstance(pending, list):
            raise ParseError(Text("The record's pending chance events are not a list."))
        for outcome in pending:
            try:
                state.apply_chance(outcome)
            except IllegalMove as error:
                raise ParseError(Text("The record's chance event {outcome!r} is refused: "
                                      "{refusal}", outcome=outcome,
                                      refusal=_said(error))) from None
        return state


def _deal_from_record(entry: object, players: int, number: int) -> _Deal:
    """One recorded round's deal, checked as `_read_deal` checks it."""
    if not isinstance(entry, dict):
        raise ParseError(Text("Round {number} of the record is not a round.", number=number))
    try:
        return _read_deal(entry, players)
    except ConfigError as error:
        raise ParseError(Text("Round {number} of the record: {refusal}", number=number,
                              refusal=_said(error))) from None


def _read_deal(entry: object, players: int) -> _Deal:
    """A deal as records write it, checked: a dealer, one hand of 13 per seat and the rest
    set aside, the 52 cards of one deck; ConfigError in one sentence otherwise."""
    try:
        if not isinstance(entry, dict):
            raise TypeError
        hands = tuple(sort_hand(parse_cards(h)) for h in entry["hands"])
        aside = sort_hand(parse_cards(entry.get("aside", "")))
        dealer = entry.get("dealer")
    except (KeyError, TypeError, AttributeError):
        raise ConfigError(Text("A deal gives its dealer, its hands and the cards set aside, as "
                               "a record writes them.")) from None
    except ParseError as error:
        raise ConfigError(Text("A deal's cards are not all cards: {refusal}",
                               refusal=_said(error))) from None
    cards = [c for h in hands for c in h] + list(aside)
    if (
        len(hands) != players
        or any(len(h) != HAND_SIZE for h in hands)
        or sorted(cards) != sorted(DECK)
    ):
        raise ConfigError(Text("A deal gives 13 cards of one deck to each of the {players} "
                               "players and sets the rest aside.", players=players))
    if dealer is None:
        raise ConfigError(Text('The deal must say who deals: add "dealer", a seat from 0 to '
                               "{last}.", last=players - 1))
    if not _whole(dealer) or not 0 <= dealer < players:
        raise ConfigError(Text("A deal's dealer is a seat from 0 to {last}.",
                               last=players - 1))
    return _Deal(dealer, hands, aside)


def _deal_json(deal: _Deal) -> Json:
    return {"dealer": deal.dealer, "hands": [cards_text(h) for h in deal.hands],
            "aside": cards_text(deal.aside)}


def _said(error: Exception) -> Any:
    """An error's sentence as it was raised (a Text keeps its message id)."""
    return error.args[0] if error.args else str(error)


def _order_cards(values: object) -> list[Card]:
    """An order's cards, given as cards or card text; ConfigError otherwise."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise ConfigError(Text("An order is a list of cards."))
    cards: list[Card] = []
    for value in values:
        if isinstance(value, Card):
            cards.append(value)
            continue
        try:
            cards.append(Card.parse(value))
        except (ParseError, AttributeError):
            raise ConfigError(Text("An order holds {value!r}, which is not a card.",
                                   value=value)) from None
    return cards


def _deal_of(order: Sequence[Card], dealer: int, players: int) -> _Deal:
    """The deal of a shuffled deck: 13 cards per seat in seat order, the rest set aside."""
    cards = list(order)
    hands = tuple(sort_hand(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players))
    return _Deal(dealer, hands, sort_hand(cards[players * HAND_SIZE :]))


@dataclass(frozen=True)
class _Deal:
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]


@dataclass(frozen=True)
class Position:
    """One position's showdown (H5): each seat's group strength, and the single winner or
    None when the strongest is shared (the point is cancelled)."""

    strengths: tuple[int, ...]
    winner: int | None
    tied: tuple[int, ...]


def _named(seat: int, names: Sequence[str], for_seat: int | None) -> str:
    """A seat named inside a sentence: 'you' or its name."""
    return Text("you") if seat == for_seat else names[seat]


def _joined(parts: Sequence[Text], template: Text) -> Text:
    """`parts` joined pairwise by `template`, a Text with the placeholders {first} and
    {then} and no parameters ("{first}; {then}"), so each join is itself a message."""
    joined = parts[0]
    for part in parts[1:]:
        joined = Text(template.msgid, first=joined, then=part)
    return joined


def score_position(groups: Sequence[Sequence[Card]]) -> Position:
    """Compare one group per seat (ruling H5)."""
    strengths = tuple(group_strength(g) for g in groups)
    best = max(strengths)
    top = tuple(s for s, value in enumerate(strengths) if value == best)
    return Position(strengths, top[0] if len(top) == 1 else None, top if len(top) > 1 else ())


@dataclass(frozen=True)
class FinalRanking(Outcome):
    """A finished game: the seats ranked by points, players level on points ordered by the
    recorded draw (H8); the first is the winner."""

    rounds: int
    ranking: tuple[int, ...]

    def to_json(self) -> Json:
        return {**super().to_json(), "rounds": self.rounds, "ranking": list(self.ranking)}

    def describe(self, names: Sequence[str], for_seat: int | None) -> Text:
        """'You win with 4 points after 3 rounds, level with Ann, first in the draw.',
        'Ann wins with 5 points after 5 rounds; you have 3 points.'"""
        leader = self.ranking[0]
        best = self.scores[leader]
        points = Plural("{n} point", "{n} points", n=int(best))
        rounds = Plural("{n} round", "{n} rounds", n=self.rounds)
        text = (Text("You win with {points} after {rounds}", points=points, rounds=rounds)
                if leader == for_seat else
                Text("{name} wins with {points} after {rounds}", name=names[leader],
                     points=points, rounds=rounds))
        level = [s for s in self.ranking[1:] if self.scores[s] == best]
        if level:
            text = Text("{result}, level with {players}, first in the draw", result=text,
                        players=listing([_named(s, names, for_seat) for s in level]))
        if for_seat is not None and for_seat != leader and for_seat not in level:
            text = Text("{result}; you have {points}", result=text,
                        points=Plural("{n} point", "{n} points",
                                      n=int(self.scores[for_seat])))
        return Text("{result}.", result=text)


@dataclass
class _Round:
    deal: _Deal
    moves: list[tuple[int, Grouping]] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    # Once the round is scored every later view shows its groups (text per seat) and their
    # types (per position), so they are written once.
    shown: tuple[tuple[str, ...], ...] = ()
    types: tuple[tuple[str, ...], ...] = ()

    def grouping(self, seat: int) -> Grouping | None:
        return next((g for s, g in self.moves if s == seat), None)

    def groupings(self) -> list[Grouping]:
        """Every seat's grouping in seat order, once all have committed."""
        return [g for _, g in sorted(self.moves, key=lambda m: m[0])]


def _taken_words(seats: Sequence[int], points: int, first: bool, names: Sequence[str],
                 for_seat: int | None) -> Text:
    """What `seats` took in a round, as a clause of its result: the first clause counts
    "points", the later ones give the number alone ("Ann took 1", "Bob none")."""
    if not points and first:
        return Text("nobody took a point")
    if len(seats) > 1:
        players = listing([_named(s, names, for_seat) for s in seats])
        if not points:
            return Text("{players} none", players=players)
        if first:
            return Plural("{players} took {n} point each", "{players} took {n} points each",
                          players=players, n=points)
        return Text("{players} took {n} each", players=players, n=points)
    if seats[0] == for_seat:
        if not points:
            return Text("you none")
        if first:
            return Plural("you took {n} point", "you took {n} points", n=points)
        return Text("you took {n}", n=points)
    name = names[seats[0]]
    if not points:
        return Text("{name} none", name=name)
    if first:
        return Plural("{name} took {n} point", "{name} took {n} points", name=name, n=points)
    return Text("{name} took {n}", name=name, n=points)


class State(BaseState):
    """A Chuchula game in progress from its first deal. Later chance (deals, the tie draw)
    comes from `rng`, from a record's script when replaying, or, with `explicit`, from the
    caller's chance outcomes."""

    game: Game

    def __init__(
        self, game: Game, rng: Random, first: _Deal, *, script: Iterable[_Deal] | None = None,
        draw: list[int] | None = None, explicit: bool = False,
    ) -> None:
        self.game = game
        self._rng = rng
        # A replayed game deals only what its record dealt; None: deal by chance.
        self._script: deque[_Deal] | None = None if script is None else deque(script)
        self._scripted_draw = draw
        self._explicit = explicit
        # A chance event under way in an explicit game: the next dealer and the cards dealt
        # so far, or the seats drawn so far.
        self._dealing: tuple[int, list[Card]] | None = None
        self._drawing: list[int] | None = None
        self._scores = [0] * game.players
        self._rounds: list[_Round] = [_Round(first)]
        self._draw: list[int] | None = None
        self._outcome: FinalRanking | None = None
        self._legal_cache: dict[tuple[int, int], list[Grouping]] = {}

    def _deal(self, dealer: int) -> None:
        number = len(self._rounds) + 1
        if self._script:
            deal = self._script.popleft()
            if deal.dealer != dealer:
                raise ParseError(Text("Round {number} of the record is not dealt by the next "
                                      "dealer anticlockwise.", number=number))
        elif self._script is not None and not self._explicit:
            raise ParseError(Text("The record ends before the deal of round {number}.",
                                  number=number))
        elif self._explicit:
            self._dealing = (dealer, [])
            return
        else:
            cards = list(DECK)
            self._rng.shuffle(cards)
            deal = _deal_of(cards, dealer, self.game.players)
        self._rounds.append(_Round(deal))

    # --- chance ---------------------------------------------------------------------------

    @property
    def is_chance(self) -> bool:
        return self._dealing is not None or self._drawing is not None

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The next card of a deal (its text, each undealt card alike), or the next seat of
        the tie draw."""
        left: list[Any]
        if self._dealing is not None:
            dealt = set(self._dealing[1])
            left = [str(card) for card in DECK if card not in dealt]
        elif self._drawing is not None:
            left = self._undrawn()
        else:
            return []
        return [(outcome, 1 / len(left)) for outcome in left]

    def apply_chance(self, outcome: Any) -> None:
        if self._dealing is not None:
            try:
                card = outcome if isinstance(outcome, Card) else Card.parse(outcome)
            except (ParseError, AttributeError):
                raise IllegalMove(Text("{outcome!r} is not a card.", outcome=outcome)) from None
            dealer, dealt = self._dealing
            if card in dealt:
                raise IllegalMove(Text("{card} is already dealt.", card=card.symbol_text))
            dealt.append(card)
            # The deal is whole once every hand is full, or one card is left (four players).
            players = self.game.players
            if len(dealt) >= min(players * HAND_SIZE, len(DECK) - 1):
                order = dealt + [c for c in DECK if c not in set(dealt)]
                self._dealing = None
                self._rounds.append(_Round(_deal_of(order, dealer, players)))
        elif self._drawing is not None:
            if not _whole(outcome) or outcome not in self._undrawn():
                raise IllegalMove(Text("{outcome!r} is not a seat still to draw.",
                                       outcome=outcome))
            self._drawing.append(outcome)
            # The last seat's place is then forced.
            if len(self._drawing) == self.game.players - 1:
                self._end([*self._drawing, *self._undrawn()])
        else:
            raise IllegalMove(Text("Nothing is left to chance here."))

    def _undrawn(self) -> list[int]:
        drawn = self._drawing or []
        return [seat for seat in range(self.game.players) if seat not in drawn]

    def reseed(self, seed: int) -> None:
        self._rng = Random(seed)

    # --- what the protocol asks -------------------------------------------------------------

    @property
    def round_number(self) -> int:
        return len(self._rounds)

    @property
    def _current(self) -> _Round:
        return self._rounds[-1]

    @property
    def to_move(self) -> tuple[int, ...]:
        if self._outcome is not None or self.is_chance:
            return ()
        done = {s for s, _ in self._current.moves}
        return tuple(s for s in range(self.game.players) if s not in done)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's 13 cards this round (the engine's own use; players get `view`)."""
        return self._current.deal.hands[seat]

    def legal_moves(self, seat: int) -> list[Grouping]:
        """Every valid grouping (about 200,000, computed once per round and seat)."""
        if seat not in self.to_move:
            return []
        key = (self.round_number, seat)
        if key not in self._legal_cache:
            self._legal_cache = {key: all_groupings(self.hand(seat)), **{
                k: v for k, v in self._legal_cache.items() if k[0] == self.round_number}}
        return self._legal_cache[key]

    def cards(self) -> list[Card]:
        deal = self._current.deal
        return sorted([card for hand in deal.hands for card in hand] + list(deal.aside))

    def random_move(self, seat: int, rng: Random) -> Grouping:
        if seat not in self.to_move:
            raise IllegalMove(Text("It is not your turn."))
        return random_grouping(self.hand(seat), rng)

    def _apply(self, seat: int, move: Grouping | HandGrouping) -> None:
        if isinstance(move, HandGrouping):
            move = move.grouping(self.hand(seat))
        problem = grouping_problem(self.hand(seat), move)
        if problem:
            raise IllegalMove(problem)
        self._current.moves.append((seat, move))  # ruling H4: a commit is final
        if len(self._current.moves) == self.game.players:
            self._finish_round()

    def _finish_round(self) -> None:
        current = self._current
        groupings = current.groupings()
        current.shown = tuple(tuple(cards_text(g) for g in gr.groups) for gr in groupings)
        for position in range(GROUPS):
            result = score_position([g.groups[position] for g in groupings])
            current.positions.append(result)
            if result.winner is not None:
                self._scores[result.winner] += 1
        current.types = tuple(
            tuple(_strength_type(value).name for value in scored.strengths)
            for scored in current.positions
        )
        game = self.game
        over = (
            len(self._rounds) >= game.length
            if game.mode == "rounds"
            else max(self._scores) >= game.length
        )
        if not over:
            # ruling H6: the deal passes anticlockwise.
            self._deal((current.deal.dealer - 1) % game.players)
            return
        # ruling H8: a random draw orders the players level on points; it is recorded.
        if self._scripted_draw is not None:
            self._end(list(self._scripted_draw))
        elif self._explicit:
            self._drawing = []
        else:
            draw = list(range(game.players))
            self._rng.shuffle(draw)
            self._end(draw)

    def _end(self, draw: list[int]) -> None:
        """The game is over: the players ranked, ties ordered by `draw` (H8)."""
        game = self.game
        self._draw, self._drawing = draw, None
        ranking = tuple(self.ranking)
        reason = (
            Plural("The game of {n} round is over.", "The game of {n} rounds is over.",
                   n=game.length) if game.mode == "rounds"
            else Plural("A player reached the target of {n} point.",
                        "A player reached the target of {n} points.", n=game.length)
        )
        self._outcome = FinalRanking(
            tuple(float(p) for p in self._scores), ranking[:1], reason, len(self._rounds), ranking
        )

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def ranking(self) -> list[int]:
        """Seats by points, highest first, ties by the recorded draw (H8); [] before the end."""
        if self._draw is None:
            return []
        draw = self._draw
        return sorted(range(self.game.players), key=lambda s: (-self._scores[s], draw.index(s)))

    @property
    def outcome(self) -> FinalRanking | None:
        return self._outcome

    def describe(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None) -> Text:
        """'Ann committed a grouping.': a grouping stays secret until its round is scored
        (H4), so only the mover reads it. The commit that completes a round adds the
        round's points as everyone saw them, and the one that ends the game the outcome."""
        return self._commit_text(seat, move, names, for_seat, revealed=False)

    def describe_revealed(self, seat: int, move: Any, names: Sequence[str],
                          for_seat: int | None) -> Text:
        """`describe` with every grouping named, as a finished game's replay shows them all:
        'Ann committed: A♠ K♠ Q♠ · …, leaving out 7♦.'"""
        return self._commit_text(seat, move, names, for_seat, revealed=True)

    def _commit_text(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None,
                     *, revealed: bool) -> Text:
        if seat == for_seat or revealed:
            if isinstance(move, HandGrouping):
                move = next(r.grouping(seat) for r in reversed(self._rounds) if r.grouping(seat))
            grouping = move if isinstance(move, Grouping) else Grouping.parse(str(move))
            words = grouping_words(grouping)
            text = (Text("You committed: {grouping}.", grouping=words) if seat == for_seat
                    else Text("{name} committed: {grouping}.", name=names[seat],
                              grouping=words))
        else:
            text = Text("{name} committed a grouping.", name=names[seat])
        scored = self._last_scored()
        if scored is not None:
            text = Text("{move} {result}", move=text,
                        result=self._round_result(scored, names, for_seat))
        if self._outcome is not None:
            text = Text("{move} {result}", move=text,
                        result=self._outcome.describe(names, for_seat))
        return text

    def _last_scored(self) -> int | None:
        """The number of the round the last commit completed, or None."""
        if self._outcome is not None or self.is_chance:
            return self.round_number
        if self._current.moves or self.round_number == 1:
            return None
        return self.round_number - 1

    def _round_result(self, number: int, names: Sequence[str], for_seat: int | None) -> Text:
        """'Round 2: you took 2 points; Hard bot took 1; Ann none.', then each point a tie
        cancelled (H5): what everyone saw when the groups were shown. A verb before every
        number keeps it apart from names that end in one ("Easy bot 2")."""
        entry = self._rounds[number - 1]
        taken = [0] * self.game.players
        for position in entry.positions:
            if position.winner is not None:
                taken[position.winner] += 1
        parts: list[Text] = []
        for points in sorted(set(taken), reverse=True):
            seats = [s for s in range(self.game.players) if taken[s] == points]
            parts.append(_taken_words(seats, points, not parts, names, for_seat))
        # A Text written inside another call's arguments escapes extraction: named first.
        results = _joined(parts, Text("{first}; {then}"))
        sentences = [Text("Round {number}: {results}.", number=number, results=results)]
        for place, position in enumerate(entry.positions, 1):
            if position.winner is None:
                tied = listing([_named(s, names, for_seat) for s in position.tied])
                sentences.append(Text("Position {place}: {players} tied, so its point was "
                                      "cancelled.", place=place, players=tied))
        return _joined(sentences, Text("{first} {then}"))

    def show_order(self, dealer: int) -> list[int]:
        """Seats in the order they show their groups: anticlockwise from the dealer (H6)."""
        players = self.game.players
        return [(dealer - k) % players for k in range(1, players + 1)]

    @property
    def round_ended(self) -> bool:
        """True from the commit that scored a round until the next round's first commit."""
        if self._dealing is not None:
            return True
        return (self._outcome is None and self._drawing is None and self.round_number > 1
                and not self._current.moves)

    def view(self, seat: int | None) -> Json:
        """What `seat` may see: scores, the scored rounds' groups, and its own hand and
        grouping; while it has yet to commit, `group_strengths` (`hand_strengths`) measures
        every group the hand can make. Once the game is over, `hands` shows every seat's
        cards of the last round."""
        players = self.game.players
        finished = [r for r in self._rounds if r.positions]
        view: Json = {
            **self.game.config_json(),
            "seat": seat,
            "round": self.round_number,
            "scores": list(self._scores),
            "to_move": list(self.to_move),
            "rounds": [self._round_json(n, r, seat) for n, r in enumerate(finished, 1)],
            "outcome": self._outcome.to_json() if self._outcome else None,
            "ranking": self.ranking,
        }
        if self._outcome is None:
            current = self._current
            view["dealer"] = current.deal.dealer
            view["show_order"] = self.show_order(current.deal.dealer)
            view["committed"] = [current.grouping(s) is not None for s in range(players)]
            if seat is not None:
                view["hand"] = [str(c) for c in current.deal.hands[seat]]
                mine = current.grouping(seat)
                view["grouping"] = str(mine) if mine else None
                # For arranging the hand: only while the seat has yet to commit.
                view["group_strengths"] = (hand_strengths(current.deal.hands[seat])
                                           if seat in self.to_move else None)
        else:
            view["hands"] = self._hands_json()
        return view

    def full_view(self, seat: int | None) -> Json:
        """`view(seat)` with every seat's cards of the current round (`hands`) and the
        groupings committed so far in it (`groupings`, None for a seat yet to commit)."""
        view = self.view(seat)
        current = self._current
        view["hands"] = self._hands_json()
        view["groupings"] = [
            None if grouping is None else str(grouping)
            for grouping in map(current.grouping, range(self.game.players))
        ]
        return view

    def _hands_json(self) -> list[list[str]]:
        return [[str(c) for c in hand] for hand in self._current.deal.hands]

    def _round_json(self, number: int, entry: _Round, seat: int | None) -> Json:
        """A finished round as everyone saw it: the groups (not the cards left out, which
        stay face down), and each position's result."""
        return {
            "round": number,
            "dealer": entry.deal.dealer,
            "show_order": self.show_order(entry.deal.dealer),
            "groups": [list(texts) for texts in entry.shown],
            "leftover": None if seat is None else str(entry.groupings()[seat].leftover),
            "positions": [
                {"winner": p.winner, "tied": list(p.tied), "types": list(types)}
                for p, types in zip(entry.positions, entry.types, strict=True)
            ],
        }

    def record(self) -> Json:
        record: Json = {
            **self.game.config_json(),
            "deal": _deal_json(self._rounds[0].deal),
            "rounds": [
                {**_deal_json(r.deal), "moves": [[s, str(g)] for s, g in r.moves]}
                for r in self._rounds
            ],
            "draw": self._draw,
        }
        if self._explicit:
            record["explicit_chance"] = True
            if self._dealing is not None:
                record["pending_chance"] = [str(card) for card in self._dealing[1]]
            elif self._drawing is not None:
                record["pending_chance"] = list(self._drawing)
        return record

    def copy(self) -> State:
        twin = object.__new__(State)
        twin.__dict__.update(self.__dict__)
        if type(self._rng) is Random:
            twin._rng = Random()
            twin._rng.setstate(self._rng.getstate())
        twin._script = None if self._script is None else deque(self._script)
        twin._scores = list(self._scores)
        twin._rounds = [_Round(r.deal, list(r.moves), list(r.positions), r.shown, r.types)
                        for r in self._rounds]
        twin._draw = None if self._draw is None else list(self._draw)
        twin._dealing = None if self._dealing is None else (
            self._dealing[0], list(self._dealing[1]))
        twin._drawing = None if self._drawing is None else list(self._drawing)
        twin._legal_cache = dict(self._legal_cache)
        return twin
