"""Chükö's encoding for research environments (chuko/core/encoding.py).

`encoding(game)` serves one configuration. Below, D is the number of distinct values in the
pack and P the number of players.

Actions (`num_actions` = D + 1). Action i < D is the i-th distinct value of the pack, in
ascending order (`values[i]`): a normal play of that card, or the card played after a
reset's draw. Action D is the reset. Equal cards (a pack may repeat a value) are one action.

Observation (float32, shape (4D + 4P + 2,)) for one seat, built from its `view` alone.
Seats are relative: position 0 is the observing seat, 1 the next to play after it, and so
on (a spectator observes as seat 0, with no hand). Every count is divided by the most it
can be in the configuration (`bounds`), so with a turn limit (every environment has one)
each value lies in [0, 1] (`observation_bounds`). N is the pack's size, h the cards dealt
to each hand, m(v) how often the pack holds value v, T the turns a seat can take,
ceil(turn limit / P) (1 without a limit: the turn counts are then raw and unbounded):

    [0, D)          own hand: how many of each value, / min(m(v), h + 1)
    [D, 2D)         play pile: how many of each value (every card in it is public), / m(v)
    [2D, 3D)        the top card, one-hot
    [3D, 4D)        after a recycle, how many of each value went into the draw pile, less
                    the seat's own draws since: the cards the draw pile may still hold
                    (ruling K6; all 0 before the first recycle), / m(v)
    [4D, 4D+P)      hand sizes, / (h + 1) (a reset's draw holds one card more)
    [4D+P, 4D+2P)   the seat to move, one-hot (all 0 at a chance node and at the end)
    [4D+2P, 4D+3P)  normal plays per seat so far, / T
    [4D+3P, 4D+4P)  resets per seat so far, / T
    4D+4P           the draw pile's size, / max(N − P − 1, 1) (the pack less a card in
                    each hand and the top card)
    4D+4P+1         1 between a reset's draw and the card it plays, else 0

Each value is the float32 quotient of the count and its bound (both float32), so the
tracker below and the compiled twin (chuko/envs/twins/chuko.py) compute it bit for bit.

Utilities: a seat scores 1 for emptying its hand first and 0 otherwise, so 0..1. A game
stopped by its turn limit (K8) has no winner and is `truncated`, not terminated.

Information state: the text of everything the seat's view holds apart from its list of
recent turns. The view is bounded (it summarises the past as counts), so this is
a Markov information state: two histories that leave the same summary read the same.

The fast path. `encoding.tracker(state)` returns a `Tracker` bound to one state that keeps
one array of every seat's facts, written as each move is made through it (O(P) per move,
whatever the length of the game), instead of rebuilding observations from a view:

    tracker = encoding.tracker(state)
    mask = tracker.mask()          # int8 (D + 1,), for the seat to move (zeros if none)
    legal = tracker.legal_actions()  # the same, as the list of actions mask() allowed
    obs = tracker.observe(seat)    # float32, equal to observation(state.view(seat))
    seat = tracker.play(action)    # the seat to move plays it: IllegalMove if not legal;
                                   # returns who moves next (None: the end, a chance node)
    tracker.track(next_state)      # follow another state (the next game), same arrays

An observation is a new array, the caller's to keep. A mask is read-only and never changes:
one array is shared by every position with the same legal actions (the encoding keeps them
in about MASK_BYTES), so it needs no copy. The state may also be changed directly
(`state.play`, `state.apply_chance`) between calls, and a tracker may start at any
position: it then writes its array afresh from the state's summaries (O(D·P + pile), never
the history). It reads the same facts the view shows, no more (a test compares the two at
every step of many games), and legality is the engine's (`State.legal_plays`).

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

from collections import Counter
from random import Random
from typing import Any

import numpy as np

from chuko.core.errors import IllegalMove, ParseError
from chuko.core.protocol import Json
from chuko.core.protocol import State as BaseState
from chuko.core.text import Text
from chuko.games.chuko import RESET, RESET_MOVE, Game, Move, State, sampler

# About the most memory an encoding's kept masks take, whatever the pack: each costs its
# actions' bytes and some 200 more (the array, its key and its list of actions).
MASK_BYTES = 4_000_000


def encoding(game: Game) -> ChukoEncoding:
    return ChukoEncoding(game)


def observation_divisors(game: Game, values: tuple[int, ...]) -> np.ndarray:
    """What each place of the observation is divided by (the module docstring's bounds),
    float32: one for the one-hot places and the flag."""
    d, p = len(values), game.players
    made = Counter(game.pack)
    most_held = game.hand_size + 1  # a reset's draw, before its card is played
    turns = -(-game.turn_limit // p) if game.turn_limit else 1
    per_value = [made[v] for v in values]
    return np.array([*(min(m, most_held) for m in per_value), *per_value, *[1] * d,
                     *per_value, *[most_held] * p, *[1] * p, *[turns] * 2 * p,
                     max(len(game.pack) - p - 1, 1), 1], np.float32)


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
        self.bounds = observation_divisors(game, self.values)
        # Without a turn limit the turn counts are raw, so only the lower bound holds.
        self.observation_bounds = (0.0, 1.0 if game.turn_limit else float("inf"))
        # Each card played (K8 caps them at the turn limit) is at most a reset, its draw
        # and the card; a game without a limit has no bound.
        limit = game.turn_limit
        self.max_game_length = None if limit is None else 3 * limit
        self._moves = [Move(v) for v in self.values] + [RESET_MOVE]
        self._masks: dict[tuple[tuple[int, ...], bool], tuple[np.ndarray, list[int]]] = {}
        self._masks_kept = max(1_000, MASK_BYTES // (self.num_actions + 200))

    # -- actions --------------------------------------------------------------------------

    def action(self, move: Any) -> int:
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(move, Move):
            raise ParseError(Text("{move!r} is not a Chükö move.", move=move))
        if move.card is None:
            return self.reset_action
        if move.card not in self.index:
            raise ParseError(Text("{card} is not a card of this pack.", card=move.card))
        return self.index[move.card]

    def move(self, action: int) -> Move:
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not (
            0 <= action < self.num_actions
        ):
            raise ParseError(Text("{action!r} is not an action: they run from 0 to {last}.",
                                  action=action, last=self.num_actions - 1))
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
        obs /= self.bounds
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


# What a tracker's last turn is while its array may not match its state: no state's turn.
_STALE: Any = object()


class Tracker:
    """Observation and mask arrays for one state, kept up to date (the module docstring).

    One float32 array holds what every seat may see, each fact once (raw counts,
    divided by the bounds as an observation is gathered), at a place that does
    not depend on the observer: each seat's hand and pool counts, the play pile, the top
    card, each seat's hand size, plays, resets and mark to move, the draw pile's size and the
    reset under way. A move made through `play` writes the few places it changes, once for
    every seat (O(1); a recycle rewrites the pile and the pools, O(D·P)), and a seat's
    observation gathers its places in its own order (one numpy indexing, which is also the
    copy the caller keeps). A state changed any other way (`state.play`, `apply_chance`) has
    a new last turn, which is how the tracker notices; it then writes the array afresh from
    the state's summaries (hands, piles, counts: what the views show, never the history).
    Writes go through a memoryview of the array, the cheapest element store Python has.
    Legality is the engine's (`State.legal_plays`), read, never worked out here."""

    def __init__(self, encoding: ChukoEncoding, state: State) -> None:
        self.encoding = encoding
        d, p = len(encoding.values), encoding.game.players
        self._d, self._p = d, p
        self._values = encoding.values
        index = encoding.index
        # The shared array: hands (seat by seat), pile, top card, pools (seat by seat), then
        # per seat hand sizes, marks to move, plays and resets, then the draw pile's size,
        # the reset under way, and a place marked when nobody is to move, which no
        # observation gathers (moving a mark is then always two writes).
        pile, top, pools = p * d, p * d + d, p * d + 2 * d
        self._sizes = sizes = pools + p * d
        self._movers = movers = sizes + p
        self._plays = plays = movers + p
        self._resets = resets = plays + p
        self._draw_at = draw_at = resets + p
        self._pending_at = draw_at + 1
        self._nowhere = draw_at + 2
        self._array = np.zeros(draw_at + 3, np.float32)
        self._out = self._array.data
        self._zeros = np.zeros(draw_at + 3, np.float32).data
        self._pile_span = (pile, pile + d)
        self._pools = pools
        self._hand_at = [{v: s * d + i for v, i in index.items()} for s in range(p)]
        self._pool_at = [{v: pools + s * d + i for v, i in index.items()} for s in range(p)]
        self._pile_at = {v: pile + i for v, i in index.items()}
        self._top_at = {v: top + i for v, i in index.items()}

        def places(seat: int) -> np.ndarray:  # the module docstring's layout for `seat`
            order = [(seat + k) % p for k in range(p)]
            return np.array([*range(seat * d, seat * d + d), *range(pile, pools),
                             *range(pools + seat * d, pools + seat * d + d),
                             *(sizes + s for s in order), *(movers + s for s in order),
                             *(plays + s for s in order), *(resets + s for s in order),
                             draw_at, draw_at + 1], np.intp)

        self._places = [places(seat) for seat in range(p)]
        self._bounds = encoding.bounds
        # Per seat, what its moves write: hand counts, pool counts, hand size, plays, resets.
        self._seat_at = [(self._hand_at[s], self._pool_at[s], sizes + s, plays + s, resets + s)
                         for s in range(p)]
        self._masks = encoding._masks
        self._masked: list[int] = []  # the actions mask() last allowed
        self._top = self._mover = self._nowhere  # the places marked
        self._last: Any = _STALE  # the state's last turn when the array was written
        self.track(state)

    def track(self, state: State) -> None:
        """Follow `state` from now on (the next game, say), reusing the arrays."""
        if state.game.players != self._p or state.game.pack != self.encoding.game.pack:
            raise ValueError("The tracker's encoding is for another configuration.")
        self.state = state
        self._masked = []
        self._rewrite()

    def _rewrite(self) -> None:
        """The whole array from the state's summaries."""
        state, out = self.state, self._out
        out[:] = self._zeros
        sizes, plays, resets = self._sizes, self._plays, self._resets
        for seat, hand in enumerate(state._hands):
            at = self._hand_at[seat]
            for card in hand:
                out[at[card]] += 1
            out[sizes + seat] = len(hand)
            out[plays + seat] = state._plays[seat]
            out[resets + seat] = state._resets[seat]
        pile_at = self._pile_at
        for card in state._pile:
            out[pile_at[card]] += 1
        self._top = self._top_at[state._pile[-1]]
        out[self._top] = 1
        recycled_at = state._recycled_at
        if recycled_at >= 0:
            self._pool(state._turns[recycled_at][4] or ())
            for seat, drawn in enumerate(state._since):
                at = self._pool_at[seat]
                for card in drawn:
                    out[at[card]] -= 1
        self._mover = (self._nowhere if state._over or state._chance
                       else self._movers + state._seat)
        out[self._mover] = 1
        out[self._draw_at] = len(state._draw)
        out[self._pending_at] = state._pending
        turns = state._turns
        self._last = turns[-1] if turns else None

    def _pool(self, recycled: Any) -> None:
        """Every seat's pool: the recycled cards (before anyone draws from them)."""
        out, d, first = self._out, self._d, self._pools
        out[first : first + d] = self._zeros[:d]
        at = self._pool_at[0]
        for card in recycled:
            out[at[card]] += 1
        for seat in range(1, self._p):
            out[first + seat * d : first + seat * d + d] = out[first : first + d]

    def observe(self, seat: int) -> np.ndarray:
        """`seat`'s observation: a new array, the caller's to keep."""
        turns = self.state._turns
        if (turns[-1] if turns else None) is not self._last:
            self._rewrite()
        observation: np.ndarray = self._array[self._places[seat]]
        observation /= self._bounds  # the counts, normalised as observation() does
        return observation

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
        turns = state._turns
        fresh = (turns[-1] if turns else None) is self._last
        seat = state._seat
        out = self._out
        if action == self._d:
            state.reset()
            if not fresh or state._chance:  # the array is written afresh when read
                self._last = _STALE
                return None if state._chance else seat
            turn = turns[-1]
            hand_at, pool_at, size_at, _, resets_at = self._seat_at[seat]
            if turn[4] is not None:  # a recycle: the pile is its top card alone
                low, high = self._pile_span
                out[low:high] = self._zeros[: high - low]
                out[self._pile_at[state._pile[-1]]] = 1
                self._pool(turn[4])
            drew = turn[3]
            if drew is not None:
                out[hand_at[drew]] += 1
                if state._recycled_at >= 0:
                    out[pool_at[drew]] -= 1
                out[size_at] = len(state._hands[seat])
                out[self._draw_at] = len(state._draw)
            out[resets_at] = state._resets[seat]
            out[self._pending_at] = 1
            self._last = turn
            return seat
        if not 0 <= action < self._d:
            raise IllegalMove(Text("{action!r} is not an action of this game.", action=action))
        card = self._values[action]
        pending = state._pending
        state.put(card)
        if not fresh:
            self._last = _STALE
            return None if state._over else state._seat
        self._last = turns[-1]
        hand_at, _, size_at, plays_at, _ = self._seat_at[seat]
        out[hand_at[card]] -= 1
        out[self._pile_at[card]] += 1
        out[self._top] = 0
        self._top = top = self._top_at[card]
        out[top] = 1
        out[size_at] = len(state._hands[seat])
        if pending:
            out[self._pending_at] = 0
        else:
            out[plays_at] = state._plays[seat]
        out[self._mover] = 0
        if state._over:
            self._mover = self._nowhere
            return None
        seat = state._seat
        self._mover = mover = self._movers + seat
        out[mover] = 1
        return seat
