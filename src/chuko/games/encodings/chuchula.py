"""Chuchula for research environments (core/encoding.py).

A grouping is built in steps. Action = place × 4 + (group − 1): put the card at `place`
(0–12, the hand as `view(seat)["hand"]` lists it) into group 1–4; 52 actions. The partial
move is a tuple of 13 labels, 0 for a card not yet placed. Once 12 cards are placed the
13th is the one left out and `step_move` returns the complete move, a `HandGrouping` the
engine turns into the seat's `Grouping`.

Masks allow exactly the placements that can still complete a valid grouping (ruling H4:
groups strongest first, equal groups in either order). The ~200,000 valid groupings of a
hand are never listed: the 200,200 ways to split 13 places into a card left out and four
unordered triples are the same for every hand (built once); for a hand, the engine's
`group_strength` ranks its 286 triples, and a split can give place p group g exactly when
the triple holding p has the strength of the split's g-th strongest triple. The splits that
agree with a partial move are kept per partial, so each step narrows the last step's.

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
| 302     | rounds played / length                                                   |
| 303–322 | the last scored round, position k: 303 + 5·k + winner, + 4 if cancelled  |
| 323–418 | its groups' types: 323 + 24·k + 6·seat + type (individual 0 … trial 5)   |

Utilities: a seat's points, 0 to 4 a round; a point game ends once someone has the target,
with at most target + 3 (one point short of it before a round that gives all four).
"""

from __future__ import annotations

import itertools
import json
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import numpy as np

from chuko.core.deck52 import SUITS, Card
from chuko.core.errors import IllegalMove, ParseError
from chuko.core.protocol import Json, State
from chuko.games.chuchula import GROUPS, HAND_SIZE, Game, GroupType, HandGrouping, group_strength

ACTIONS = HAND_SIZE * GROUPS
TRIPLES = tuple(itertools.combinations(range(HAND_SIZE), 3))
SIZE = 419
_CARD, _PARTIAL, _SCORES, _COMMITTED, _DEALER, _PLAYERS = 0, 221, 286, 290, 294, 298
_MODE, _ROUND, _WINNERS, _TYPES = 301, 302, 303, 323
_TYPE_OF = {kind.name: int(kind) for kind in GroupType}
Partial = tuple[int, ...]


@lru_cache(maxsize=1)
def _splits() -> tuple[Any, Any]:
    """Every split of 13 places into one left out and four unordered triples: the triples'
    indices in TRIPLES (splits × 4), and for each place the column of its triple (splits ×
    13; 4 for the place left out). The same for every hand, so built once."""
    index = {triple: number for number, triple in enumerate(TRIPLES)}

    def parts(rest: tuple[int, ...]) -> list[list[int]]:
        if not rest:
            return [[]]
        first, others = rest[0], rest[1:]
        found = []
        for a, b in itertools.combinations(others, 2):
            tail = tuple(p for p in others if p != a and p != b)
            found += [[index[first, a, b], *more] for more in parts(tail)]
        return found

    rows = [split for out in range(HAND_SIZE)
            for split in parts(tuple(p for p in range(HAND_SIZE) if p != out))]
    triples = np.array(rows, dtype=np.int16)
    column = np.full((len(rows), HAND_SIZE), GROUPS, dtype=np.int8)
    places = np.array(TRIPLES, dtype=np.int64)
    for k in range(GROUPS):
        column[np.arange(len(rows))[:, None], places[triples[:, k]]] = k
    return triples, column


class _Hand:
    """One hand's splits: for each split and each of its triples, the groups (bits 1, 2, 4,
    8) that triple may take, a fifth column of none for the card left out; the splits that
    agree with recent partial moves are kept (a bounded cache)."""

    def __init__(self, hand: tuple[Card, ...]) -> None:
        triples, self.column = _splits()
        strength = np.array([group_strength([hand[p] for p in t]) for t in TRIPLES])
        split = strength[triples]  # splits × 4
        ranked = -np.sort(-split, axis=1)  # strongest first: group g is column g − 1
        allowed = np.zeros((len(split), GROUPS + 1), dtype=np.uint8)
        for group in range(GROUPS):
            allowed[:, :GROUPS] |= (split == ranked[:, group : group + 1]).astype(
                np.uint8) << group
        self.allowed = allowed
        self.rows: OrderedDict[Partial, Any] = OrderedDict()

    def splits(self, partial: Partial) -> Any:
        """The splits a partial move agrees with (indices)."""
        if partial in self.rows:
            self.rows.move_to_end(partial)
            return self.rows[partial]
        placed = [p for p, g in enumerate(partial) if g]
        if not placed:
            found = np.arange(len(self.allowed))
        else:
            # Narrow a cached parent's splits (the last step's, as a rule).
            parents = [(*partial[:p], 0, *partial[p + 1 :]) for p in placed]
            place = next((p for p, parent in zip(placed, parents, strict=True)
                          if parent in self.rows), placed[-1])
            parent = (*partial[:place], 0, *partial[place + 1 :])
            rows = self.splits(parent)
            bits = self._bits(rows, self.column[rows], parent, place)
            found = rows[(bits >> (partial[place] - 1)) & 1 == 1]
        self.rows[partial] = found
        if len(self.rows) > 64:
            self.rows.popitem(last=False)
        return found

    def _bits(self, rows: Any, column: Any, partial: Partial, place: int) -> Any:
        """Per split, the groups `place` may take given the placed cards: its triple's
        group if a placed card shares it, else a group of its strength no other placed
        triple holds."""
        mine = column[:, place]
        fixed = np.zeros(len(rows), dtype=np.uint8)
        taken = 0
        for other, group in enumerate(partial):
            if group:
                bit = np.uint8(1 << (group - 1))
                fixed |= (column[:, other] == mine) * bit
                taken |= 1 << (group - 1)
        free = self.allowed[rows, mine] & np.uint8(~taken & 0xFF)
        return np.where(fixed != 0, fixed, free)

    def mask(self, partial: Partial) -> Any:
        rows = self.splits(partial)
        column = self.column[rows]
        mask = np.zeros(ACTIONS, dtype=np.int8)
        for place, group in enumerate(partial):
            if not group and len(rows):
                bits = int(np.bitwise_or.reduce(self._bits(rows, column, partial, place)))
                mask[place * GROUPS : (place + 1) * GROUPS] = [
                    (bits >> g) & 1 for g in range(GROUPS)]
        return mask


@lru_cache(maxsize=16)
def _hand(hand: tuple[Card, ...]) -> _Hand:
    return _Hand(hand)


def _partial(partial: Any) -> Partial:
    return (0,) * HAND_SIZE if partial is None else tuple(int(g) for g in partial)


class ChuchulaEncoding:
    num_actions = ACTIONS
    observation_shape = (SIZE,)
    observation_dtype = "float32"
    min_utility = 0.0

    def __init__(self, game: Game) -> None:
        self.game = game
        rounds = game.length if game.mode == "rounds" else None
        self.max_utility = float(4 * rounds if rounds else game.length + 3)

    def action(self, move: Any) -> int:
        """The number of one step, (place, group)."""
        try:
            place, group = move
        except (TypeError, ValueError):
            raise ParseError(f"{move!r} is not a step: (place 0–12, group 1–4).") from None
        if place not in range(HAND_SIZE) or group not in range(1, GROUPS + 1):
            raise ParseError(f"{move!r} is not a step: (place 0–12, group 1–4).")
        return int(place) * GROUPS + int(group) - 1

    def move(self, action: int) -> tuple[int, int]:
        if not isinstance(action, int | np.integer) or not 0 <= action < ACTIONS:
            raise ParseError(f"{action!r} is not an action from 0 to {ACTIONS - 1}.")
        place, group = divmod(int(action), GROUPS)
        return place, group + 1

    def legal_mask(self, state: State, seat: int, partial: Any = None) -> Any:
        if seat not in state.to_move:
            return np.zeros(ACTIONS, dtype=np.int8)
        hand = tuple(Card.parse(text) for text in state.view(seat)["hand"])
        return _hand(hand).mask(_partial(partial))

    def step_move(self, partial: Any, action: int) -> tuple[Any, Any]:
        place, group = self.move(action)
        labels = list(_partial(partial))
        if labels[place]:
            raise IllegalMove(f"The card at place {place} is already in group {labels[place]}.")
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
        out[_ROUND] = len(view["rounds"]) / view["length"]
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
