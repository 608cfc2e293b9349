"""Compiled (numba) kernels for the two layout solvers: the same searches as the reference
backend (solvers/reference.py), on numpy arrays, as the backend `BACKEND`; and batch
functions that value many fresh deals at once.

Importing this module needs numba (the optional `fast` extra); the solvers' default
backend is the reference search when that fails (solvers.default_backend).

Encoding. A layout is 12 card values. Cards become classes (indices 0..K-1) and
`match[a, b]` says whether classes a and b share a prime factor. The batch functions use
the coarsest reduction: two cards are one class when they match exactly the same cards of
the layout (cards with equal prime factors always do). The single-position kernels take
the classes the solver computed, so their codes agree with it. The rows' progress is
the taken index 0..124 of solvers/encoding.py.

Memo. One dense int64 array per game is shared by every search in the process. An entry
holds a generation stamp and what is known (Crossroads: bounds on the value; Caravan: the
most spare bridges with which the position is lost); each deal (and each solver) draws a fresh
generation, so an entry from another deal reads as empty and nothing is ever cleared.

The searches keep explicit stacks rather than recursing: numba's on-disk cache
(`cache=True`, so compiling happens once per install) crashes on recursive functions
(numba issues 6061 and 6713), and a cached recursive version here did segfault. Where the
cache goes, and what happens where numba finds nowhere to write it: solvers/numba_cache.py.
"""

from __future__ import annotations

from threading import Lock

import numpy as np
from numba import njit

from chuko.core.layout import COLUMNS, ROWS, SIZE

from . import Backend, Classes, Ends, Match
from .encoding import CARDS_LEFT, ROW_STATES, STEPS, row_counts
from .numba_cache import ensure_cache

ensure_cache()  # before the first kernel is defined: it needs somewhere to be cached

# The row steps as arrays (numba freezes module-level arrays into the compiled code).
STEP_COUNT = np.array([len(s) for s in STEPS], dtype=np.int64)
STEP_POS = np.zeros((ROW_STATES, ROWS), dtype=np.int64)
STEP_AFTER = np.zeros((ROW_STATES, ROWS), dtype=np.int64)
for _index, _steps in enumerate(STEPS):
    for _i, (_position, _after) in enumerate(_steps):
        STEP_POS[_index, _i] = _position
        STEP_AFTER[_index, _i] = _after
LEFT = np.array(CARDS_LEFT, dtype=np.int64)
ROW_TAKEN = np.array([row_counts(i) for i in range(ROW_STATES)], dtype=np.int64)

MAX_CLASSES = SIZE
# Crossroads: classes + "no trail yet"; a trail's two ends as an unordered pair.
_CR_CODES = MAX_CLASSES + 1
_CR_PAIRS = _CR_CODES * (_CR_CODES + 1) // 2
# Caravan: classes + bridge + "no caravan yet"; ends as an ordered pair (left <= right).
_CV_SPAN = MAX_CLASSES + 2
_STAMP = 12  # an entry is generation << 12 | payload
_PAYLOAD = (1 << _STAMP) - 1
_INF = 20  # beyond any Crossroads value (at most 10 points a side in two rounds)
# A Crossroads payload is two bounds, lower << 6 | upper, each stored as bound + 32.
_BOUND_BITS = 6
_BOUND_MASK = (1 << _BOUND_BITS) - 1
_BOUND = 32

# The searches' stacks: one row per ply, one column per field of a frame.
# Crossroads: the position (taken index, the pair codes of my ends and their ends), the
# next child to try, the best value found, the window it is searched with, the memo's
# bounds when it started, and the points of the child being searched.
(CR_TAKEN, CR_MINE, CR_THEIRS, CR_CHILD, CR_BEST, CR_ALPHA, CR_BETA, CR_LOWER, CR_UPPER,
 CR_GAIN) = range(10)
_CR_FRAME = 10
# Caravan: the position (taken index, the ends left <= right, spare bridges) and the next
# child to try.
CV_TAKEN, CV_LEFT, CV_RIGHT, CV_SPARE, CV_CHILD = range(5)
_CV_FRAME = 5


# -- classes ---------------------------------------------------------------------------------


@njit(cache=True)
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@njit(cache=True)
def layout_classes(layout: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position's class and the class match table, classes being the cards that match
    the same cards of this layout (ruling G1: 1 matches nothing, so 1s form one class)."""
    hits = np.zeros((SIZE, SIZE), dtype=np.bool_)
    for i in range(SIZE):
        for j in range(SIZE):
            hits[i, j] = _gcd(layout[i], layout[j]) > 1
    classes = np.zeros(SIZE, dtype=np.int64)
    first = np.zeros(SIZE, dtype=np.int64)  # a position of each class
    count = 0
    for i in range(SIZE):
        found = -1
        for c in range(count):
            j = first[c]
            same = True
            for k in range(SIZE):
                if hits[i, k] != hits[j, k]:
                    same = False
                    break
            if same:
                found = c
                break
        if found < 0:
            found = count
            first[count] = i
            count += 1
        classes[i] = found
    match = np.zeros((count, count), dtype=np.bool_)
    for a in range(count):
        for b in range(count):
            match[a, b] = hits[first[a], first[b]]
    return classes, match


# -- Crossroads ------------------------------------------------------------------------------


@njit(cache=True)
def _pair_tables(count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For codes 0..count (count = no trail): pair index of (a, b), and each pair's ends."""
    codes = count + 1
    index = np.zeros((codes, codes), dtype=np.int64)
    low = np.zeros(codes * (codes + 1) // 2, dtype=np.int64)
    high = np.zeros_like(low)
    n = 0
    for a in range(codes):
        for b in range(a, codes):
            index[a, b] = n
            index[b, a] = n
            low[n] = a
            high[n] = b
            n += 1
    return index, low, high


@njit(cache=True)
def _cr_bounds(taken, mine, theirs, last, memo, gen, pairs):
    """What the memo knows of a position's value: (lower, upper), (-_INF, _INF) if nothing."""
    entry = memo[((last * ROW_STATES + taken) * pairs + mine) * pairs + theirs]
    if entry >> _STAMP == gen:
        lower = ((entry >> _BOUND_BITS) & _BOUND_MASK) - _BOUND
        return lower, (entry & _BOUND_MASK) - _BOUND
    return -_INF, _INF


@njit(cache=True)
def _cr_future(taken, mine, theirs, last, fresh, classes, gain, index, low, high, memo, gen):
    """Best (my future points − theirs) for the player to move; `mine`/`theirs` are pair
    indices of the trail ends, `last` is 1 in the last round, `fresh` the value of a new
    round for its first player (used when `last` is 0).

    Fail-soft alpha-beta negamax with an explicit stack (see the module's docstring). The
    memo keeps a lower and an upper bound per position, exact when they meet; the root
    is searched with an open window, so its value is exact. A frame's children are
    (available card, end), the scoring ones first; end 1 only for a two-ended trail."""
    pairs = low.shape[0]
    lower, upper = _cr_bounds(taken, mine, theirs, last, memo, gen, pairs)
    if lower == upper:
        return lower
    empty = gain.shape[1] - 1
    frame = np.empty((SIZE + 1, _CR_FRAME), dtype=np.int64)  # one row per ply
    d = 0
    _cr_enter(frame, d, taken, mine, theirs, lower, upper, lower, upper)
    while True:
        t = frame[d, CR_TAKEN]
        j = frame[d, CR_CHILD]
        steps = STEP_COUNT[t]
        if j < 4 * steps and frame[d, CR_BEST] < frame[d, CR_BETA]:
            frame[d, CR_CHILD] = j + 1
            left = low[frame[d, CR_MINE]]
            right = high[frame[d, CR_MINE]]
            k = j % (2 * steps)
            end = k & 1
            if end == 1 and left == right:
                continue  # no trail yet, or both ends alike: the other end is the same move
            card = classes[STEP_POS[t, k >> 1]]
            after = STEP_AFTER[t, k >> 1]
            # ruling C2: 1 point when the card matches the end it goes beside
            if left == empty:
                points, ends = 0, index[card, card]
            elif end == 0:
                points, ends = gain[card, left], index[card, right]
            else:
                points, ends = gain[card, right], index[left, card]
            if (points == 1) == (j >= 2 * steps):
                continue  # scoring moves in the first pass, the others in the second
            # the child's window, so that points − its value falls in this frame's
            alpha = points - frame[d, CR_BETA]
            beta = points - max(frame[d, CR_ALPHA], frame[d, CR_BEST])
            if STEP_COUNT[after] == 0:
                # ruling C3: the next round starts with the player not to move now
                value = 0 if last else -fresh
            else:
                lower, upper = _cr_bounds(after, frame[d, CR_THEIRS], ends, last, memo, gen,
                                          pairs)
                if lower == upper or lower >= beta:
                    value = lower
                elif upper <= alpha:
                    value = upper
                else:
                    frame[d, CR_GAIN] = points
                    _cr_enter(frame, d + 1, after, frame[d, CR_THEIRS], ends,
                              max(alpha, lower), min(beta, upper), lower, upper)
                    d += 1
                    continue
            if points - value > frame[d, CR_BEST]:
                frame[d, CR_BEST] = points - value
            continue
        best = frame[d, CR_BEST]
        lower, upper = frame[d, CR_LOWER], frame[d, CR_UPPER]
        if best <= frame[d, CR_ALPHA]:
            upper = min(upper, best)  # fail low: the value is at most best
        elif best >= frame[d, CR_BETA]:
            lower = max(lower, best)  # fail high: at least best
        else:
            lower = upper = best
        key = ((last * ROW_STATES + t) * pairs + frame[d, CR_MINE]) * pairs + frame[d, CR_THEIRS]
        memo[key] = (gen << _STAMP) | ((lower + _BOUND) << _BOUND_BITS) | (upper + _BOUND)
        if d == 0:
            return best
        d -= 1
        if frame[d, CR_GAIN] - best > frame[d, CR_BEST]:
            frame[d, CR_BEST] = frame[d, CR_GAIN] - best


# inlined, so that a frame's fields stay as fast as separate arrays were
@njit(cache=True, inline="always")
def _cr_enter(frame, d, taken, mine, theirs, alpha, beta, lower, upper):
    """Start searching a position at ply `d`: no child tried yet, nothing found yet."""
    frame[d, CR_TAKEN] = taken
    frame[d, CR_MINE] = mine
    frame[d, CR_THEIRS] = theirs
    frame[d, CR_CHILD] = 0
    frame[d, CR_BEST] = -_INF
    frame[d, CR_ALPHA] = alpha
    frame[d, CR_BETA] = beta
    frame[d, CR_LOWER] = lower
    frame[d, CR_UPPER] = upper


@njit(cache=True)
def _gain_table(match: np.ndarray) -> np.ndarray:
    """gain[c, end] = 1 when a card of class c scores beside `end`; the last end is none."""
    count = match.shape[0]
    gain = np.zeros((count, count + 1), dtype=np.int64)
    for a in range(count):
        for b in range(count):
            gain[a, b] = 1 if match[a, b] else 0
    return gain


@njit(cache=True)
def crossroads_position(
    classes, match, taken, mine_left, mine_right, theirs_left, theirs_right, last, memo, gen
):
    """Future value (ruling C4, points already scored excluded) of one position for the
    player to move; ends are classes, len(match) meaning no trail yet; `last` is 1 in the
    last round, 0 in the first of two."""
    gain = _gain_table(match)
    count = match.shape[0]
    index, low, high = _pair_tables(count)
    fresh = 0
    if last == 0:
        new = index[count, count]
        fresh = _cr_future(0, new, new, 1, 0, classes, gain, index, low, high, memo, gen)
    return _cr_future(
        taken, index[mine_left, mine_right], index[theirs_left, theirs_right], last, fresh,
        classes, gain, index, low, high, memo, gen,
    )


@njit(cache=True)
def _crossroads_batch(layouts, rounds, memo, gen):
    values = np.zeros(layouts.shape[0], dtype=np.int64)
    for d in range(layouts.shape[0]):
        classes, match = layout_classes(layouts[d])
        count = match.shape[0]
        values[d] = crossroads_position(
            classes, match, 0, count, count, count, count, 1 if rounds == 1 else 0, memo, gen + d
        )
    return values


# -- Caravan ---------------------------------------------------------------------------------


@njit(cache=True)
def _fits_table(match: np.ndarray) -> np.ndarray:
    """fits[c, end] = a face-up card of class c may go beside `end` (ruling V2): a matching
    face-up card, or a bridge (code count). The code count + 1 (no caravan) fits nothing."""
    count = match.shape[0]
    fits = np.zeros((count, count + 2), dtype=np.bool_)
    for a in range(count):
        for b in range(count):
            fits[a, b] = match[a, b]
        fits[a, count] = True
    return fits


@njit(cache=True)
def _cv_state(taken, left, right, spare, bridge, memo, gen, classes, bits):
    """1 won, 0 lost (final, hopeless or known lost), -1 to be searched; left <= right."""
    if STEP_COUNT[taken] == 0:
        return 1 if right < bridge else 0  # ruling V4: both ends face up
    if right == bridge and 1 + (left == bridge) > LEFT[taken]:
        return 0  # each open bridge still needs a card beyond it
    key = (taken * (bridge + 2) + left) * (bridge + 2) + right
    entry = memo[key]
    if entry >> _STAMP == gen and spare <= (entry & _PAYLOAD):
        return 0
    # An isolated card is a bridge itself, or goes beyond a bridge (one card beyond each
    # open bridge end and each bridge to come), or is the first card (ruling V1).
    if _cv_isolated(taken, left, right, bridge, classes, bits) > (
        2 * spare + (left == bridge) + (right == bridge) + (left > bridge)
    ):
        memo[key] = (gen << _STAMP) | spare
        return 0
    return -1


@njit(cache=True)
def _cv_isolated(taken, left, right, bridge, classes, bits):
    """How many cards left match neither another card left nor a face-up end: by ruling
    V2 such a card can go face up only beside a bridge."""
    pool = 0  # classes of the cards left, as bits
    twice = 0  # classes of which two or more cards are left
    for row in range(ROWS):
        for column in range(ROW_TAKEN[taken, row], COLUMNS):
            bit = 1 << classes[row * COLUMNS + column]
            twice |= pool & bit
            pool |= bit
    ends = 0
    if left < bridge:
        ends |= 1 << left
    if right < bridge:
        ends |= 1 << right
    isolated = 0
    for row in range(ROWS):
        for column in range(ROW_TAKEN[taken, row], COLUMNS):
            c = classes[row * COLUMNS + column]
            others = pool if twice >> c & 1 else pool & ~(1 << c)
            if bits[c] & (others | ends) == 0:
                isolated += 1
    return isolated


@njit(cache=True)
def _cv_win(taken, left, right, spare, classes, fits, bits, memo, gen):
    """Whether the position can still be won, with ends left <= right and `spare` bridges
    still allowed. Memo entries hold the most spare bridges with which a position is
    known lost (fewer bridges never help).

    Depth-first with an explicit stack (see the module's docstring). A frame's children:
    every face-up move (card, end), then every bridge, as face-up moves save bridges. A
    win anywhere below is a win for the root. Positions with more isolated cards than
    the bridges can take are lost without a search (_cv_state)."""
    bridge = fits.shape[0]
    empty = bridge + 1
    span = bridge + 2
    state = _cv_state(taken, left, right, spare, bridge, memo, gen, classes, bits)
    if state >= 0:
        return state == 1
    frame = np.empty((SIZE + 1, _CV_FRAME), dtype=np.int64)  # one row per ply
    d = 0
    _cv_enter(frame, d, taken, left, right, spare)
    while True:
        t = frame[d, CV_TAKEN]
        j = frame[d, CV_CHILD]
        steps = STEP_COUNT[t]
        if j < 4 * steps:
            frame[d, CV_CHILD] = j + 1
            left, right, spare = frame[d, CV_LEFT], frame[d, CV_RIGHT], frame[d, CV_SPARE]
            face_down = j >= 2 * steps
            i = (j % (2 * steps)) >> 1
            end = j & 1
            after = STEP_AFTER[t, i]
            card = classes[STEP_POS[t, i]]
            if left == empty:
                if face_down or end == 1:
                    continue
                low, high = card, card  # ruling V1: the first card goes face up
            elif end == 1 and left == right:
                continue  # the same move as at the other end
            elif face_down:
                # ruling V3: a bridge goes beside a face-up end, within the limit
                if spare == 0 or (left if end == 0 else right) == bridge:
                    continue
                low, high = (right, bridge) if end == 0 else (left, bridge)
                spare -= 1
            else:
                # ruling V2: face up beside a matching card or a bridge
                if not fits[card, left if end == 0 else right]:
                    continue
                other = right if end == 0 else left
                low, high = (card, other) if card <= other else (other, card)
            state = _cv_state(after, low, high, spare, bridge, memo, gen, classes, bits)
            if state == 1:
                return True
            if state == -1:
                d += 1
                _cv_enter(frame, d, after, low, high, spare)
            continue
        key = (t * span + frame[d, CV_LEFT]) * span + frame[d, CV_RIGHT]
        memo[key] = (gen << _STAMP) | frame[d, CV_SPARE]
        if d == 0:
            return False
        d -= 1


# inlined like _cr_enter
@njit(cache=True, inline="always")
def _cv_enter(frame, d, taken, left, right, spare):
    """Start searching a position at ply `d`: no child tried yet."""
    frame[d, CV_TAKEN] = taken
    frame[d, CV_LEFT] = left
    frame[d, CV_RIGHT] = right
    frame[d, CV_SPARE] = spare
    frame[d, CV_CHILD] = 0


@njit(cache=True)
def caravan_position(classes, match, taken, left, right, spare, memo, gen):
    """Whether one position can be won; ends are classes, len(match) a bridge and
    len(match) + 1 no caravan yet; `spare` is how many more bridges are allowed."""
    fits = _fits_table(match)
    if left > right:
        left, right = right, left
    bits = _match_bits(match)
    return _cv_win(taken, left, right, spare, classes, fits, bits, memo, gen)


@njit(cache=True)
def _match_bits(match):
    """Each class's matching classes as bits."""
    count = match.shape[0]
    bits = np.zeros(count, dtype=np.int64)
    for a in range(count):
        for b in range(count):
            if match[a, b]:
                bits[a] |= 1 << b
    return bits


@njit(cache=True)
def _caravan_batch(layouts, bridges, memo, gen):
    wins = np.zeros(layouts.shape[0], dtype=np.bool_)
    for d in range(layouts.shape[0]):
        classes, match = layout_classes(layouts[d])
        empty = match.shape[0] + 1
        wins[d] = caravan_position(classes, match, 0, empty, empty, bridges, memo, gen + d)
    return wins


# -- the shared memo -------------------------------------------------------------------------


class Memo:
    """A process-wide memo array and the generation counter that partitions it. (The
    kernels hold the GIL, so threads never search it at the same time.)"""

    def __init__(self, size: int) -> None:
        self.array = np.zeros(size, dtype=np.int64)
        self.generation = 0
        self.lock = Lock()

    def draw(self, count: int = 1) -> int:
        """The first of `count` fresh generations."""
        with self.lock:
            first = self.generation + 1
            self.generation += count
        return first


CROSSROADS_MEMO = Memo(2 * ROW_STATES * _CR_PAIRS * _CR_PAIRS)
CARAVAN_MEMO = Memo(ROW_STATES * _CV_SPAN * _CV_SPAN)


def _layouts(layouts: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(layouts, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != SIZE:
        raise ValueError(f"layouts must be an array of shape (n, {SIZE}), not {array.shape}")
    if array.size and array.min() < 1:
        raise ValueError("cards are positive whole numbers")
    return array


def crossroads_values_batch(layouts: np.ndarray, rounds: int = 1) -> np.ndarray:
    """Value (ruling C4) of each fresh layout for its first player: one round, or the
    two-round match (ruling C3) when rounds is 2."""
    array = _layouts(layouts)
    if rounds not in (1, 2):
        raise ValueError("rounds is 1 or 2")
    gen = CROSSROADS_MEMO.draw(len(array))
    return _crossroads_batch(array, rounds, CROSSROADS_MEMO.array, gen)


def caravan_winnable_batch(layouts: np.ndarray, bridges: int) -> np.ndarray:
    """Whether each layout can be won from the start with at most `bridges` bridges."""
    array = _layouts(layouts)
    if not 0 <= bridges <= SIZE - 1:
        raise ValueError(f"the bridge limit is 0 to {SIZE - 1}")
    gen = CARAVAN_MEMO.draw(len(array))
    return _caravan_batch(array, bridges, CARAVAN_MEMO.array, gen)


class CrossroadsKernel:
    """Compiled Crossroads search over one layout's classes (the solver's); its positions
    share one generation, so repeated questions about the deal reuse the memo."""

    def __init__(self, classes: Classes, match: Match) -> None:
        self.classes = np.array(classes, dtype=np.int64)
        self.match = np.array(match, dtype=np.bool_).reshape(len(match), len(match))
        self.generation = CROSSROADS_MEMO.draw()

    def future(self, taken: int, mine: Ends, theirs: Ends, last_round: bool) -> int:
        """Best (my future points − theirs); ends are class pairs, len(match) = no trail."""
        return int(crossroads_position(
            self.classes, self.match, taken, mine[0], mine[1], theirs[0], theirs[1],
            int(last_round), CROSSROADS_MEMO.array, self.generation,
        ))


class CaravanKernel:
    """Compiled Caravan search over one layout's classes under one bridge limit."""

    def __init__(self, classes: Classes, match: Match, bridges: int) -> None:
        self.classes = np.array(classes, dtype=np.int64)
        self.match = np.array(match, dtype=np.bool_).reshape(len(match), len(match))
        self.limit = bridges
        self.generation = CARAVAN_MEMO.draw()

    def winnable_from(self, taken: int, left: int, right: int, used: int) -> bool:
        """Ends are classes, len(match) a bridge, len(match) + 1 no caravan yet."""
        return bool(caravan_position(
            self.classes, self.match, taken, left, right, self.limit - used,
            CARAVAN_MEMO.array, self.generation,
        ))


BACKEND = Backend("compiled", CrossroadsKernel, CaravanKernel)


def warm_up() -> None:
    """Compile every entry point now (or load it from numba's cache): seconds the first time
    after an install or a change to this file, much less after (docs/performance.md)."""
    from chuko.core.packs import PACKS

    from .encoding import card_classes

    # The searches of one position first: hints use them, and one may be waiting.
    classes, match = card_classes(PACKS["plain"])
    none = len(match)  # no trail; for Caravan, none + 1 is no caravan
    CrossroadsKernel(classes, match).future(0, (none, none), (none, none), False)
    CaravanKernel(classes, match, 2).winnable_from(0, none + 1, none + 1, 0)
    deal = np.array([PACKS["plain"]], dtype=np.int64)
    caravan_winnable_batch(deal, 2)
    crossroads_values_batch(deal)
