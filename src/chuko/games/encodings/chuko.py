"""Chükö's encoding for research environments (chuko/core/encoding.py).

`encoding(game)` serves one configuration. Below, D is the number of distinct values in the
pack and P the number of players.

Actions (`num_actions` = D + 1). Action i < D is the i-th distinct value of the pack, in
ascending order (`values[i]`): a normal play of that card, or the card played after a
reset's draw. Action D is the reset. Equal cards (a pack may repeat a value) are one action.

Observation (float32, shape (4D + 4P + 2,)) for one seat, built from its `view` alone.
Seats are relative: position 0 is the observing seat, 1 the next to play after it, and so
on (a spectator observes as seat 0, with no hand):

    [0, D)          own hand: how many of each value
    [D, 2D)         play pile: how many of each value (every card in it is public)
    [2D, 3D)        the top card, one-hot
    [3D, 4D)        after a recycle, how many of each value went into the draw pile, less
                    the seat's own draws since: the cards the draw pile may still hold
                    (ruling K6; all 0 before the first recycle)
    [4D, 4D+P)      hand sizes
    [4D+P, 4D+2P)   the seat to move, one-hot (all 0 at a chance node and at the end)
    [4D+2P, 4D+3P)  normal plays per seat so far
    [4D+3P, 4D+4P)  resets per seat so far
    4D+4P           the draw pile's size
    4D+4P+1         1 between a reset's draw and the card it plays, else 0

Utilities: a seat scores 1 for emptying its hand first and 0 otherwise, so 0..1. A game
stopped by its turn limit (K8) has no winner and is `truncated`, not terminated.

Information state: the text of everything the seat's view holds apart from its list of
recent turns. The view is bounded (it summarises the past as counts, issue 10), so this is
a Markov information state: two histories that leave the same summary read the same.

The fast path. `encoding.tracker(state)` returns a `Tracker` bound to one state that keeps
a preallocated observation array per seat and one mask array, brought up to date when read
in time proportional to what changed since that seat's last read (O(P) per move, whatever
the length of the game), instead of rebuilding them from a view:

    tracker = encoding.tracker(state)
    mask = tracker.mask()          # int8 (D + 1,), for the seat to move (zeros if none)
    legal = tracker.legal_actions()  # the same, as the list of actions mask() allowed
    obs = tracker.observe(seat)    # float32, equal to observation(state.view(seat))
    seat = tracker.play(action)    # the seat to move plays it: IllegalMove if not legal;
                                   # returns who moves next (None: the end, a chance node)
    tracker.track(next_state)      # follow another state (the next game), same arrays

An observation array is the tracker's own and changes in place at that seat's next
`observe`: copy it to keep it. A mask is read-only and never changes: one array is shared
by every position with the same legal actions (the encoding keeps them in about
MASK_BYTES), so it needs no copy. The state may also be changed directly (`state.play`,
`state.apply_chance`) between calls, and a tracker may start at any position; each call
reads the state and the turns appended since the last call, never the whole history. It
reads the same facts the view shows, no more (a test compares the two at every step of many
games), and legality is the engine's (`State.legal_plays`).

Search (OpenSpiel's IS-MCTS): `encoding.resample(state, seat, rng)` deals what `seat`
cannot see anew (`chuko.games.chuko.sampler`), keeping its information state.
`encoding.max_game_length` bounds the decisions and chance nodes after the deal: at most
three per card played (reset, draw, card), so 3 × the turn limit (None without one).

Chance (`Game.from_order` / `from_deal` with `explicit_chance=True`): the deal is
`deck()` shuffled plus the first player (`deal_choices()`, when the game does not set it);
after that, the only chance is the card a reset draws from a recycled pile. There
`state.is_chance` is true, `to_move` is empty, and `chance_outcomes()` lists each value
left in the pile with its share of it; `apply_chance(value)` draws it.
"""

from __future__ import annotations

from array import array
from random import Random
from typing import Any

import numpy as np

from chuko.core.errors import IllegalMove, ParseError
from chuko.core.protocol import Json
from chuko.core.protocol import State as BaseState
from chuko.games.chuko import RESET, RESET_MOVE, Game, Move, State, sampler

# About the most memory an encoding's kept masks take, whatever the pack: each costs its
# actions' bytes and some 200 more (the array, its key and its list of actions).
MASK_BYTES = 4_000_000


def encoding(game: Game) -> ChukoEncoding:
    return ChukoEncoding(game)


class ChukoEncoding:
    """The module docstring's layout for one Chükö configuration."""

    observation_dtype = "float32"
    min_utility = 0.0
    max_utility = 1.0

    def __init__(self, game: Game) -> None:
        self.game = game
        self.values = tuple(sorted(set(game.pack)))
        self.index = {value: i for i, value in enumerate(self.values)}
        d, p = len(self.values), game.players
        self.num_actions = d + 1
        self.reset_action = d
        self.observation_shape = (4 * d + 4 * p + 2,)
        self._moves = [Move(v) for v in self.values] + [RESET_MOVE]
        self._masks: dict[tuple[tuple[int, ...], bool], tuple[np.ndarray, list[int]]] = {}
        self._masks_kept = max(1_000, MASK_BYTES // (self.num_actions + 200))

    # -- actions --------------------------------------------------------------------------

    def action(self, move: Any) -> int:
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(move, Move):
            raise ParseError(f"{move!r} is not a Chükö move.")
        if move.card is None:
            return self.reset_action
        if move.card not in self.index:
            raise ParseError(f"{move.card} is not a card of this pack.")
        return self.index[move.card]

    def move(self, action: int) -> Move:
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not (
            0 <= action < self.num_actions
        ):
            raise ParseError(f"{action!r} is not an action: they run from 0 to "
                             f"{self.num_actions - 1}.")
        return self._moves[int(action)]

    def step_move(self, partial: Any, action: int) -> tuple[None, Move]:
        return None, self.move(action)

    def legal_mask(self, state: BaseState, seat: int, partial: Any = None) -> np.ndarray:
        mask = np.zeros(self.num_actions, np.int8)
        for move in state.legal_moves(seat):
            mask[self.action(move)] = 1
        return mask

    # -- observations ----------------------------------------------------------------------

    def observation(self, view: Json, partial: Any = None) -> np.ndarray:
        d, p, index = len(self.values), self.game.players, self.index
        obs = np.zeros(self.observation_shape, np.float32)
        seat = view["seat"] or 0
        for card in view["hand"] or ():
            obs[index[card]] += 1
        for card in view["pile"]:
            obs[d + index[card]] += 1
        obs[2 * d + index[view["top"]]] = 1
        if view["recycled"] is not None:
            for card in view["recycled"]:
                obs[3 * d + index[card]] += 1
            for card in view["drawn_since"] or ():
                obs[3 * d + index[card]] -= 1
        for other in range(p):
            at = (other - seat) % p
            obs[4 * d + at] = view["hand_sizes"][other]
            obs[4 * d + 2 * p + at] = view["plays"][other]
            obs[4 * d + 3 * p + at] = view["resets"][other]
        for mover in view["to_move"]:
            obs[4 * d + p + (mover - seat) % p] = 1
        obs[4 * d + 4 * p] = view["draw_size"]
        obs[4 * d + 4 * p + 1] = view["phase"] == RESET
        return obs

    def information_state(self, view: Json) -> str:
        return "|".join(f"{key}:{view[key]}" for key in (
            "seat", "hand", "drawn", "pile", "hand_sizes", "draw_size", "to_move", "phase",
            "plays", "resets", "recycled", "drawn_since", "turns_played", "outcome"))

    def truncated(self, state: BaseState) -> bool:
        outcome = state.outcome
        return outcome is not None and outcome.truncated

    def tracker(self, state: State) -> Tracker:
        return Tracker(self, state)

    def _mask_of(self, cards: list[int], reset: bool) -> tuple[np.ndarray, list[int]]:
        """The read-only mask array and action list of a choice of the engine's
        (`State.legal_plays`), kept for the trackers: positions repeat their choices."""
        if len(self._masks) >= self._masks_kept:
            self._masks.clear()
        # The engine lists distinct cards ascending, so the actions are distinct and sorted.
        actions = [self.index[card] for card in cards] + ([self.reset_action] if reset else [])
        mask = np.zeros(self.num_actions, np.int8)
        mask[actions] = 1
        mask.flags.writeable = False
        self._masks[tuple(cards), reset] = found = (mask, actions)
        return found

    def resample(self, state: State, seat: int, rng: Random) -> State:
        """A state `seat` cannot tell from `state` (the same view but for turns before its
        recent ones, so the same information state), the cards it cannot see dealt at random
        from `rng` (`chuko.games.chuko.sampler`); chance stays explicit if it was."""
        return sampler(state.view(seat), explicit_chance=state._explicit)(rng)

    @property
    def max_game_length(self) -> int | None:
        """The most decisions and chance events after the deal: each card played (K8 caps
        them at the turn limit) is at most a reset, its draw and the card; None without a
        limit."""
        limit = self.game.turn_limit
        return None if limit is None else 3 * limit


class Tracker:
    """Observation and mask arrays for one state, kept up to date (the module docstring).

    Each seat's array remembers what it has counted: its own turns (what they drew and
    played), the top card, how much of the play pile and since which recycle, how many of
    its own draws it has taken off the recycled cards, and the seat it marked to move.
    Writes go through memoryviews of the arrays' buffers, the cheapest element store Python
    has. Legality is the engine's (`State.legal_plays`), read, never worked out here."""

    def __init__(self, encoding: ChukoEncoding, state: State) -> None:
        self.encoding = encoding
        d, p = len(encoding.values), encoding.game.players
        self._d, self._p = d, p
        self._index = encoding.index
        self._values = encoding.values
        size = encoding.observation_shape[0]
        # Each buffer has one slot past the observation, a scratch slot: a one-hot field
        # with nothing set yet (the top card, the seat to move) marks it, so that moving
        # the mark is two unconditional writes.
        self._scratch = size
        self._blank = array("f", bytes(4 * (size + 1)))
        self._blank_write = memoryview(self._blank)
        self._buffers = [array("f", bytes(4 * (size + 1))) for _ in range(p)]
        self._arrays = [np.frombuffer(b, np.float32, size) for b in self._buffers]
        self._writes = [memoryview(b) for b in self._buffers]
        self._masks = encoding._masks
        # Where each value's count goes in the play pile, top card and pool fields.
        self._pile_at = {v: d + i for v, i in self._index.items()}
        self._top_at = {v: 2 * d + i for v, i in self._index.items()}
        self._pool_at = {v: 3 * d + i for v, i in self._index.items()}
        base = 4 * d
        self._mover_at = [base + p + k for k in range(p)]
        self._nobody = size  # at a chance node or the end: no seat is marked to move
        self._tail = base + 4 * p  # the draw pile's size, then the reset under way
        # Per seat, per seat in play order from it: where that seat's hand size, plays and
        # resets go, and which seat it is.
        self._others = [tuple((base + k, base + 2 * p + k, base + 3 * p + k, (seat + k) % p)
                              for k in range(p)) for seat in range(p)]
        self._masked: list[int] = []  # the actions mask() last allowed
        self.track(state)

    def track(self, state: State) -> None:
        """Follow `state` from now on (the next game, say), reusing the arrays."""
        if state.game.players != self._p or state.game.pack != self.encoding.game.pack:
            raise ValueError("The tracker's encoding is for another configuration.")
        self.state = state
        p, blank, index = self._p, self._blank, self._index
        # Per seat: [its next turn whose cards its hand has not yet counted, whether that
        # turn's draw is counted, the top card's slot marked, pile cards counted, recycle
        # counted, own draws counted, the slot marked to move].
        turns, first = state._turns, state._first
        total = len(turns)
        under_way = total and turns[-1][2] is None  # a reset waiting for its card
        seen = []
        for seat, hand in enumerate(state._hands):
            self._buffers[seat][:] = blank
            out = self._writes[seat]
            for card in hand:  # the hands now; later turns change them
                out[index[card]] += 1
            if under_way and turns[-1][0] == seat:
                at, drawn = total - 1, turns[-1][3] is not None
            else:
                at, drawn = total + (seat - first - total) % p, False
            seen.append([at, drawn, self._scratch, 0, -1, 0, self._scratch])
        self._seen = seen
        self._masked = []

    def observe(self, seat: int) -> np.ndarray:
        """`seat`'s observation array, brought up to date (the tracker's own: copy to keep)."""
        state, out, seen = self.state, self._writes[seat], self._seen[seat]
        index = self._index
        turns = state._turns
        at, total = seen[0], len(turns)
        if at < total:  # this seat's own turns since: what it drew in, what it played out
            p, drawn = self._p, seen[1]
            while at < total:
                turn = turns[at]
                drew, card = turn[3], turn[2]
                if drew is not None and not drawn:
                    out[index[drew]] += 1
                if card is None:  # a reset under way: its card is still to come
                    drawn = drew is not None
                    break
                out[index[card]] -= 1
                at += p
                drawn = False
            seen[0], seen[1] = at, drawn
        pile = state._pile
        recycled_at = state._recycled_at
        if recycled_at != seen[4]:  # a recycle since: count the pile and the pool afresh
            self._recount(seat, recycled_at)
        counted = seen[3]
        if counted != len(pile):  # the top card changes only when the pile does
            pile_at = self._pile_at
            for card in pile[counted:]:
                out[pile_at[card]] += 1
            seen[3] = len(pile)
            top = self._top_at[pile[-1]]
            if top != seen[2]:
                out[seen[2]] = 0  # the blank slot at the start when no top is written yet
                out[top] = 1
                seen[2] = top
        if recycled_at >= 0:
            since = state._since[seat]
            if seen[5] != len(since):
                pool_at = self._pool_at
                for card in since[seen[5] :]:
                    out[pool_at[card]] -= 1
                seen[5] = len(since)
        hands, plays, resets = state._hands, state._plays, state._resets
        for size_at, plays_at, resets_at, other in self._others[seat]:
            out[size_at] = len(hands[other])
            out[plays_at] = plays[other]
            out[resets_at] = resets[other]
        mover = self._nobody if state._over or state._chance else self._mover_at[
            (state._seat - seat) % self._p]
        if mover != seen[6]:
            out[seen[6]] = 0
            out[mover] = 1
            seen[6] = mover
        tail = self._tail
        out[tail] = len(state._draw)
        out[tail + 1] = state._pending
        return self._arrays[seat]

    def _recount(self, seat: int, recycled_at: int) -> None:
        """After a recycle: the play pile is its top card alone, the pool its cards."""
        d, out, pool_at, blank = self._d, self._writes[seat], self._pool_at, self._blank_write
        out[d : 2 * d] = blank[d : 2 * d]
        out[3 * d : 4 * d] = blank[3 * d : 4 * d]
        for card in self.state._turns[recycled_at][4] or ():
            out[pool_at[card]] += 1
        seen = self._seen[seat]
        seen[3], seen[4], seen[5] = 0, recycled_at, 0

    def mask(self) -> np.ndarray:
        """The legal actions of the seat to move (all 0 at a chance node or the end): a
        read-only array, shared by every position with the same legal actions."""
        cards, reset = self.state.legal_plays()
        found = self._masks.get((tuple(cards), reset))
        if found is None:
            found = self.encoding._mask_of(cards, reset)
        self._masked = found[1]
        return found[0]

    def legal_actions(self) -> list[int]:
        """The actions `mask()` last set, as a list (a random agent's cheapest choice)."""
        return self._masked

    def play(self, action: int) -> int | None:
        """The seat to move takes `action`; IllegalMove, changing nothing, for any action the
        mask excludes. Returns the seat to move next, None when nobody is (the end, or a
        chance node)."""
        state = self.state
        if action == self._d:
            state.reset()
        elif 0 <= action < self._d:
            state.put(self._values[action])
        else:
            raise IllegalMove(f"{action!r} is not an action of this game.")
        return None if state._over or state._chance else state._seat
