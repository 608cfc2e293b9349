"""Chuchula for research environments (core/encoding.py).

A grouping is built in steps. Action = place × 4 + (group − 1): put the card at `place`
(0–12, the hand as `view(seat)["hand"]` lists it) into group 1–4; 52 actions. The partial
move is a tuple of 13 labels, 0 for a card not yet placed. Once 12 cards are placed the
13th is the one left out and `step_move` returns the complete move, a `HandGrouping` the
engine turns into the seat's `Grouping`.

Masks allow exactly the placements that can still complete a valid grouping (ruling H4:
groups strongest first, equal groups in either order). The ~200,000 valid groupings of a
hand are never listed. The engine's `group_strength` ranks the hand's 286 triples (through
a table of the 741 kinds of group by ranks and suit, built once in milliseconds); a step is
allowed once some valid grouping that agrees with the partial move takes it: one found for
an earlier step, one made from it by exchanging two cards, or one found by a depth-first
search that stops at the first completion (groups in order, strongest first). A step is
refused when that search fails, and stays refused as the partial move grows. Each mask
costs well under a millisecond (`python -m bench chuchula_mask`).

Observation: 419 float32 from the seat's view, seats counted from the observer ("me" 0,
the next seat 1, ...):

| index   | what                                                                     |
| ------- | ------------------------------------------------------------------------ |
| 0–220   | hand place p: 17·p + rank − 2 (ranks 2–14, ace high), 17·p + 13 + suit   |
|         | (s h d c); zeros without a hand                                          |
| 221–285 | partial move, place p: 221 + 5·p + label (0 not placed, 1–4 the group)    |
| 286–289 | each seat's points / (4 × length)                                        |
| 290–293 | each seat has committed this round                                       |
| 294–297 | the dealer                                                               |
| 298–300 | 2, 3 or 4 players                                                        |
| 301     | a point game (else a round game)                                         |
| 302     | rounds played / length, at most 1 (below)                                |
| 303–322 | the last scored round, position k: 303 + 5·k + winner, + 4 if cancelled  |
| 323–418 | its groups' types: 323 + 24·k + 6·seat + type (individual 0 … trial 5)   |

Every value lies in [0, 1] (`observation_bounds`). Points are counted over 4 × length,
which no seat can pass (a point game ends at the target, at most target + 3). Rounds played
are counted over length, and a point game, which may run past that many rounds (a round
may score nothing), counts length for more: its end depends on points alone.

Utilities: a seat's points, 0 to 4 a round; a point game ends once someone has the target,
with at most target + 3 (one point short of it before a round that gives all four).
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left
from collections import OrderedDict, deque
from functools import lru_cache
from typing import Any

import numpy as np

from chuko.core.deck52 import DECK, SUITS, Card
from chuko.core.errors import IllegalMove, ParseError
from chuko.core.protocol import Json, State
from chuko.core.text import Text
from chuko.games.chuchula import (
    GROUPS,
    HAND_SIZE,
    Game,
    Grouping,
    GroupType,
    HandGrouping,
    group_strength,
)
from chuko.games.chuchula import State as ChuchulaState

ACTIONS = HAND_SIZE * GROUPS
TRIPLES = tuple(itertools.combinations(range(HAND_SIZE), 3))
SIZE = 419
_CARD, _PARTIAL, _SCORES, _COMMITTED, _DEALER, _PLAYERS = 0, 221, 286, 290, 294, 298
_MODE, _ROUND, _WINNERS, _TYPES = 301, 302, 303, 323
_TYPE_OF = {kind.name: int(kind) for kind in GroupType}
Partial = tuple[int, ...]
Groups = tuple[int, ...]  # the places of groups 1–4, as bit masks
Span = tuple[int, int]  # the least and the greatest strength a group can have


_RANKS = 15  # rank numbers run 2–14 (ace high)
_TOP = 1 << 62  # above every strength
_FULL = (1 << HAND_SIZE) - 1
_TRIPLE = np.array(TRIPLES, dtype=np.int64)
_TRIPLE_MASK = [sum(1 << p for p in triple) for triple in TRIPLES]
_MASKS = np.array(_TRIPLE_MASK, dtype=np.int64)
_HOLDS = np.array([[p in triple for triple in TRIPLES] for p in range(HAND_SIZE)])
# A place's four actions as bits of an action set (bit place × 4 + group − 1).
_PLACE_BITS = [0b1111 << (GROUPS * p) for p in range(HAND_SIZE)]
_GROUP_BITS = [sum(1 << (GROUPS * p + g) for p in range(HAND_SIZE)) for g in range(GROUPS)]
# A triple's places as group-1 action bits; shifted by g − 1 for group g.
_SPREAD = {mask: sum(1 << (GROUPS * p) for p in triple)
           for mask, triple in zip(_TRIPLE_MASK, TRIPLES, strict=True)}
_PLACES_OF = dict(zip(_TRIPLE_MASK, TRIPLES, strict=True))


@lru_cache(maxsize=1)
def _strength_table() -> Any:
    """The engine's `group_strength` of every group by its ranks (highest, middle, lowest)
    and whether it is of one suit: the strength depends on nothing else, so 741 groups of
    representative cards stand for all 22,100 (built once, in milliseconds)."""
    table = np.full(_RANKS**3 * 2, -1, dtype=np.int64)
    for low, mid, high in itertools.combinations_with_replacement(range(2, _RANKS), 3):
        key = ((high * _RANKS + mid) * _RANKS + low) * 2
        table[key] = group_strength([Card(low, "s"), Card(mid, "h"), Card(high, "d")])
        if low < mid < high:
            table[key + 1] = group_strength([Card(rank, "s") for rank in (low, mid, high)])
    return table


class _Hand:
    """One hand's groups ranked by the engine's strength, and the groupings found so far
    (as action sets: each is a witness that all its steps can be taken together)."""

    def __init__(self, hand: tuple[str, ...]) -> None:
        cards = [Card.parse(text) for text in hand]
        ranks = np.sort(np.array([c.rank for c in cards])[_TRIPLE], axis=1)
        suits = np.array([SUITS.index(c.suit) for c in cards])[_TRIPLE]
        suited = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
        keys = ((ranks[:, 2] * _RANKS + ranks[:, 1]) * _RANKS + ranks[:, 0]) * 2 + suited
        strength = _strength_table()[keys]
        self.strength = dict(zip(_TRIPLE_MASK, strength.tolist(), strict=True))
        self.negated = -strength
        self.order = np.argsort(self.negated, kind="stable")
        self.ranked = self._ranked(self.order)
        self.holding: dict[int, tuple[list[int], list[int]]] = {}
        # Groupings found (their steps as an action set, their groups' places).
        self.witnesses: deque[tuple[int, Groups]] = deque(maxlen=256)
        # Steps refused for a partial move (its steps taken, the steps refused).
        self.refusals: deque[tuple[int, int]] = deque(maxlen=64)
        self.masks: OrderedDict[Partial, int] = OrderedDict()

    def _ranked(self, order: Any) -> tuple[list[int], list[int]]:
        """Groups strongest first: their strengths negated (ascending, for bisect) and
        their masks of places."""
        return self.negated[order].tolist(), _MASKS[order].tolist()

    def _candidates(self, required: int, free: int) -> tuple[list[int], list[int]]:
        """The groups holding every place of `required`, strongest first (some may use
        places that are not free: the caller skips them)."""
        size = required.bit_count()
        if size == 0:
            if free.bit_count() > 9:  # else listing the few groups beats skipping many
                return self.ranked
            places = [p for p in range(HAND_SIZE) if free >> p & 1]
            found = sorted((-self.strength[mask], mask) for mask in (
                1 << a | 1 << b | 1 << c for a, b, c in itertools.combinations(places, 3)))
        elif size == 1:
            place = required.bit_length() - 1
            if place not in self.holding:
                self.holding[place] = self._ranked(self.order[_HOLDS[place][self.order]])
            return self.holding[place]
        elif size == 2:
            found = sorted((-self.strength[required | 1 << p], required | 1 << p)
                           for p in range(HAND_SIZE) if free >> p & 1)
        else:
            return ([-self.strength[required]], [required]) if size == 3 else ([], [])
        return [n for n, _ in found], [m for _, m in found]

    def _span(self, required: int, free: int) -> Span | None:
        """The weakest and the strongest group that holds `required` and otherwise only
        free places; None if there is no such group."""
        negs, masks = self._candidates(required, free)
        room = ~(required | free)
        strongest = next((i for i, m in enumerate(masks) if not m & room), None)
        if strongest is None:
            return None
        weakest = next(i for i in range(len(masks) - 1, -1, -1) if not masks[i] & room)
        return -negs[weakest], -negs[strongest]

    def complete(self, required: list[int], free: int,
                 spans: list[Span | None]) -> Groups | None:
        """A valid grouping whose group g holds the places of `required[g]` and otherwise
        free places (the groups' places); None if there is none. `spans[g]` bounds the
        strength group g can have (None: there is no such group). Depth first, groups in
        order, each strongest first and no stronger than the one before (ruling H4), so the
        first try nearly always completes. A group is tried only within what the groups
        around it allow (not weaker than a later group can be, nor stronger than an earlier
        one), and a refuted (group, places left, ceiling) is not searched again under a
        lower ceiling."""
        known = [span for span in spans if span is not None]
        if len(known) < GROUPS:
            return None
        floors = [max((span[0] for span in known[g + 1 :]), default=0) for g in range(GROUPS)]
        caps = [min((span[1] for span in known[:g]), default=_TOP) for g in range(GROUPS)]
        if any(high < floor or low > cap for (low, high), floor, cap
               in zip(known, floors, caps, strict=True)):
            return None
        refuted: dict[int, int] = {}
        chosen = [0] * GROUPS

        def search(group: int, ceiling: int, free: int) -> bool:
            if group == GROUPS:
                return True
            need, floor = required[group], floors[group]
            room = ~(need | free)
            negs, masks = self._candidates(need, free)
            for index in range(bisect_left(negs, -min(ceiling, caps[group])), len(negs)):
                strength, mask = -negs[index], masks[index]
                if strength < floor:
                    break
                if mask & room:
                    continue
                left = free & ~mask
                key = left << 3 | group
                if refuted.get(key, -1) >= strength:
                    continue
                chosen[group] = mask
                if search(group + 1, strength, left):
                    return True
                refuted[key] = strength
            return False

        return tuple(chosen) if search(0, _TOP, free) else None

    @staticmethod
    def _bits(groups: Groups) -> int:
        """A grouping's steps, as an action set."""
        return sum(_SPREAD[mask] << group for group, mask in enumerate(groups))

    def _repair(self, agree: list[Groups], place: int, group: int, free: int) -> Groups | None:
        """A grouping that puts `place` in `group`, made from one found already by
        exchanging `place` with a card of `group` not yet placed, if that keeps the groups
        in order; a cheap way to cover most steps before searching."""
        strength, bit = self.strength, 1 << place
        for groups in reversed(agree[-8:]):
            target = groups[group]
            home = next((g for g in range(GROUPS) if groups[g] & bit), None)
            for other in _PLACES_OF[target]:
                swap = 1 << other
                if not free & swap:
                    continue
                changed = list(groups)
                changed[group] = target ^ (swap | bit)
                if home is not None:
                    changed[home] ^= swap | bit
                a, b, c, d = (strength[mask] for mask in changed)
                if a >= b >= c >= d:
                    return tuple(changed)
        return None

    def mask(self, partial: Partial) -> int:
        """The steps that can still complete a valid grouping, as an action set. A step is
        allowed when a grouping already found agrees with `partial` and takes it, refused
        when it was refused for a part of `partial` (a partial move only loses
        completions as it grows), and otherwise searched for."""
        if partial in self.masks:
            self.masks.move_to_end(partial)
            return self.masks[partial]
        required, placed, taken = [0] * GROUPS, 0, 0
        for place, group in enumerate(partial):
            if group:
                required[group - 1] |= 1 << place
                placed |= 1 << place
                taken |= 1 << (GROUPS * place + group - 1)
        free = _FULL & ~placed
        wanted = sum(_PLACE_BITS[p] for p in range(HAND_SIZE) if free >> p & 1)
        for group, need in enumerate(required):
            if need.bit_count() >= 3:
                wanted &= ~_GROUP_BITS[group]
        found = refused = 0
        agree = [groups for bits, groups in self.witnesses if bits & taken == taken]
        for groups in agree:
            found |= self._bits(groups)
        for before, steps in self.refusals:
            if before & taken == before:
                refused |= steps
        unknown = wanted & ~found & ~refused
        spans = [self._span(need, free) for need in required]
        if None in spans:
            unknown, refused = 0, wanted
        while unknown:
            step = unknown & -unknown
            place, group = divmod(step.bit_length() - 1, GROUPS)
            made = self._repair(agree, place, group, free)
            if made is None:
                # The spans found for the partial move still bound the other groups.
                trial, rest, bounds = list(required), free & ~(1 << place), list(spans)
                trial[group] |= 1 << place
                bounds[group] = self._span(trial[group], rest)
                made = self.complete(trial, rest, bounds)
            if made is None:
                unknown &= ~step
                refused |= step
            else:
                bits = self._bits(made)
                self.witnesses.append((bits, made))
                agree.append(made)
                found |= bits
                unknown &= ~bits
        self.refusals.append((taken, refused & wanted))
        self.masks[partial] = found & wanted
        if len(self.masks) > 64:
            self.masks.popitem(last=False)
        return found & wanted


@lru_cache(maxsize=16)
def _hand(hand: tuple[str, ...]) -> _Hand:
    return _Hand(hand)


def _array(actions: int) -> Any:
    """An action set as the int8 mask."""
    data = np.frombuffer(actions.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(data, bitorder="little")[:ACTIONS].astype(np.int8)


def _partial(partial: Any) -> Partial:
    if partial is None:
        return (0,) * HAND_SIZE
    try:
        labels = tuple(int(g) for g in partial)
    except (TypeError, ValueError):
        labels = ()
    if len(labels) != HAND_SIZE or not all(0 <= g <= GROUPS for g in labels):
        raise ParseError(Text("{partial!r} is not a partial grouping: 13 labels from 0 (not "
                              "placed) to 4.", partial=partial))
    return labels


class ChuchulaEncoding:
    num_actions = ACTIONS
    observation_shape = (SIZE,)
    observation_dtype = "float32"
    min_utility = 0.0
    observation_bounds = (0.0, 1.0)  # flags and fractions (the module docstring)

    def __init__(self, game: Game) -> None:
        self.game = game
        rounds = game.length if game.mode == "rounds" else None
        self.max_utility = float(4 * rounds if rounds else game.length + 3)
        # Each round: every seat's grouping, a step per card but the last; each later
        # round's deal, a chance node per card dealt (the engine's: until every hand is
        # full or one card is left); at the end the tie draw, a node per seat but the
        # last. A point game may go on and on (None).
        players = game.players
        dealt = min(players * HAND_SIZE, len(DECK) - 1)
        self.max_game_length = None if rounds is None else (
            rounds * (HAND_SIZE - 1) * players + (rounds - 1) * dealt + players - 1)

    def action(self, move: Any) -> int:
        """The number of one step, (place, group)."""
        try:
            place, group = move
        except (TypeError, ValueError):
            raise ParseError(Text("{move!r} is not a step: (place 0–12, group 1–4).",
                                  move=move)) from None
        if place not in range(HAND_SIZE) or group not in range(1, GROUPS + 1):
            raise ParseError(Text("{move!r} is not a step: (place 0–12, group 1–4).",
                                  move=move))
        return int(place) * GROUPS + int(group) - 1

    def move(self, action: int) -> tuple[int, int]:
        if not isinstance(action, int | np.integer) or not 0 <= action < ACTIONS:
            raise ParseError(Text("{action!r} is not an action from 0 to {last}.",
                                  action=action, last=ACTIONS - 1))
        place, group = divmod(int(action), GROUPS)
        return place, group + 1

    def legal_mask(self, state: State, seat: int, partial: Any = None) -> Any:
        if seat not in state.to_move:
            return np.zeros(ACTIONS, dtype=np.int8)
        # The seat's own hand, as its view lists it (the whole view costs far more).
        assert isinstance(state, ChuchulaState)
        hand = tuple(str(card) for card in state.hand(seat))
        return _array(_hand(hand).mask(_partial(partial)))

    def move_steps(self, move: Any, view: Json) -> list[int]:
        """The steps that build `move` (a `Grouping` or its text) for the seat whose hand
        `view` shows, places in order: what `step_move` folds back into it."""
        grouping = move if isinstance(move, Grouping) else Grouping.parse(str(move))
        place = {text: number for number, text in enumerate(view["hand"])}
        labels = [0] * HAND_SIZE
        for group, cards in enumerate(grouping.groups, 1):
            for card in cards:
                labels[place[str(card)]] = group
        return [p * GROUPS + group - 1 for p, group in enumerate(labels) if group]

    def step_move(self, partial: Any, action: int) -> tuple[Any, Any]:
        place, group = self.move(action)
        labels = list(_partial(partial))
        if labels[place]:
            raise IllegalMove(Text("The card at place {place} is already in group {group}.",
                                   place=place, group=labels[place]))
        labels[place] = group
        if labels.count(0) == 1:
            return None, HandGrouping(tuple(labels))
        return tuple(labels), None

    def observation(self, view: Json, partial: Any = None) -> Any:
        out = np.zeros(SIZE, dtype=np.float32)
        players, me = view["players"], view["seat"]
        order = [(me + k) % players for k in range(players)]  # seats from the observer
        for place, text in enumerate(view.get("hand") or ()):
            card = Card.parse(text)
            out[_CARD + 17 * place + card.rank - 2] = 1
            out[_CARD + 17 * place + 13 + SUITS.index(card.suit)] = 1
        for place, group in enumerate(_partial(partial)):
            out[_PARTIAL + 5 * place + group] = 1
        top = 4 * view["length"]
        for k, seat in enumerate(order):
            out[_SCORES + k] = view["scores"][seat] / top
            out[_COMMITTED + k] = bool(view.get("committed", [True] * players)[seat])
        if view.get("dealer") is not None:
            out[_DEALER + order.index(view["dealer"])] = 1
        out[_PLAYERS + players - 2] = 1
        out[_MODE] = view["mode"] == "points"
        out[_ROUND] = min(len(view["rounds"]), view["length"]) / view["length"]
        if view["rounds"]:
            for k, position in enumerate(view["rounds"][-1]["positions"]):
                winner = position["winner"]
                out[_WINNERS + 5 * k + (4 if winner is None else order.index(winner))] = 1
                for slot, seat in enumerate(order):
                    kind = _TYPE_OF[position["types"][seat]]
                    out[_TYPES + 24 * k + 6 * slot + kind] = 1
        return out

    def information_state(self, view: Json) -> str:
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def truncated(self, state: State) -> bool:
        return False  # Chuchula always ends by its rules (H7)


def encoding(game: Game) -> ChuchulaEncoding:
    return ChuchulaEncoding(game)
