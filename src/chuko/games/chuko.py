"""Chükö, the flagship shedding game (rulings G1, G2, G5, K1–K8).

Each player holds a secret hand. On your turn you either play a card that shares
a prime factor with the top card or is lower than it (K1), or reset: draw one
card, then play any card (K2). The first to empty their hand wins (K5).

The state is built for speed: hands are sorted lists of ints, the draw pile is a
list whose next card is last (so drawing is a pop), and whether a card may follow
the top card is worked out at each play with `gcd`: as fast as looking it up in a table
of the pack, and a pack of 1,000 cards would make that table cost about 30 MB.
`State.playout` plays random games through the same rule methods as `play`.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, total_ordering
from math import gcd
from random import Random, SystemRandom
from typing import Any, ClassVar, TypeGuard

from chuko.core.descriptor import (
    Descriptor,
    Integrations,
    Option,
    Pool,
    Study,
    Traits,
    Varied,
    pack_option,
)
from chuko.core.errors import ChukoError, ConfigError, IllegalMove, ParseError
from chuko.core.packs import PACKS, as_pack
from chuko.core.protocol import Game as BaseGame
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.protocol import State as BaseState
from chuko.core.rng import make_rng
from chuko.core.words import count, who

MAX_HAND = 5
PLAY, RESET = "play", "reset"
CHANCE = "chance"  # the phase while an explicit chance draw is awaited
_AWAITING_DRAW = "The reset is waiting for the card it draws, a chance outcome."
# K8: a game of bots alone ends after this many cards played; people choose their own.
TURN_LIMIT = 1000
MAX_TURN_LIMIT = 100_000
# The most a room on a shared server may play: every move costs the server a little memory
# and every view carries the game's turns.
MAX_ONLINE_TURN_LIMIT = 2_000

DESCRIPTOR = Descriptor(
    id="chuko",
    title="Chükö",
    summary="the shedding game: share a factor, go lower, or reset",
    # K3: limited by the pack, at most N − 1
    traits=Traits(min_players=2, max_players=None, players_option="players"),
    integrations=Integrations(
        bots="chuko.bots.chuko:make_bot",
        hints="chuko.bots.chuko:Adviser",
        review="chuko.bots.chuko:review",
        commands={"play": "chuko.tui.chuko:run"},
        screen="chuko.web:js/chuko.js",
        rules="chuko.games:rules/chuko.md",
        lessons="chuko.games:lessons/chuko.json",
        encoding="chuko.games.encodings.chuko:encoding",
        twin="chuko.envs.twins.chuko:twin",
        study=Study(varies=(Varied("pack", ("standard", "plain", "primes", "2-30", "2-100")),
                            Varied("players", (2, 3, 4))),
                    lineups=("easy",), turn_kinds="chuko.games.chuko:turn_kinds"),
    ),
    options=(
        Option("players", "Players", "int", 2, min=2,
               help="at least 2; a pack of N cards serves at most N − 1"),
        pack_option(),
        Option("turn_limit", "Turn limit (0: none)", "int", 0, min=0, max=MAX_TURN_LIMIT,
               help=f"end with no winner after this many cards played; a game of bots "
               f"alone stops at {TURN_LIMIT} unless told; a room on a shared server at "
               f"{MAX_ONLINE_TURN_LIMIT:,} (0 means that there)",
               max_online=MAX_ONLINE_TURN_LIMIT),
    ),
    levels=("random", "easy", "hard"),
    examples=({"players": 2}, {"players": 4}, {"players": 3, "pack": "1,2,3,4,4,6,9"}),
    notation="0123456789r",
    pools=(Pool("duel", "Heads-up", 2, {"players": 2, "pack": "standard"}),
           # 29 cards deal the most a hand holds (5) to each of four; the standard 12
           # would deal 2 each, a game of a few forced moves.
           Pool("four", "4 players", 4, {"players": 4, "pack": "large"})),
)


def may_follow(card: int, top: int) -> bool:
    """Ruling K1: a card may follow the top card when it shares a prime factor or is lower."""
    return card < top or gcd(card, top) > 1


def turn_kinds(record: Json) -> dict[str, int]:
    """A finished game's resets, and the resets among them that recycled the play pile
    (K2): how often the game leaves its plain course, for the study of bot games."""
    turns = record["turns"]
    return {RESET: sum(turn["kind"] == RESET for turn in turns),
            "recycle": sum("recycled" in turn for turn in turns)}


def deal_size(pack_size: int, players: int) -> int:
    """Ruling K3: cards per hand, h = min(5, (N − 1) // P); below 1 the game cannot be dealt."""
    return min(MAX_HAND, (pack_size - 1) // players)


# -- moves --------------------------------------------------------------------------------


@total_ordering
@dataclass(frozen=True, slots=True)
class Move:
    """Play `card` (a normal play, or the free choice after a reset), or reset when `card`
    is None. Text: '15', or 'reset' (also typed 'r' or 'draw'). Moves sort as legal_moves
    lists them: cards ascending, then the reset."""

    card: int | None = None

    def __lt__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.card is None, self.card or 0) < (other.card is None, other.card or 0)

    def __str__(self) -> str:
        return "reset" if self.card is None else str(self.card)

    @property
    def is_reset(self) -> bool:
        return self.card is None

    @classmethod
    def parse(cls, text: str) -> Move:
        words = text.strip().lower().split()
        if words and words[0] in ("play", "p"):
            words = words[1:]
        if len(words) == 1:
            word = words[0]
            if word in ("r", "reset", "d", "draw"):
                return RESET_MOVE
            if word.isascii() and word.isdigit() and len(word) < 19 and int(word) >= 1:
                return Move(int(word))
        raise ParseError(
            f"{text.strip()!r} is not a move: type a card's number (e.g. 15) to play it, "
            "or 'reset' (r) to draw a card and then play any card."
        )


RESET_MOVE = Move(None)


@lru_cache(maxsize=4096)  # any one pack's values (at most 1,000) and then some
def _move(card: int) -> Move:
    return Move(card)


# -- the result ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChukoOutcome(Outcome):
    """A Chükö ending: a seat emptied its hand (K5), or `turn_limit` cards were played with
    no winner (K8; None when a hand was emptied)."""

    turn_limit: int | None = None

    def to_json(self) -> Json:
        return {**super().to_json(), "turn_limit": self.turn_limit}

    def describe(self, names: Sequence[str], for_seat: int | None) -> str:
        """The ending as `for_seat` reads it: "You won by emptying your hand first.", "Ann
        won by emptying their hand first.", or "Nobody won: the turn limit of 1,000 cards
        played was reached." """
        if not self.winners:
            return f"Nobody won: the {_limit_reached(self.turn_limit or 0)}"
        winner = self.winners[0]
        hand = "your hand" if winner == for_seat else "their hand"
        return f"{who(winner, names, for_seat)} won by emptying {hand} first."


def _limit_reached(limit: int) -> str:
    return f"turn limit of {count(limit, 'card')} played was reached."


# -- the game -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game(BaseGame):
    """Chükö for `players` seats with a pack (a named pack, list or range text is accepted),
    an optional first seat (random otherwise, K4) and a turn limit (K8; None for none)."""

    descriptor: ClassVar[Descriptor] = DESCRIPTOR

    players: int = 2
    pack: tuple[int, ...] = PACKS["standard"]
    first: int | None = None
    turn_limit: int | None = TURN_LIMIT

    @cached_property
    def distinct(self) -> bool:
        """True when no value is in the pack twice, so no hand holds a value twice."""
        return len(set(self.pack)) == len(self.pack)

    @cached_property
    def _sorted_pack(self) -> list[int]:
        return sorted(self.pack)

    @cached_property
    def _endings(self) -> dict[int | None, ChukoOutcome]:
        """Each seat's win, and None for the turn limit, made once (`State.outcome`)."""
        return {}

    @classmethod
    def configure(cls, values: Json, *, bots_only: bool) -> Game:
        # K8: a turn limit of 0 means none, except that bots alone would never stop.
        limit = values["turn_limit"] or (TURN_LIMIT if bots_only else None)
        return cls(players=values["players"], pack=values["pack"], turn_limit=limit)

    def __post_init__(self) -> None:
        pack = as_pack(self.pack)
        object.__setattr__(self, "pack", pack)
        players = self.players
        if not isinstance(players, int) or isinstance(players, bool) or players < 2:
            raise ConfigError("Chükö needs at least two players.")
        if deal_size(len(pack), players) < 1:
            raise ConfigError(
                f"A pack of {count(len(pack), 'card')} cannot be dealt to {players} players: "
                "each needs at least one card and one more must start the play pile, so it "
                f"serves at most {count(max(len(pack) - 1, 0), 'player')}."
            )
        if self.first is not None and (
            not isinstance(self.first, int) or not 0 <= self.first < players
        ):
            raise ConfigError(f"The first player is a seat from 0 to {players - 1}.")
        limit = self.turn_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or not 1 <= limit <= MAX_TURN_LIMIT):
            raise ConfigError(
                f"The turn limit is a number of turns from 1 to {MAX_TURN_LIMIT:,} (or none)."
            )

    @property
    def hand_size(self) -> int:
        return deal_size(len(self.pack), self.players)

    # Chance: the shuffle of the pack, the first player when `first` is None (K4), and the
    # shuffle of every recycled pile (K2). With `explicit_chance` a recycled pile is held
    # unordered and each card drawn from it is a chance outcome: its value, with the
    # probability of its count among the cards of the pile not yet drawn.

    def deck(self) -> list[int]:
        return list(self.pack)

    def deal_choices(self) -> tuple[int, ...]:
        """The first player (K4), unless the game sets it."""
        return () if self.first is not None else (self.players,)

    def new(self, seed: int | None = None, *, rng: Random | None = None) -> State:
        """Deal with `rng` when given (a simulation reuses one generator for many deals),
        else with a generator made from `seed`: the shuffle, then the first player."""
        rng = rng or make_rng(seed)
        order = self.deck()
        rng.shuffle(order)
        choices = () if self.first is not None else (rng.randrange(self.players),)
        return self.from_order(order, choices, rng=rng)

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> State:
        """Hands dealt from `order` in seat order, then the top card, the rest the draw pile
        (next card first); `choices` is the first player when the game does not set it."""
        if not _is_sequence(order) or not (
            set(map(type, order)) <= {int}  # bools and floats compare equal to ints
        ) or sorted(order) != self._sorted_pack:
            raise ConfigError(f"An order is the {count(len(self.pack), 'card')} of the pack, "
                              "each as often as the pack has it.")
        if self.first is not None:
            if isinstance(choices, str) or len(choices):
                raise ConfigError("This game sets its first player, so a deal chooses nothing.")
            first = self.first
        elif (not _is_sequence(choices) or len(choices) != 1
              or not _is_int(choices[0]) or not 0 <= choices[0] < self.players):
            raise ConfigError(f"The deal chooses the first player: one seat from 0 to "
                              f"{self.players - 1}.")
        else:
            first = choices[0]
        h, p = self.hand_size, self.players
        hands = [list(order[i * h : (i + 1) * h]) for i in range(p)]
        return State(self, hands, order[p * h], list(order[p * h + 1 :]), first,
                     rng or make_rng(None), explicit=explicit_chance)

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> State:
        """The game from a deal as `record()["deal"]` writes it, `{"hands", "top", "draw"}`
        (the draw pile next card first), with `"first"` added unless the game sets it."""
        hands, top, draw, first = _read_deal(self, deal)
        return State(self, hands, top, draw, first, rng or make_rng(None),
                     explicit=explicit_chance)

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> State:
        return _replay(cls, record, observe)

    @staticmethod
    def parse_move(text: str) -> Move:
        return Move.parse(text)


# -- the state ------------------------------------------------------------------------------


# An internal turn: (seat, kind, card, drew, recycled, chuko). `recycled` is the new draw pile,
# next card first, when this reset recycled the play pile; `chuko` marks the turn that took
# its hand down to one card (K7), worked out once when the turn is complete.
Turn = tuple[int, str, int | None, int | None, tuple[int, ...] | None, bool]


class State(BaseState):
    """A Chükö position. Turns are strictly in seat order (a reset and the card it plays are
    one turn), so turn i is seat (first + i) % players: views find a seat's last turn, and
    count its plays, without reading the history."""

    game: Game

    def __init__(
        self,
        game: Game,
        hands: list[list[int]],
        top: int,
        draw: list[int],
        first: int,
        rng: Random,
        *,
        explicit: bool = False,
    ) -> None:
        """Start from a deal; `draw` lists the draw pile next card first. `explicit`: the
        draws from a recycled pile are chance nodes (`Game.from_order`)."""
        self.game = game
        # None in a position sampled for search, which has no history to record.
        self._deal: tuple[list[tuple[int, ...]], int, tuple[int, ...]] | None = (
            list(map(tuple, hands)), top, tuple(draw)
        )
        self._hands = list(map(sorted, hands))
        self._pile = [top]
        self._draw = list(reversed(draw))  # next card last: drawing is a pop
        self._seat = first
        self._first = first
        self._pending = False  # a reset has drawn; the same seat now plays any card
        self._turns: list[Turn] = []
        # Public summaries kept as the turns are appended, so a view reads no history: plays
        # and resets per seat, the turn of the last recycle, and per seat the cards it drew
        # since then.
        self._plays = [0] * len(hands)
        self._resets = [0] * len(hands)
        self._recycled_at = -1
        self._since: list[list[int]] = [[] for _ in hands]
        self._count = 0  # cards played, for the turn limit (K8)
        self._winner: int | None = None
        self._over = False
        self._outcome: ChukoOutcome | None = None  # made once the game is over
        self._distinct = game.distinct
        self._limit = game.turn_limit or 0
        self._rng = rng
        # True once a copy shares the generator: whoever shuffles first takes its own copy
        # (in `reset`), so copying a state (the server does at every move) copies no state
        # of 625 words, and a shared generator is never advanced.
        self._rng_shared = False
        self._explicit = explicit
        self._chance = False  # explicit chance: a reset waits for the card it draws

    # -- whose turn and what is legal ----------------------------------------------------

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self._over or self._chance else (self._seat,)

    @property
    def pending_reset(self) -> bool:
        """True between a reset's draw and the card it plays."""
        return self._pending

    @property
    def first(self) -> int:
        """The seat that played first."""
        return self._first

    @property
    def top(self) -> int:
        return self._pile[-1]

    def hand(self, seat: int) -> list[int]:
        """A seat's hand, sorted (engine-side; players see theirs through view)."""
        return list(self._hands[seat])

    def playable(self) -> list[int]:
        """Distinct cards the seat to move may play now, ascending: those that may follow the
        top card (K1), or after a reset's draw any card of the hand (K2)."""
        return self.legal_plays()[0]

    def legal_plays(self) -> tuple[list[int], bool]:
        """The seat to move's choices: the distinct cards it may play (`playable`) and whether
        it may reset (K2: whether or not a play exists, except between a reset's draw and the
        card it plays); ([], False) when nobody is to move."""
        if self._over or self._chance:
            return [], False
        hand = self._hands[self._seat]
        if self._pending:
            return (list(hand) if self._distinct else sorted(set(hand))), False
        top = self._pile[-1]
        cards = []
        for card in hand:  # a loop: cheaper than a comprehension for a hand of five
            if card < top or gcd(card, top) > 1:  # may_follow, inlined
                cards.append(card)
        return (cards if self._distinct else sorted(set(cards))), True

    def legal_moves(self, seat: int) -> list[Move]:
        if seat != self._seat:
            return []
        cards, reset = self.legal_plays()
        moves = [_move(c) for c in cards]
        if reset:
            moves.append(RESET_MOVE)
        return moves

    def _pick(self, rng: Random) -> int | None:
        """A uniformly random legal move as a card, or None for a reset (inlines `playable`:
        this is the inner loop of every random playout)."""
        hand = self._hands[self._seat]
        if self._pending:
            cards = hand if self._distinct else sorted(set(hand))
            return cards[int(rng.random() * len(cards))]
        top = self._pile[-1]
        cards = []
        for card in hand:
            if card < top or gcd(card, top) > 1:  # may_follow, inlined
                cards.append(card)
        if not self._distinct:
            cards = sorted(set(cards))
        i = int(rng.random() * (len(cards) + 1))
        return cards[i] if i < len(cards) else None

    def random_move(self, seat: int, rng: Random) -> Move:
        if self._over or self._chance or seat != self._seat:
            raise IllegalMove("It is not your turn.")
        card = self._pick(rng)
        return RESET_MOVE if card is None else _move(card)

    def playout(self, rng: Random) -> Outcome:
        """Play uniformly random legal moves (as `random_move` picks them, with the same
        `rng` draws) until the game ends; the fast path for simulations and search. Chance
        left explicit is drawn from `rng` too."""
        pick, put, reset, draw = self._pick, self.put, self.reset, self._draw
        if self._chance:
            self.apply_chance(draw[int(rng.random() * len(draw))])
        while not self._over:
            card = pick(rng)
            if card is None:
                reset()
                if self._chance:
                    self.apply_chance(draw[int(rng.random() * len(draw))])
            else:
                put(card)
        return self.outcome  # type: ignore[return-value]

    # -- applying moves ---------------------------------------------------------------------

    def _apply(self, seat: int, move: Any) -> None:
        if not isinstance(move, Move):
            raise IllegalMove(f"{move!r} is not a Chükö move.")
        if move.card is None:
            self.reset()
        else:
            self.put(move.card)

    def put(self, card: int) -> None:
        """The seat to move plays `card`: a normal play (K1) or the card after a reset (K2).
        Raises IllegalMove, changing nothing, when the rules do not allow it."""
        if self._over or self._chance:
            raise IllegalMove("The game is over." if self._over else _AWAITING_DRAW)
        seat = self._seat
        hand = self._hands[seat]
        try:
            at = hand.index(card)
        except ValueError:
            raise IllegalMove(f"{card} is not in your hand.") from None
        if self._pending:
            del hand[at]
            self._pending = False
            _, kind, _, drew, recycled, _ = self._turns[-1]
            # K7: a reset that drew keeps the hand's size; a free reset sheds a card.
            self._turns[-1] = (seat, kind, card, drew, recycled, drew is None and len(hand) == 1)
        else:
            top = self._pile[-1]
            if card >= top and gcd(card, top) == 1:  # not may_follow, inlined
                raise IllegalMove(
                    f"{card} cannot follow {top}: it shares no prime factor with it and is not "
                    "lower; reset to play it anyway."
                )
            del hand[at]
            self._plays[seat] += 1
            self._turns.append((seat, PLAY, card, None, None, len(hand) == 1))
        self._pile.append(card)
        self._count += 1
        if not hand:  # K5: the game ends the moment a hand is empty
            self._winner = seat
            self._over = True
        elif self._count == self._limit:  # K8
            self._over = True
        else:
            seat += 1
            self._seat = 0 if seat == len(self._hands) else seat

    def reset(self, recycled: list[int] | None = None) -> None:
        """The seat to move resets (K2): draw the next card, recycling the play pile beneath
        the top card first when the draw pile is empty, or with nothing at all to draw take a
        free reset. `recycled` (next card first) replays a recorded recycle instead of
        shuffling (with explicit chance, the pile's cards in any order). Raises IllegalMove,
        changing nothing, when not allowed."""
        if self._over or self._chance:
            raise IllegalMove("The game is over." if self._over else _AWAITING_DRAW)
        if self._pending:
            raise IllegalMove("You have already drawn for this reset: now play any card.")
        draw, pile = self._draw, self._pile
        order: tuple[int, ...] | None = None
        if draw:
            if recycled is not None:
                raise IllegalMove("The draw pile is not empty, so nothing is recycled.")
        elif len(pile) > 1:
            under = pile[:-1]
            if recycled is not None and Counter(recycled) != Counter(under):
                raise IllegalMove("The recycled pile must be exactly the cards beneath the top.")
            if self._explicit:  # no order at all: each draw from it is a chance node
                under.sort()
            elif recycled is None:
                if self._rng_shared:
                    self._rng, self._rng_shared = _copy_rng(self._rng), False
                self._rng.shuffle(under)
            else:
                under = list(recycled)
            order = tuple(under)
            del pile[:-1]
            under.reverse()
            draw.extend(under)
            self._recycled_at = len(self._turns)
            self._since = [[] for _ in self._hands]
        elif recycled:
            raise IllegalMove("There is nothing beneath the top card to recycle.")
        seat = self._seat
        drew = None
        if draw and self._explicit and self._recycled_at >= 0:
            self._resets[seat] += 1
            self._turns.append((seat, RESET, None, None, order, False))
            self._chance = True
            return
        if draw:
            drew = draw.pop()
            insort(self._hands[seat], drew)
            self._since[seat].append(drew)
        self._resets[seat] += 1
        self._turns.append((seat, RESET, None, drew, order, False))
        self._pending = True

    # -- chance left to the caller (explicit_chance) ------------------------------------------

    @property
    def is_chance(self) -> bool:
        return self._chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card a reset draws from a recycled pile: each value still in it, with the
        share of the pile it makes up."""
        if not self._chance:
            return []
        size = len(self._draw)
        return [(card, n / size) for card, n in sorted(Counter(self._draw).items())]

    def apply_chance(self, outcome: Any) -> None:
        if not self._chance:
            raise IllegalMove("Nothing is left to chance here.")
        if not _is_int(outcome) or outcome not in self._draw:
            raise IllegalMove(f"{outcome!r} is not a card of the draw pile.")
        self._draw.remove(outcome)
        seat, kind, _, _, order, _ = self._turns[-1]
        insort(self._hands[seat], outcome)
        self._since[seat].append(outcome)
        self._turns[-1] = (seat, kind, None, outcome, order, False)
        self._chance = False
        self._pending = True

    def reseed(self, seed: int) -> None:
        self._rng, self._rng_shared = Random(seed), False

    # -- what players see and the result ------------------------------------------------------

    @property
    def outcome(self) -> ChukoOutcome | None:
        if not self._over:
            return None
        if self._outcome is None:
            # Outcomes are immutable and one per winner (or none), so a configuration makes
            # each once (a learning loop ends a game every few microseconds).
            endings = self.game._endings
            self._outcome = endings.get(self._winner) or endings.setdefault(
                self._winner, self._ending())
        return self._outcome

    def _ending(self) -> ChukoOutcome:
        scores = tuple(float(s == self._winner) for s in range(len(self._hands)))
        if self._winner is None:
            limit = self._limit
            return ChukoOutcome(scores, (), f"The {_limit_reached(limit)}", turn_limit=limit,
                                truncated=True)
        return ChukoOutcome(scores, (self._winner,), "The winner emptied their hand first.")

    def describe(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None) -> str:
        """One sentence about `seat`'s move just played, as `for_seat` may know it: the card
        a reset drew is named to the drawer alone (K6), and "Chükö!" marks a hand going down
        to one card (K7). A reset and the card it plays are two moves, worded to read well
        one after the other: "Ann reset and drew a card." then "Ann played 2 after
        resetting." """
        if isinstance(move, str):
            move = Move.parse(move)
        mover = who(seat, names, for_seat)
        _, kind, card, drew, recycled, chuko = self._turns[-1]
        if move.card is None:
            seen = "a card" if seat != for_seat or drew is None else str(drew)
            if recycled is not None:
                again = "you" if seat == for_seat else mover
                text = (f"{mover} reset: the play pile was shuffled into a new draw pile of "
                        f"{count(len(recycled), 'card')} and {again} drew {seen}.")
            elif drew is None and not self._chance:
                text = f"{mover} reset with nothing to draw."
            else:
                text = f"{mover} reset and drew {seen}."
        else:
            text = f"{mover} played {move.card}"
            text += " after resetting." if kind == RESET else "."
            if chuko:
                text += " Chükö!"
        outcome = self.outcome
        if outcome is not None:
            text += " " + outcome.describe(names, for_seat)
        return text

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def turns_played(self) -> int:
        return self._count

    def view(self, seat: int | None) -> Json:
        """Ruling K6, in a size that does not grow with the game: own hand, every
        hand's size, the play pile, the draw pile's size, the turns since this seat's previous
        one (`recent`), each seat's count of plays and resets and, after a recycle, which cards
        went into the draw pile but not their order, with the cards this seat drew since.
        Once the game is over, `hands` shows every seat's hand."""
        view = self._view(seat, reveal=False)
        if self._over:
            view["hands"] = [list(h) for h in self._hands]
        return view

    def full_view(self, seat: int | None) -> Json:
        """`view(seat)` with every hand (`hands`) and every card a reset drew (`drew` in each
        recent turn), at any position: for replays of a finished game."""
        view = self._view(seat, reveal=True)
        view["hands"] = [list(h) for h in self._hands]
        return view

    def _view(self, seat: int | None, reveal: bool) -> Json:
        players = len(self._hands)
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise ConfigError(f"There is no seat {seat!r} in a {players}-player game.")
        outcome = self.outcome
        total = len(self._turns)
        last = self._recycled_at
        return {
            "game": Game.id,
            "pack": list(self.game.pack),
            "players": players,
            "seat": seat,
            "first": self._first,
            "turn_limit": self.game.turn_limit,
            "to_move": list(self.to_move),
            "phase": ("over" if self._over else RESET if self._pending
                      else CHANCE if self._chance else PLAY),
            "hand": None if seat is None else list(self._hands[seat]),
            "drawn": (self._turns[-1][3] if self._pending and (reveal or seat == self._seat)
                      else None),
            "hand_sizes": [len(h) for h in self._hands],
            "draw_size": len(self._draw),
            "pile": list(self._pile),
            "top": self._pile[-1],
            "recent": self._recent(seat, reveal),
            "turns_total": total,
            "plays": list(self._plays),
            "resets": list(self._resets),
            "recycled": None if last < 0 else sorted(self._turns[last][4] or ()),
            "drawn_since": None if seat is None or last < 0 else list(self._since[seat]),
            "turns_played": self._count,
            "winner": self._winner,
            "outcome": outcome.to_json() if outcome else None,
        }

    def _recent(self, seat: int | None, reveal: bool) -> list[Json]:
        """The turns from `seat`'s previous turn on (a spectator: the last round of turns),
        as that seat may know them: `number` counts turns from 1, the drawn card is shown only
        on its own resets (on every reset with `reveal`), a recycled pile as a sorted list,
        'free' for a reset with nothing to draw; 'chuko' marks a hand going down to one card
        (K7)."""
        turns, players = self._turns, len(self._hands)
        total = len(turns)
        if seat is None:
            start = total - players
        else:  # the seat's latest turn, or the one before while it is still under way
            start = total - 1 - (self._first + total - 1 - seat) % players
            if start == total - 1 and (self._pending or self._chance):
                start -= players
        recent = []
        for number in range(max(start, 0), total):
            mover, kind, card, drew, recycled, chuko = turns[number]
            entry: Json = {"number": number + 1, "seat": mover, "kind": kind}
            if card is not None:
                entry["card"] = card
            if kind == RESET:
                if reveal or mover == seat:
                    entry["drew"] = drew
                # Whether a card was drawn is public: the hand sizes show it.
                entry["free"] = drew is None and recycled is None
            if recycled is not None:
                entry["recycled"] = sorted(recycled)
            entry["chuko"] = chuko
            recent.append(entry)
        return recent

    def record(self) -> Json:
        if self._deal is None:
            raise ChukoError("A position sampled for search has no game record.")
        hands, top, draw = self._deal
        turns = []
        for seat, kind, card, drew, recycled, _ in self._turns:
            entry: Json = {"seat": seat, "kind": kind}
            if card is not None:
                entry["card"] = card
            if drew is not None:
                entry["drew"] = drew
            if recycled is not None:
                entry["recycled"] = list(recycled)
            turns.append(entry)
        outcome = self.outcome
        record = {
            "game": Game.id,
            "pack": list(self.game.pack),
            "players": len(self._hands),
            "first": self._first,
            "turn_limit": self.game.turn_limit,
            "deal": {"hands": [list(h) for h in hands], "top": top, "draw": list(draw)},
            "turns": turns,
            "winner": self._winner,
            "outcome": outcome.to_json() if outcome else None,
        }
        if self._explicit:
            # A recycled pile is written as its cards, each draw from it as the reset's
            # `drew`; a reset still waiting for its draw ends the turns without one.
            record["explicit_chance"] = True
        return record

    def cards(self) -> list[int]:
        """Every card of the game: hands, play pile and draw pile."""
        return sorted([c for hand in self._hands for c in hand] + self._pile + self._draw)

    def copy(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._pile = list(self._pile)
        other._draw = list(self._draw)
        other._turns = list(self._turns)
        other._plays = list(self._plays)
        other._resets = list(self._resets)
        other._since = [list(drawn) for drawn in self._since]
        self._rng_shared = other._rng_shared = True
        return other


def _copy_rng(rng: Random) -> Random:
    """An independent generator in the same state (SystemRandom has no state to copy)."""
    if isinstance(rng, SystemRandom):
        return rng
    # Not Random(): seeding a new generator reads os.urandom, which is slow next to setstate
    # (docs/performance.md, Chükö); setstate sets it all.
    other = type(rng).__new__(type(rng))
    other.setstate(rng.getstate())
    return other


# -- records --------------------------------------------------------------------------------


def _is_sequence(value: Any) -> TypeGuard[Sequence[Any]]:
    """A list or tuple (asked first: a deal per game in a learning loop, and the check
    against the abstract Sequence is slow), or another sequence that is not text."""
    return isinstance(value, list | tuple) or (
        isinstance(value, Sequence) and not isinstance(value, str | bytes))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(c) for c in value):
        raise ConfigError(f"The deal's {what} is not a list of cards.")
    return value


def _read_deal(game: Game, deal: Any) -> tuple[list[list[int]], int, list[int], int]:
    """Hands, top card, draw pile (next card first) and first seat from a deal written as
    `record()["deal"]` (with `first` when the game does not set it); ConfigError in one
    sentence when it is no deal of `game`."""
    if not isinstance(deal, Mapping):
        raise ConfigError("A deal is an object with hands, a top card and a draw pile.")
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != game.players:
        raise ConfigError(f"The deal needs {game.players} hands, one for each player.")
    hands = [_ints(h, "hand") for h in hands]
    draw = _ints(deal.get("draw"), "draw pile")
    top = deal.get("top")
    if not _is_int(top):
        raise ConfigError("The deal has no top card.")
    if any(len(h) != game.hand_size for h in hands):
        raise ConfigError(f"Every hand of the deal must hold {count(game.hand_size, 'card')}.")
    if Counter([c for h in hands for c in h] + [top] + draw) != Counter(game.pack):
        raise ConfigError("The deal does not use exactly the cards of its pack.")
    first = deal.get("first", game.first)
    if game.first is not None and first != game.first:
        raise ConfigError(f"The deal's first player is not seat {game.first}, as the game sets.")
    if not _is_int(first) or not 0 <= first < game.players:
        raise ConfigError(f"The deal must say who plays first: a seat from 0 to "
                          f"{game.players - 1}.")
    return [list(h) for h in hands], top, list(draw), first


def _replay(cls: type[Game], record: Json, observe: Observer | None) -> State:
    """Rebuild a game from its record, re-checking the deal and every turn; `observe` sees
    the deal and then each move: a reset, and the card it plays, are two moves."""
    if not isinstance(record, dict) or record.get("game") != Game.id:
        raise ParseError("That record is not a Chükö game.")
    if not isinstance(record.get("deal"), dict):
        raise ParseError("The record has no deal.")
    pack = record.get("pack")
    if not isinstance(pack, list) or not all(_is_int(c) for c in pack):
        raise ParseError("The record's pack is not a list of cards.")
    game = cls(
        players=record.get("players"),  # type: ignore[arg-type]
        pack=tuple(pack),
        first=record.get("first"),
        turn_limit=record.get("turn_limit"),
    )
    if game.first is None:
        raise ParseError("The record does not say who played first.")
    hands, top, draw, first = _read_deal(game, record["deal"])
    state = State(game, hands, top, draw, first, make_rng(None),
                  explicit=record.get("explicit_chance") is True)
    turns = record.get("turns", [])
    if not isinstance(turns, list):
        raise ParseError("The record's turns are not a list.")
    if observe is not None:
        observe(state, None, None)
    for number, turn in enumerate(turns, 1):
        try:
            if state.is_chance:
                raise ParseError("a turn follows a reset that drew nothing from its pile.")
            _replay_turn(state, turn, observe)
        except ChukoError as error:
            raise type(error)(f"Turn {number} of the record: {error}") from None
    if "winner" in record and record["winner"] != state.winner:
        raise ParseError("The record's winner is not the one its turns produce.")
    return state


def _replay_turn(state: State, turn: Any, observe: Observer | None) -> None:
    if not isinstance(turn, dict) or turn.get("kind") not in (PLAY, RESET):
        raise ParseError("a turn is an object with a kind, 'play' or 'reset'.")
    seat, card = turn.get("seat"), turn.get("card")
    if seat not in state.to_move:
        raise IllegalMove(f"it is not seat {seat}'s turn.")
    if card is not None and not _is_int(card):
        raise ParseError(f"{card!r} is not a card.")
    if turn["kind"] == PLAY:
        if card is None:
            raise ParseError("a play needs its card.")
        state.put(card)
        if observe is not None:
            observe(state, seat, _move(card))
        return
    recycled = turn.get("recycled")
    if recycled is not None:
        recycled = _ints(recycled, "recycled pile")
    elif not state._draw and len(state._pile) > 1:
        raise ParseError("this reset recycled the play pile but the record lacks its order.")
    state.reset(recycled)
    if state.is_chance and "drew" in turn:  # explicit chance: the draw is the recorded one
        state.apply_chance(turn["drew"])
    if turn.get("drew") != state._turns[-1][3]:
        raise ParseError("the card drawn is not the next card of the draw pile.")
    if observe is not None:
        observe(state, seat, RESET_MOVE)
    if card is not None:
        state.put(card)
        if observe is not None:
            observe(state, seat, _move(card))


# -- sampling hidden cards for search ----------------------------------------------------------


def sampler(view: Json, *, explicit_chance: bool = False) -> Callable[[Random], State]:
    """For a seat's view (K6), a function that deals the cards that seat cannot see at
    random, consistently with everything it can: every sampled state could be the real one,
    and shows the seat the same view apart from the turns before its recent ones.

    Hidden cards are the pack less the seat's hand and the play pile. After a recycle the
    draw pile holds only cards that went into it and were not drawn since; the seat knows
    its own draws, so the draw pile is sampled among those still hidden. The public
    summaries (turns, resets, the last recycle, the winner) are the view's; turns older than
    the recent ones are placeholders that hold only their seat, and another seat's hidden
    draw is `HIDDEN_DRAW`. Once the game is over every hand is known. `explicit_chance`: the
    sampled state leaves its draws from a recycled pile to the caller (`Game.from_order`)."""
    seat = view["seat"]
    if seat is None:
        raise ConfigError("A spectator has no hand to search from.")
    game = Game(players=view["players"], pack=tuple(view["pack"]), turn_limit=view["turn_limit"])
    hand, pile, sizes = list(view["hand"]), list(view["pile"]), list(view["hand_sizes"])
    hidden = Counter(game.pack)
    hidden.subtract(hand)
    hidden.subtract(pile)
    candidates = +hidden
    if view["recycled"] is not None:
        since: Counter[int] = Counter(view["recycled"])
        since.subtract(view["drawn_since"])
        candidates = +since & candidates
    pool = list(candidates.elements())
    rest = hidden.copy()
    rest.subtract(pool)
    others = list((+rest).elements())
    draw_size = view["draw_size"]
    players, first, total = view["players"], view["first"], view["turns_total"]
    turns = _known_turns(view)
    recycled_at = next((i for i, turn in enumerate(turns) if turn[4] is not None), -1)
    phase = view["phase"]
    known = view.get("hands") if phase == "over" else None

    def sample(rng: Random) -> State:
        draw = rng.sample(pool, len(pool))
        unseen = others + draw[draw_size:]
        rng.shuffle(unseen)
        hands, at = [], 0
        for s, size in enumerate(sizes):
            if known is not None:
                hands.append(list(known[s]))
            elif s == seat:
                hands.append(list(hand))
            else:
                hands.append(unseen[at : at + size])
                at += size
        state = State(game, hands, pile[0], draw[:draw_size], first, rng,
                      explicit=explicit_chance)
        state._deal = None
        state._pile = list(pile)
        state._count = view["turns_played"]
        state._turns = list(turns)
        state._plays = list(view["plays"])
        state._resets = list(view["resets"])
        if recycled_at >= 0:
            state._recycled_at = recycled_at
            state._since[seat] = list(view["drawn_since"])
        state._winner = view["winner"]
        state._over = phase == "over"
        state._pending = phase == RESET
        state._chance = phase == CHANCE
        # The seat of the latest turn while it is under way or ended the game, else the next.
        state._seat = (first + total - (phase != PLAY)) % players
        return state

    return sample


# Another seat's reset drew a card the sampling seat never saw: not a card of any pack.
HIDDEN_DRAW = 0


def _known_turns(view: Json) -> list[Turn]:
    """The turns as far as the view knows them: placeholders holding only their seat, then
    the recent turns, the last recycle placed among them (or just before them: its number is
    not in the view, only its cards)."""
    players, first, total = view["players"], view["first"], view["turns_total"]
    turns: list[Turn] = [((first + n) % players, PLAY, None, None, None, False)
                         for n in range(total)]
    for entry in view["recent"]:
        kind, drew = entry["kind"], entry.get("drew")
        # Another seat's reset drew a card unless it was free or still awaits its chance draw.
        if (kind == RESET and "drew" not in entry and not entry["free"]
                and not (view["phase"] == CHANCE and entry["number"] == total)):
            drew = HIDDEN_DRAW
        recycled = tuple(entry["recycled"]) if "recycled" in entry else None
        turns[entry["number"] - 1] = (entry["seat"], kind, entry.get("card"), drew, recycled,
                                      entry["chuko"])
    if view["recycled"] is not None and not any(t[4] is not None for t in turns):
        start = view["recent"][0]["number"] - 1 if view["recent"] else total
        turns[max(start - 1, 0)] = turns[max(start - 1, 0)][:4] + (
            tuple(view["recycled"]), False)
    return turns
