"""The one protocol every game offers (docs/architecture.md, 'The protocol').

A `Game` is a frozen, validated configuration, described to the front ends by its
`descriptor` and built from their options by `Game.from_options`; `Game.new(seed)` deals a
`State`. A state says who must act (`to_move`), lists and applies moves, shows each seat
what it may see (`view`), words each move and the result for each seat (`describe`), and
writes its whole history as a JSON `record()` that `Game.replay` reads back, re-checking
every move and showing each position to an observer on the way.

The conformance suite checks every registered game against the rules of
`core.conformance.RULES`; each docstring below names the rules that bind its method, in
quotes, and docs/architecture.md lists them all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar

from .descriptor import Descriptor
from .errors import IllegalMove
from .text import Text
from .words import listing, number_text, score_line, sentences, who

Json = dict[str, Any]
# Called by `Game.replay` with each position: (state, seat that moved, move), the deal first
# as (state, None, None). The state changes after the call returns: read it there.
Observer = Callable[["State", int | None, Any], None]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: points per seat, the winning seats (empty for a draw or
    no winner) and a sentence saying why it ended. `truncated` marks a game stopped by a
    limit set from outside the rules' own ending (Chükö's turn limit), which learning code
    must tell apart from a draw."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str
    truncated: bool = field(default=False, kw_only=True)

    def to_json(self) -> Json:
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason,
                "truncated": self.truncated}

    def describe(self, names: Sequence[str], for_seat: int | None) -> str:
        """The result as `for_seat` reads it, with the score line: "You won 5–2.",
        "Ann won 5–2.", "Draw, 3–3." Games whose endings say more override this."""
        line = score_line(self.scores)
        if not self.winners:
            if len(set(self.scores)) == 1:
                return (Text("Draw, {score}.", score=line) if len(self.scores) > 1
                        else Text("The game is over."))
            return Text("Nobody won ({score}).", score=line)
        ordered = score_line(sorted(self.scores, reverse=True))
        best = number_text(max(self.scores))
        if self.winners == (for_seat,):
            if len(self.scores) == 1:
                return Text("You won.") if self.scores[0] else Text("You lost.")
            if len(self.scores) == 2:
                return Text("You won {score}.", score=ordered)
            return Text("You won with {best} ({score}).", best=best, score=line)
        named = [who(s, names, for_seat) for s in self.winners]
        if not isinstance(named[0], Text):  # a name starts the sentence
            named[0] = named[0][:1].upper() + named[0][1:]
        winners = listing(named)
        if len(self.scores) == 1:
            return (Text("{winners} won.", winners=winners) if self.scores[0]
                    else Text("{winners} lost.", winners=winners))
        if len(self.scores) == 2:
            return Text("{winners} won {score}.", winners=winners, score=ordered)
        return Text("{winners} won with {best} ({score}).", winners=winners, best=best,
                    score=line)


class Game(ABC):
    """A game's rules under one configuration. Subclasses are frozen dataclasses that set
    `descriptor`; `id`, `title`, `summary`, the player range and `lists_moves` are read from
    it, so they are said once."""

    descriptor: ClassVar[Descriptor]
    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]  # one line for menus
    lists_moves: ClassVar[bool]
    min_players: ClassVar[int]
    max_players: ClassVar[int | None]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        described = cls.__dict__.get("descriptor")
        if described is not None:
            cls.id, cls.title, cls.summary = described.id, described.title, described.summary
            traits = described.traits
            cls.min_players, cls.max_players = traits.min_players, traits.max_players
            cls.lists_moves = traits.lists_moves

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None, *,
                     bots_only: bool = False) -> Game:
        """The configuration a front end's options make: each option checked against the
        descriptor, then the rules' own checks; ConfigError gives one sentence per error.
        `bots_only`: no person plays, so a game that could go on forever must not.
        Rule 'descriptors make games': the defaults and the examples make games, and an
        unknown option is refused."""
        return cls.configure(cls.descriptor.read_options(options), bots_only=bots_only)

    @classmethod
    def configure(cls, values: Json, *, bots_only: bool) -> Game:
        """The game from checked option values; override where options are not fields."""
        return cls(**values)

    @abstractmethod
    def new(self, seed: int | None = None) -> State:
        """Deal a new game; reproducible with a seed, secret (SystemRandom) without. Built on
        `from_order`: the seeded generator shuffles `deck()` and makes `deal_choices()`.
        Rules: 'seeded deals' (the same seed, the same game; other seeds, other games) and
        'games end' (random legal moves reach an outcome)."""

    # -- chance, made explicit (docs/envs.md, 'Chance') ---------------------------------------
    # A random deal is a shuffle of `deck()` followed by one uniform choice per entry of
    # `deal_choices()` (a first player, a dealer). Chance later in the game (a recycled draw
    # pile, a new round's deal, a tie's draw) is drawn from the state's generator, or, in a
    # state made with `explicit_chance=True`, left to the caller as chance nodes: `to_move`
    # is empty, `is_chance` is true, and `apply_chance` takes one of `chance_outcomes()`.

    @abstractmethod
    def deck(self) -> list[Any]:
        """The cards a deal shuffles, repeats included, in a fixed order."""

    def deal_choices(self) -> tuple[int, ...]:
        """The sizes of the uniform choices a deal makes after its shuffle (e.g. the first
        player among `players`), in the order `from_order` takes them."""
        return ()

    @abstractmethod
    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> State:
        """The game dealt from `order` (a permutation of `deck()`) and `choices` (one value
        in range(n) per entry of `deal_choices()`). `rng` draws later chance events unless
        `explicit_chance`. ConfigError, in one sentence, for an order or choice that is not
        one (rule 'orders are permutations of the deck')."""

    @abstractmethod
    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> State:
        """The game started from a given deal, in the shape of `record()["deal"]` (hands,
        layout, draw order...). Who starts (or deals) is the deal's own `first` (`dealer`)
        when it says, else the configuration's; a deal that leaves it open in a game that
        does too is refused, so a given deal is never completed by chance. ConfigError in
        one sentence if it is not a deal of this game (rule 'deals rebuild the game')."""

    @classmethod
    @abstractmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> State:
        """Rebuild a state from `State.record()`, re-checking every move; `observe` is
        called with the deal and after every move, in time linear in the record (rule
        'replays rebuild the game')."""

    @classmethod
    def frames(cls, record: Json, names: Sequence[str], seat: int | None, *,
               reveal: bool = False) -> list[Json]:
        """A game move by move as `seat` saw it (None: a spectator): per position its `view`
        and a sentence about the move that led to it. `reveal` (for a finished game) shows
        every position in full, hidden cards included, and words every move as the revealed
        replay shows it (`describe_revealed`)."""
        found: list[Json] = []

        def observe(state: State, mover: int | None, move: Any) -> None:
            word = state.describe_revealed if reveal else state.describe
            caption = "The deal." if mover is None else word(mover, move, names, seat)
            view = state.full_view(seat) if reveal else state.view(seat)
            found.append({"view": view, "caption": caption})

        cls.replay(record, observe)
        return found

    @staticmethod
    @abstractmethod
    def parse_move(text: str) -> Any:
        """A move from what a person types; raises ParseError with a hint. Rules: 'move
        text is canonical' (`parse_move(str(move)) == move`) and 'any text is a move or a
        sentence'."""

    @property
    @abstractmethod
    def players(self) -> int:
        """The number of seats."""


class State(ABC):
    """One position of a game. Seats are numbered from 0."""

    game: Game

    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """The seats that must act now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Any]:
        """Every legal move of `seat`, sorted; empty when it is not that seat's turn. Rule
        'play accepts exactly the legal moves': among the strings of the descriptor's
        `notation`, `play` takes exactly these moves' texts."""

    @property
    def is_chance(self) -> bool:
        """True when the next event is chance, left to the caller (`explicit_chance`)."""
        return False

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, each possible outcome (JSON-ready) with its probability; the
        probabilities add up to 1. Empty elsewhere (rule 'chance nodes list their
        outcomes')."""
        return []

    def apply_chance(self, outcome: Any) -> None:
        """Apply one of `chance_outcomes()`; IllegalMove if this is no chance node or the
        outcome is not one of them."""
        raise IllegalMove(Text("Nothing is left to chance here."))

    def reseed(self, seed: int) -> None:
        """Draw the chance events still to come from a generator seeded with `seed`, so that
        a stored game rebuilt from its deal, its moves and this seed comes out the same
        (the server's storage). Games with no chance after the deal keep this default."""
        return None

    def random_move(self, seat: int, rng: Random) -> Any:
        """A uniformly random legal move; games with huge move lists override this."""
        return rng.choice(self.legal_moves(seat))

    def play(self, seat: int, move: Any) -> None:
        """Apply a move (a move value or its text) or raise IllegalMove, leaving the state as
        it was (rule 'refused moves change nothing')."""
        if isinstance(move, str):
            move = self.game.parse_move(move)
        if self.outcome is not None:
            raise IllegalMove(Text("The game is over."))
        if seat not in self.to_move:
            raise IllegalMove(Text("It is not your turn."))
        self._apply(seat, move)

    @abstractmethod
    def _apply(self, seat: int, move: Any) -> None:
        """Check `move` for `seat` (whose turn it is) and apply it, or raise IllegalMove before
        changing anything."""

    @abstractmethod
    def view(self, seat: int | None) -> Json:
        """What `seat` may see (None: a spectator), JSON-ready (rule 'views are JSON').
        Rule 'hidden values are null': what the seat may not know is null, so a key stays
        and a list keeps its length whatever is hidden. Rule 'seat lists have a value per
        seat': each key the descriptor names in `seat_lists` holds one entry per seat."""

    def full_view(self, seat: int | None) -> Json:
        """`view(seat)` with every hidden card shown, for replays of a finished game. Rule
        'full views keep the view's shape': the view's keys (it may add some) and list
        lengths, every value the same but the view's nulls, so a screen draws it the same
        way. Games with hidden cards override this."""
        return self.view(seat)

    @property
    def round_ended(self) -> bool:
        """True right after a move that ended a round while the game goes on (front ends pause
        there to show the round's result); games of one round never set it."""
        return False

    def describe(self, seat: int, move: Any, names: Sequence[str], for_seat: int | None) -> str:
        """Called right after `seat` played `move`: one sentence about it as `for_seat` (None:
        a spectator) may know it, naming seats by `names` and `for_seat` as "You"; it ends
        with the result when the move ended the game (rule 'moves are described'). Games
        override this to say more."""
        text = (Text("You played {move}.", move=str(move)) if seat == for_seat
                else Text("{name} played {move}.", name=names[seat], move=str(move)))
        if self.outcome is not None:
            return sentences(text, self.outcome.describe(names, for_seat))
        return text

    def describe_revealed(self, seat: int, move: Any, names: Sequence[str],
                          for_seat: int | None) -> str:
        """`describe` as a revealed replay of a finished game words it, where `full_view`
        shows everything: a secret move is named ("Ann bid 4 in secret."). Games whose
        moves keep no secret keep this default, the live sentence."""
        return self.describe(seat, move, names, for_seat)

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def record(self) -> Json:
        """The whole game: configuration, deal, moves and chance events, JSON-ready."""

    @abstractmethod
    def cards(self) -> list[Any]:
        """Every card the game holds now wherever it lies, sorted (engine-side; players get
        `view`). Rules 'cards are conserved' (no card appears or vanishes during a deal)
        and 'cards come from the deck' (only `deck()`'s cards, no more often)."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy, cheap enough for search (rule 'copies are independent')."""
