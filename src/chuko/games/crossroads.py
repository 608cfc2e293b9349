"""Crossroads: two players draft from the 4×3 layout and build trails (rulings C1–C4).

Each player takes six cards. A player's first card starts their trail; each later card
goes at the left or right end and scores 1 when it shares a prime factor with the card
at that end. A two-round match replays the same layout with the other player first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import Any, ClassVar

from chuko.core.descriptor import Descriptor, Integrations, Option, Pool, Study, Traits, pack_option
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.core.layout import SIZE, LayoutMove, available_positions, take
from chuko.core.numbers import matches
from chuko.core.protocol import Json, Observer, Outcome
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.core.words import score_line

from .layout_game import LayoutGame, LayoutState, deal_from_record, layout_view, replay_moves

DESCRIPTOR = Descriptor(
    id="crossroads",
    title="Crossroads",
    summary=Text("two players draft from the layout and build scoring trails"),
    # The whole pack is the face-up layout and each seat's view shows every trail and
    # point: no seat holds a secret (ruling C1).
    traits=Traits(min_players=2, max_players=2, information="perfect"),
    integrations=Integrations(
        bots="chuko.bots.crossroads:make_bot",
        hints="chuko.bots.crossroads:Adviser",
        review="chuko.bots.crossroads:review",
        commands={"play": "chuko.tui.crossroads:run", "solve": "chuko.cli.solve:run"},
        screen="chuko.web:js/crossroads.js",
        rules="chuko.games:rules/crossroads.md",
        lessons="chuko.games:lessons/crossroads.json",
        encoding="chuko.games.encodings.crossroads:encoding",
        twin="chuko.envs.twins.crossroads:twin",
        study=Study("chuko.analysis.study.crossroads:run_study"),
    ),
    options=(
        pack_option(),
        Option("rounds", Text("Rounds"), "choice", 1, choices=(1, 2),
               help=Text("1, or 2 for a match on one layout with the other player first")),
        Option("first", Text("Who starts"), "choice", "random", choices=("random", "0", "1"),
               choice_labels=(Text("at random"), Text("the first seat"),
                              Text("the second seat")),
               help=Text("random, or the seat that starts (0 the first seat, 1 the second)")),
    ),
    levels=("random", "easy", "hard", "perfect"),
    examples=({}, {"rounds": 2}, {"pack": "1,1,2,2,3,4,6,6,9,10,25,1"}),
    notation="ABCDEFGHIJKLR",
    pools=(Pool("match", Text("Two-round match"), 2, {"rounds": 2}),),
)


@dataclass(frozen=True)
class Crossroads(LayoutGame):
    """Crossroads with a pack (or a fixed deal), one round or a two-round match, and
    optionally a fixed first player (ruling C1: random otherwise)."""

    descriptor: ClassVar[Descriptor] = DESCRIPTOR

    rounds: int = 1
    first: int | None = None

    @classmethod
    def configure(cls, values: Json, *, bots_only: bool) -> Crossroads:
        first = None if values["first"] == "random" else int(values["first"])
        return cls(pack=values["pack"], rounds=values["rounds"], first=first)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.rounds not in (1, 2):
            raise ConfigError(Text("Crossroads is one round or a two-round match (rounds 1 or "
                                   "2)."))
        if self.first not in (None, 0, 1):
            raise ConfigError(Text("The first player is seat 0 or seat 1."))

    @property
    def players(self) -> int:
        return 2

    # Chance: the shuffle of the layout and, unless fixed, the first player (ruling C1). A
    # match's second round lays out the same cards again (C3), so nothing is left to chance
    # after the deal and `explicit_chance` changes nothing.

    def deal_choices(self) -> tuple[int, ...]:
        """The first player, when the configuration leaves it to chance."""
        return (2,) if self.first is None else ()

    def new(self, seed: int | None = None) -> CrossroadsState:
        rng = make_rng(seed)
        order = self.shuffled(rng)
        return self.from_order(order, [rng.randrange(n) for n in self.deal_choices()])

    def from_order(self, order: Sequence[Any], choices: Sequence[int] = (), *,
                   rng: Random | None = None, explicit_chance: bool = False) -> CrossroadsState:
        layout = self.layout_from_order(order)
        if self.first is not None:
            if not isinstance(choices, Sequence) or len(choices):
                raise ConfigError(Text("This game fixes the first player: the deal makes no "
                                       "choice."))
            return CrossroadsState(self, layout, self.first)
        if not isinstance(choices, Sequence) or [type(c) for c in choices] != [int] or (
            choices[0] not in (0, 1)
        ):
            raise ConfigError(Text("The deal chooses the first player: one choice, 0 or 1."))
        return CrossroadsState(self, layout, choices[0])

    def from_deal(self, deal: Json, *, rng: Random | None = None,
                  explicit_chance: bool = False) -> CrossroadsState:
        """The game from a layout as `record()["deal"]` writes it, or from `{"deal": layout,
        "first": seat}` as a record writes both. The first player is the deal's, else the
        configuration's; a deal that leaves it to neither is refused, so a deal always
        starts the same game (nothing is left to chance after the deal: `rng` is unused)."""
        given = deal.get("first") if isinstance(deal, dict) else None
        layout = self.layout_from_deal(deal.get("deal") if isinstance(deal, dict) else deal)
        if given is not None:
            if type(given) is not int or given not in (0, 1):
                raise ConfigError(Text("A deal's first player is seat 0 or seat 1."))
            if self.first is not None and given != self.first:
                raise ConfigError(Text("The deal's first player is not seat {seat}, as the "
                                       "game sets.", seat=self.first))
        first = self.first if given is None else given
        if first is None:
            raise ConfigError(Text('The deal must say who starts: give {example}, or fix the '
                                   "first player in the game.",
                                   example='{"deal": ..., "first": 0 or 1}'))
        return CrossroadsState(self, layout, first)

    @classmethod
    def replay(cls, record: Json, observe: Observer | None = None) -> CrossroadsState:
        if record.get("game") != cls.id:
            raise ParseError(Text("That record is not a Crossroads game."))
        deal = deal_from_record(record)
        first = record.get("first")
        if first not in (0, 1):
            raise ParseError(Text("The record does not say who started: 'first' is 0 or 1."))
        game = cls(deal=deal, rounds=record.get("rounds", 1), first=first)
        state = CrossroadsState(game, deal, first)
        replay_moves(state, record.get("moves", []), observe)
        return state


@lru_cache(maxsize=256)  # 5³ ways rows can have lost cards, with a trail or without
def _takes(taken: tuple[int, ...], trail: bool) -> tuple[LayoutMove, ...]:
    """The moves that take an available card: to an end of the mover's trail, or to start
    it (moves are immutable, so the lists are shared)."""
    ends = ("L", "R") if trail else (None,)
    return tuple(LayoutMove(p, end) for p in available_positions(taken) for end in ends)


def state_from_view(view: Json) -> CrossroadsState:
    """The position a seat's view shows. Crossroads hides nothing, and a view carries the
    deal, the first player, the rounds and every move, so the engine replays them."""
    return Crossroads.replay(
        {key: view.get(key) for key in ("game", "deal", "first", "rounds", "moves")}
    )


def round_result(points: Sequence[int], number: int, names: Sequence[str],
                 for_seat: int | None) -> Text:
    """"Ann won round 1 4–2", "Round 1 is a draw, 3–3" (`number` counts from 0)."""
    if points[0] == points[1]:
        return Text("Round {number} is a draw, {score}", number=number + 1,
                    score=score_line(points))
    winner = 0 if points[0] > points[1] else 1
    line = score_line((points[winner], points[1 - winner]))
    if winner == for_seat:
        return Text("You won round {number} {score}", number=number + 1, score=line)
    return Text("{name} won round {number} {score}", name=names[winner], number=number + 1,
                score=line)


def round_phrase(points: Sequence[int], number: int, names: Sequence[str],
                 for_seat: int | None) -> Text:
    """One round of a match as the match's result lists it: "round 1: you won 4–2",
    "round 2: a draw, 3–3" (`number` counts from 0)."""
    if points[0] == points[1]:
        return Text("round {number}: a draw, {score}", number=number + 1,
                    score=score_line(points))
    winner = 0 if points[0] > points[1] else 1
    line = score_line((points[winner], points[1 - winner]))
    if winner == for_seat:
        return Text("round {number}: you won {score}", number=number + 1, score=line)
    return Text("round {number}: {name} won {score}", number=number + 1, name=names[winner],
                score=line)


@dataclass(frozen=True)
class CrossroadsOutcome(Outcome):
    """The end of a game or match: `scores` are the totals, `rounds` the points per round."""

    rounds: tuple[tuple[int, int], ...]

    def to_json(self) -> Json:
        return {**super().to_json(), "rounds": [list(p) for p in self.rounds]}

    def describe(self, names: Sequence[str], for_seat: int | None) -> str:
        """"You won 5–2.", "Draw, 3–3."; a match says the match first, then each round:
        "You won the match 8–5 (round 1: you won 5–2; round 2: a draw, 3–3).", "The match
        is a draw, 8–8 (round 1: Ann won 5–3; round 2: Bob won 5–3)."."""
        if len(self.rounds) == 1:
            return super().describe(names, for_seat)
        first, second = (round_phrase(points, number, names, for_seat)
                         for number, points in enumerate(self.rounds))
        if not self.winners:
            return Text("The match is a draw, {score} ({first}; {second}).",
                        score=score_line(self.scores), first=first, second=second)
        winner = self.winners[0]
        line = score_line((self.scores[winner], self.scores[1 - winner]))
        if winner == for_seat:
            return Text("You won the match {score} ({first}; {second}).", score=line,
                        first=first, second=second)
        return Text("{name} won the match {score} ({first}; {second}).", name=names[winner],
                    score=line, first=first, second=second)


class CrossroadsState(LayoutState):
    game: Crossroads

    def __init__(self, game: Crossroads, layout: tuple[int, ...], first: int) -> None:
        self.game = game
        self.layout = layout
        self.first = first
        self.round = 0
        self.taken = (0, 0, 0)
        self.trails: tuple[list[int], list[int]] = ([], [])
        self.points: list[list[int]] = [[0, 0]]
        # The trails of the rounds already played (a two-round match keeps round one's).
        self.past_trails: list[tuple[list[int], list[int]]] = []
        self.moves: list[LayoutMove] = []
        self.gains: list[int] = []  # what each move scored

    # -- whose turn ---------------------------------------------------------------------

    @property
    def round_first(self) -> int:
        """Seat that starts the current round."""
        return self.starter(self.round)

    def starter(self, round_index: int) -> int:
        """Seat that starts a round (ruling C3: the other player in round two)."""
        return self.first if round_index == 0 else 1 - self.first

    @property
    def finished(self) -> bool:
        return self.round == self.game.rounds - 1 and sum(self.taken) == SIZE

    @property
    def round_ended(self) -> bool:
        """True from a match's first round's last move until the second round's first."""
        return self.round > 0 and sum(self.taken) == 0

    @property
    def to_move(self) -> tuple[int, ...]:
        if self.finished:
            return ()
        return ((self.round_first + sum(self.taken)) % 2,)

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self, seat: int) -> list[LayoutMove]:
        if seat not in self.to_move:
            return []
        return list(_takes(self.taken, bool(self.trails[seat])))

    def _apply(self, seat: int, move: LayoutMove) -> None:
        trail = self.trails[seat]
        if move.bridge:
            raise IllegalMove(Text("Crossroads has no bridges: every card goes face up."))
        if move.position not in available_positions(self.taken):
            raise IllegalMove(Text(
                "{letter} is not available: take the leftmost card of a row ({letters}).",
                letter=move.position_name,
                letters=", ".join(m.position_name for m in self._available_moves())))
        if trail and move.end is None:
            raise IllegalMove(Text("Say which end of your trail {letter} goes to: {letter}L or "
                                   "{letter}R.", letter=move.position_name))
        if not trail and move.end is not None:
            move = LayoutMove(move.position)  # ruling G4: a first card has no end
        card = self.layout[move.position]
        # ruling C2: score 1 when the card matches the end it is placed beside
        if move.end == "L":
            gained = matches(card, trail[0])
            trail.insert(0, card)
        else:
            gained = bool(trail) and matches(card, trail[-1])
            trail.append(card)
        self.points[self.round][seat] += int(gained)
        self.taken = take(self.taken, move.position)
        self.moves.append(move)
        self.gains.append(int(gained))
        if sum(self.taken) == SIZE and self.round < self.game.rounds - 1:
            self.past_trails.append(self.trails)
            self.round += 1
            self.taken = (0, 0, 0)
            self.trails = ([], [])
            self.points.append([0, 0])

    def _available_moves(self) -> list[LayoutMove]:
        return [LayoutMove(p) for p in available_positions(self.taken)]

    # -- what players see ------------------------------------------------------------------

    def totals(self) -> tuple[int, int]:
        return (sum(p[0] for p in self.points), sum(p[1] for p in self.points))

    def view(self, seat: int | None) -> Json:
        # Crossroads is a game of perfect information: every seat sees everything.
        return {
            "game": self.game.id,
            "seat": seat,
            **layout_view(self.layout, self.taken),
            "round": self.round + 1,
            "rounds": self.game.rounds,
            "first": self.first,
            "to_move": list(self.to_move),
            "trails": [list(t) for t in self.trails],
            "points": [list(p) for p in self.points],
            "totals": list(self.totals()),
            "finished_rounds": [
                self._finished_round(number, trails)
                for number, trails in enumerate(self.past_trails)
            ],
            "moves": [str(m) for m in self.moves],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def _finished_round(self, number: int, trails: tuple[list[int], list[int]]) -> Json:
        """A round already played as a screen shows it between rounds: its trails, points,
        winners (none for a draw) and the move that ended it."""
        points = self.points[number]
        last = self.moves[(number + 1) * SIZE - 1]
        return {
            "round": number + 1,
            "first": self.starter(number),
            "trails": [list(t) for t in trails],
            "points": list(points),
            "winners": [] if points[0] == points[1] else [int(points[1] > points[0])],
            "last_move": {"seat": 1 - self.starter(number), "move": str(last),
                          "card": self.layout[last.position], "end": last.end},
        }

    def describe(self, seat: int, move: LayoutMove, names: Sequence[str],
                 for_seat: int | None) -> str:
        """"You took 14 to the right end: +1 (3–2)." The points in brackets are the round's,
        in the seats' order whoever moves, so every line of the log reads alike. A move
        that ends a match's first round says how the round went and who starts the next;
        a move that ends the game adds the result."""
        # The move as the engine applied it: a first card typed with an end loses the end.
        applied = self.moves[-1]
        number = (len(self.moves) - 1) // SIZE
        trails = self.past_trails[number] if number < self.round else self.trails
        card = self.layout[applied.position]
        name = None if seat == for_seat else names[seat]
        if len(trails[seat]) == 1:
            text = _started(card, name)
        else:
            line = score_line(self.points[number])
            if self.game.rounds > 1:
                line = Text("{score} in round {number}", score=line, number=number + 1)
            text = _took(card, applied.end == "L", bool(self.gains[-1]), line, name)
        if number < self.round:
            result = round_result(self.points[number], number, names, for_seat)
            if self.round_first == for_seat:
                text = Text("{move} {result}; you start round {number}.", move=text,
                            result=result, number=self.round + 1)
            else:
                text = Text("{move} {result}; {name} starts round {number}.", move=text,
                            result=result, name=names[self.round_first], number=self.round + 1)
        if self.outcome is not None:
            return Text("{move} {result}", move=text,
                        result=self.outcome.describe(names, for_seat))
        return text

    @property
    def outcome(self) -> CrossroadsOutcome | None:
        if not self.finished:
            return None
        totals = self.totals()
        rounds = tuple((p[0], p[1]) for p in self.points)
        if totals[0] == totals[1]:
            return CrossroadsOutcome(totals, (), Text("All cards are taken with equal points."),
                                     rounds)
        winner = 0 if totals[0] > totals[1] else 1
        return CrossroadsOutcome(
            totals, (winner,), Text("All cards are taken: more points win."), rounds)

    def record(self) -> Json:
        return {
            **self.game.config_json(),
            "rounds": self.game.rounds,
            "deal": self.view(None)["deal"],
            "first": self.first,
            "moves": [str(m) for m in self.moves],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def cards(self) -> list[int]:
        left = [c for c in layout_view(self.layout, self.taken)["layout"] if c is not None]
        return sorted(left + self.trails[0] + self.trails[1])

    def copy(self) -> CrossroadsState:
        clone = object.__new__(CrossroadsState)
        clone.__dict__.update(self.__dict__)
        clone.trails = (list(self.trails[0]), list(self.trails[1]))
        clone.points = [list(p) for p in self.points]
        clone.past_trails = list(self.past_trails)
        clone.moves = list(self.moves)
        clone.gains = list(self.gains)
        return clone


def _started(card: int, name: str | None) -> Text:
    """A first card, said to its player (`name` None) or of them."""
    if name is None:
        return Text("You took {card} to start your trail.", card=card)
    return Text("{name} took {card} to start their trail.", name=name, card=card)


def _took(card: int, left: bool, scored: bool, line: str, name: str | None) -> Text:
    """A card taken to an end with what it scored and the round's points (`line`), said to
    its player (`name` None) or of them."""
    if name is None:
        if left:
            return (Text("You took {card} to the left end: +1 ({points}).", card=card,
                         points=line) if scored else
                    Text("You took {card} to the left end: no point ({points}).", card=card,
                         points=line))
        return (Text("You took {card} to the right end: +1 ({points}).", card=card,
                     points=line) if scored else
                Text("You took {card} to the right end: no point ({points}).", card=card,
                     points=line))
    if left:
        return (Text("{name} took {card} to the left end: +1 ({points}).", name=name,
                     card=card, points=line) if scored else
                Text("{name} took {card} to the left end: no point ({points}).", name=name,
                     card=card, points=line))
    return (Text("{name} took {card} to the right end: +1 ({points}).", name=name, card=card,
                 points=line) if scored else
            Text("{name} took {card} to the right end: no point ({points}).", name=name,
                 card=card, points=line))


# The registry's uniform names (games/__init__.py).
Game = Crossroads
State = CrossroadsState
