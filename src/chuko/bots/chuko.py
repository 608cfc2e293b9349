"""Chükö bots. Each sees only its seat's view (ruling K6) and the legal moves.

- `random` picks any legal move.
- `advised_move` follows the rule text's advice: keep the cards that fit on many top cards
  and shed the awkward ones first, put a card on top that the next player is unlikely to
  follow once their hand is small, and reset on purpose when the next player is down to one
  card and a reset puts a harder card on top.
- `easy` plays the advised move, except that half its moves are a random legal move, as a
  beginner's would be. On the named packs the advice alone leaves almost nothing to gain:
  a player who sees every hand and every future shuffle, and plays the best reply to three
  advised players, wins hardly more than the fair share (docs/performance.md, Chükö: the
  bound part of `python -m bench chuko`). So a level that plays only the advice cannot be
  beaten, by search or by anyone; what separates beginners from good players in this game
  is the turns they throw away, and that is what `easy` does.
- `hard` is determinized Monte Carlo search on top of the advice: each round deals the cards
  it cannot see at random, consistently with its view (`games.chuko.sampler`), and plays
  every legal move on that same deal, each game then played out by the advice from static
  tables. It leaves the advised move only for a move that won clearly more of those paired
  games (McNemar's test). Its budget is a time per move (200 ms by default) or a fixed
  number of simulations (reproducible, used by tests and benchmarks).

The adviser shows the hard bot's choice, made from the seat's view alone.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.text import Plural, Text
from chuko.core.words import count
from chuko.games.chuko import PLAY, Game, Move, State, may_follow, sampler

from . import Bot, RandomBot, refuse_options
from .reviewing import not_reviewed, opinion, percent, review_moves

# How much keeping a card that fits on many top cards is worth, against the chance that the
# next player can follow the card played (rule text: "keep cards with several factors").
# Above 1: while the next player holds several cards they can follow almost anything, so
# what decides the game is whether the bot can still follow at its own next turn. With 0.5
# the bot lost to random play on the `primes` pack, where following means going lower: it
# shed its low cards first and was left with high ones that only a reset could place.
KEEP = 2.0
# A deliberate reset must put a card on top that this much fewer unseen cards may follow.
RESET_GAIN = 0.2


# The share of the easy bot's moves that are a random legal move. With half, easy sits
# about midway between random and the advice on every named pack for 2 to 5 players, where
# a smaller share left the advice hardly ahead of it (docs/performance.md, Chükö).
MISTAKES = 0.5


def make_bot(level: str, rng: Random, **options: Any) -> Bot:
    if level == "hard":
        return HardBot(rng, **options)
    refuse_options(options, f"{Game.title} {level} bots")
    return RandomBot(rng) if level == "random" else EasyBot(rng)


def unseen_cards(view: dict[str, Any]) -> list[int]:
    """The cards a seat cannot see: the pack less its hand and the play pile."""
    cards = Counter(view["pack"])
    cards.subtract(view["hand"])
    cards.subtract(view["pile"])
    return list((+cards).elements())


def follow_chance(card: int, unseen: list[int], hand_size: int) -> float:
    """Chance that a hand of `hand_size` cards dealt from the unseen cards holds one that
    may follow `card` once it is on top (K1): one minus the chance that every card of the
    hand is among those that may not (drawn without replacement)."""
    pool = len(unseen)
    blocked = pool - sum(may_follow(c, card) for c in unseen)
    miss = 1.0
    for drawn in range(min(hand_size, pool)):
        miss *= max(blocked - drawn, 0) / (pool - drawn)
    return 1.0 - miss


def reach(card: int, unseen: list[int]) -> float:
    """Share of the unseen cards on which `card` could later be played: why it is worth
    keeping (cards with several prime factors, and low cards, follow more tops)."""
    if not unseen:
        return 0.0
    return sum(may_follow(card, c) for c in unseen) / len(unseen)


def card_costs(cards: set[int], unseen: list[int], next_hand: int) -> dict[int, float]:
    """What playing each card costs, lowest best: the chance that the next player, holding
    `next_hand` cards, can follow it, plus the worth of keeping it. When the next player
    holds one card, following means winning, so only stopping them counts."""
    keep = 0.0 if next_hand == 1 else KEEP
    return {
        card: follow_chance(card, unseen, next_hand) + keep * reach(card, unseen)
        for card in cards
    }


def advised_move(view: dict[str, Any], legal_moves: list[Move]) -> Move:
    """The move the rule text's strategy advice picks (the module docstring)."""
    unseen = unseen_cards(view)
    cards = [m.card for m in legal_moves if m.card is not None]
    seat, sizes = view["seat"], view["hand_sizes"]
    next_hand = sizes[(seat + 1) % len(sizes)]
    cost = card_costs(set(view["hand"]), unseen, next_hand)
    if view["phase"] == "reset":  # after the draw: play anything
        return Move(min(cards, key=cost.__getitem__))
    if not cards:
        return Move(None)
    best = min(cards, key=cost.__getitem__)
    # With the next player on one card the cost is their chance to follow, and so to win.
    if next_hand == 1 and min(cost.values()) + RESET_GAIN < cost[best]:
        return Move(None)
    return Move(best)


class EasyBot:
    """The advised move, or a random legal move for a share MISTAKES of its moves."""

    level = "easy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.random = RandomBot(rng)

    def choose(self, view: dict[str, Any], legal_moves: list[Move]) -> Move:
        if self.rng.random() < MISTAKES:
            move: Move = self.random.choose(view, legal_moves)
            return move
        return advised_move(view, legal_moves)


@lru_cache(maxsize=64)  # a table per (pack, hand size): bounded across rooms' packs
def _rollout_costs(pack: tuple[int, ...], next_hand: int) -> dict[int, float]:
    """The advice's costs against the whole pack instead of the unseen cards: a static
    table per size of the next player's hand, so that rollouts choose with lookups."""
    return card_costs(set(pack), list(pack), next_hand)


# A rollout stops, with no winner, after this many more cards: a game that long is a
# stalemate (two hands of high primes resetting at each other can last to the turn limit),
# and playing it out would take most of the search's time.
ROLLOUT_CARDS = 200


def greedy_playout(state: State, rng: Random, epsilon: float = 0.1) -> None:
    """Play on as the advice would, from the static costs: the cheapest card, a reset when
    there is none or when the next player holds one card and the hand has a much harder
    card to put on top; and a random playable card with probability `epsilon`, so that the
    simulations vary. Stops when the game ends or after `ROLLOUT_CARDS` cards."""
    pack, players = state.game.pack, state.game.players
    stop = state.turns_played + ROLLOUT_CARDS
    while state.outcome is None and state.turns_played < stop:
        seat = state.to_move[0]
        next_hand = len(state.hand((seat + 1) % players))
        cost = _rollout_costs(pack, next_hand)
        cards = state.playable()
        if not state.pending_reset:
            best = min(cards, key=cost.__getitem__) if cards else None
            if best is None or (
                next_hand == 1
                and min(cost[c] for c in state.hand(seat)) + RESET_GAIN < cost[best]
            ):
                state.reset()
                cards = state.playable()
        if len(cards) > 1 and rng.random() < epsilon:
            state.put(cards[int(rng.random() * len(cards))])
        else:
            state.put(min(cards, key=cost.__getitem__))


# How many standard errors a move must win by, over the deals on which it and the advised
# move fared differently, before the hard bot plays it instead: following every
# difference plays noise, but two standard errors kept the advised move too often: one won
# more games than two on the same deals (docs/performance.md, Chükö).
CLEAR = 1.0


@dataclass(frozen=True)
class Trials:
    """Paired trial games from one seat's view: every move met the same sampled deals and
    draws (common random numbers), each game then played out by the advice. `moves[0]` is
    the advised move; `won[r][k]` whether move k won on deal r."""

    moves: list[Move]
    won: list[list[bool]]

    def lead(self, arm: int, over: int) -> tuple[int, float]:
        """How many more deals move `arm` won that move `over` lost than the other way
        round, and the lead that counts as clear (CLEAR standard errors of McNemar's test)."""
        better = sum(row[arm] > row[over] for row in self.won)
        worse = sum(row[arm] < row[over] for row in self.won)
        return better - worse, CLEAR * math.sqrt(better + worse)

    def clearly_better(self, arm: int, over: int) -> bool:
        lead, clear = self.lead(arm, over)
        return lead > 0 and lead > clear

    def choice(self) -> int:
        """The hard bot's move: the advised one, unless another won clearly more of the
        deals on which the two fared differently (the most such deals among those)."""
        best, margin = 0, 0
        for arm in range(1, len(self.moves)):
            lead, clear = self.lead(arm, 0)
            if lead > margin and lead > clear:
                best, margin = arm, lead
        return best

    def share(self, arm: int) -> float:
        """The share of its trial games move `arm` won."""
        return sum(row[arm] for row in self.won) / len(self.won)


def trials(view: dict[str, Any], moves: list[Move], rng: Random, rounds: int,
           deadline: float = math.inf) -> Trials:
    """`rounds` deals (at least one; fewer once `deadline` passes) sampled from `view` with
    `rng`, every move in `moves` played on each and the game played out by the advice."""
    seat, sample = view["seat"], sampler(view)
    won: list[list[bool]] = []
    while len(won) < rounds and (not won or time.perf_counter() < deadline):
        # Common random numbers: every move meets the same deal and the same draws.
        seed = rng.getrandbits(64)
        row = []
        for move in moves:
            local = Random(seed)
            world = sample(local)
            world.play(seat, move)
            greedy_playout(world, local)
            row.append(world.winner == seat)
        won.append(row)
    return Trials(moves, won)


def advised_first(view: dict[str, Any], legal_moves: list[Move]) -> list[Move]:
    """The legal moves, the advised one first: the move the hard bot plays unless another
    beats it clearly."""
    default = advised_move(view, legal_moves)
    return [default] + [m for m in legal_moves if m != default]


class HardBot:
    level = "hard"

    def __init__(
        self,
        rng: Random,
        time_limit: float | None = 0.2,
        simulations: int | None = None,
    ) -> None:
        if simulations is not None and (not isinstance(simulations, int) or simulations < 1):
            raise ConfigError(Text("The hard bot's simulations are a positive whole number."))
        if simulations is None and (time_limit is None or time_limit <= 0):
            raise ConfigError(Text("The hard bot needs a positive time per move or simulations."))
        self.rng = rng
        self.time_limit = time_limit
        self.simulations = simulations
        self.last_simulations = 0  # how many the last decision ran (for benchmarks)

    def choose(self, view: dict[str, Any], legal_moves: list[Move]) -> Move:
        if len(legal_moves) == 1:
            self.last_simulations = 0
            return legal_moves[0]
        moves = advised_first(view, legal_moves)
        if self.simulations is not None:  # at least one round, shared evenly among the moves
            rounds, deadline = max(1, self.simulations // len(moves)), math.inf
        else:  # __init__ made sure there is a positive time limit
            rounds, deadline = 1 << 62, time.perf_counter() + (self.time_limit or 0.0)
        tried = trials(view, moves, self.rng, rounds, deadline)
        self.last_simulations = len(tried.won) * len(moves)
        return moves[tried.choice()]


# How long the adviser's hard bot thinks: a hint should come at once.
ADVISER_TIME = 0.3


class Adviser:
    """The hard bot's choice for the seat to move, from that seat's view alone (ruling K6):
    Chükö has no exact solver, and a hint must not show hidden cards."""

    def __init__(self, game: Game) -> None:
        self.bot = HardBot(secrets.SystemRandom(), time_limit=ADVISER_TIME)

    def hint(self, state: State, seat: int) -> Json:
        move = self.bot.choose(state.view(seat), state.legal_moves(seat))
        note = (Text("The hard bot would reset.") if move.card is None
                else Text("The hard bot would play {card}.", card=move.card))
        return {"values": {str(move): "best"}, "note": note}


# -- the post-game review ----------------------------------------------------------------------

# The review judges each move with a choice by the hard bot's paired trial games: from the
# mover's view alone (what they could know), REVIEW_ROUNDS deals per move. A long game's
# moves share REVIEW_BUDGET deals, down to REVIEW_FLOOR each, and moves past the budget go
# unreviewed. Deals rather than seconds, so the same record gets the same review, and a
# game as long as a room allows costs the pool a bounded time.
REVIEW_ROUNDS = 30
REVIEW_FLOOR = 10
REVIEW_BUDGET = 600
REVIEW_SEED = 0
# A move is called a mistake only when the hard bot's choice beat it clearly (its own test)
# and by this share of the trial games at least: in a lost position the test alone called
# 2 games of 60 won against none a mistake.
MISTAKE_MARGIN = 0.1


@dataclass(frozen=True)
class Decision:
    """A move of a finished game and what its mover knew: their view and the legal moves."""

    view: dict[str, Any]
    legal: list[Move]
    move: Move


def only_move(decision: Decision) -> Json:
    forced = decision.move.is_reset and decision.view["phase"] == PLAY
    return opinion(Text("the only move: no card fitted") if forced else Text("the only move"))


def on_purpose(decision: Decision) -> Text | None:
    """Why a reset with a card that fitted was chosen, as far as the view shows it."""
    view = decision.view
    if not decision.move.is_reset or view["phase"] != PLAY:
        return None
    sizes = view["hand_sizes"]
    if sizes[(view["seat"] + 1) % len(sizes)] == 1:
        return Text("reset on purpose here: the next player held one card")
    return Text("reset on purpose here")


def judged(decision: Decision, tried: Trials) -> Json:
    """The hard bot's word on one move: its own choice too, or a clearly better one (a
    mistake), or another it prefers by too little to call one."""
    played, chosen = tried.moves.index(decision.move), tried.choice()
    games = count(len(tried.won), "trial game")
    mine, theirs = percent(tried.share(played)), percent(tried.share(chosen))
    said = {"games": games, "mine": mine, "theirs": theirs}
    card = tried.moves[chosen].card
    mistake = False
    if played == chosen:
        verdict = (Text("the hard bot would reset too (it won {mine} of {games} from here)",
                        **said) if card is None else
                   Text("the hard bot would play {card} too (it won {mine} of {games} from "
                        "here)", card=card, **said))
    elif tried.clearly_better(chosen, played) and (
            tried.share(chosen) - tried.share(played) >= MISTAKE_MARGIN):
        verdict = (Text("the hard bot would reset: it won {theirs} of {games} from here, this "
                        "move {mine}", **said) if card is None else
                   Text("the hard bot would play {card}: it won {theirs} of {games} from "
                        "here, this move {mine}", card=card, **said))
        mistake = True
    else:
        verdict = (Text("the hard bot would reset, but this move did about as well in its "
                        "{games} ({mine} against {theirs})", **said) if card is None else
                   Text("the hard bot would play {card}, but this move did about as well in "
                        "its {games} ({mine} against {theirs})", card=card, **said))
    why = on_purpose(decision)
    if why is not None:
        verdict = Text("{reason}; {verdict}", reason=why, verdict=verdict)
    return opinion(verdict, mistake)


def review(record: Json) -> list[Json | None]:
    """Each move of a finished game, as the hard bot judges it from what its mover could
    see: "the hard bot would play 14 too (it won 58% of 30 trial games from here)", "reset
    on purpose here: the next player held one card; …", or a mistake: "the hard bot would
    reset: it won 71% of 30 trial games from here, this move 40%". The bots' opinion, not
    proof (`opinion`). Bounded by REVIEW_BUDGET: past it, one verdict says so and the
    moves after have none."""

    def assess(state: State) -> Callable[[Any], Decision]:
        seat = state.to_move[0]
        view, legal = state.view(seat), state.legal_moves(seat)
        return lambda move: Decision(view, legal, move)

    decisions = review_moves(Game, record, assess)
    choices = sum(len(d.legal) > 1 for d in decisions)
    rounds = max(REVIEW_FLOOR, min(REVIEW_ROUNDS, REVIEW_BUDGET // max(choices, 1)))
    budget = REVIEW_BUDGET // rounds  # the moves with a choice that get reviewed
    rng = Random(REVIEW_SEED)
    verdicts: list[Json | None] = []
    for decision in decisions:
        if len(decision.legal) == 1:
            verdicts.append(only_move(decision))
            continue
        if budget <= 0:
            verdicts.append(not_reviewed(Plural(
                "the first {n} move with a choice of a game this long",
                "the first {n} moves with a choice of a game this long",
                n=REVIEW_BUDGET // rounds)))
            break
        budget -= 1
        moves = advised_first(decision.view, decision.legal)
        verdicts.append(judged(decision, trials(decision.view, moves, rng, rounds)))
    return verdicts + [None] * (len(decisions) - len(verdicts))
