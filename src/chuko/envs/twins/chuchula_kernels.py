"""The numba kernels of Chuchula's compiled twin (twins/chuchula.py): the rules of the engine
(games/chuchula.py) over arrays, one row per game, as the research environments play them.

A row is one int64 array row (`COLUMNS` wide, layout below). Seats group one after another,
the lowest seat still to commit first, each a card per action (games/encodings/chuchula.py:
action = place × 4 + group − 1, the 13th card left out once 12 are placed); when the last
seat commits the round is scored (H5), and the next dealer, anticlockwise, deals the next
round from the batch's generator, unless the game is over (H7). Group strengths are the
engine's own `group_strength`, read from a table the twin builds from it (`rules`).

Masks. A step is legal when some valid grouping (groups strongest first, ruling H4) agrees
with the partial move and takes it. Before anything is placed, any partition of the hand
sorted is one: fixed partitions cover most of the first mask (`_partitioned`). When a seat
begins to group, its hand's 286 groups are ranked strongest first, and the ranks of those
holding each place kept as bits (`_rank_groups`), so that the groups a search may take at a
level (holding what the group needs, meeting nothing taken or needed elsewhere) are a few
words of bits (`_prepare`, `_descend`). Every grouping found covers all of its steps (a
witness, kept across steps while it agrees with the partial move, or repaired by one
exchange when it misses only the card just placed), and so do those its exchanges of two
cards make; a step none covers is tried by a depth-first search over the four groups in
order, each no stronger than the one before, within bounds the other groups set
(`_bounds`), remembering (group, cards left) it has refuted under a ceiling (`complete`).
The search descends only where some group fits between the next floor and ceiling, and
takes the last group as the first that fits. A step whose search fails stays refused as
the move grows.

Whether an exchange holds is hard to foresee, so its checks are written without branches;
and random play updates an observation by the step's place rather than writing it whole
(`random_steps`).

The searches keep explicit stacks (numba's cache and recursion do not mix:
solvers/kernels.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros as _leading_zeros
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

from chuko.solvers.numba_cache import ensure_cache

ensure_cache()

# numba's bit counts (the processor's own instructions), untyped for mypy: their declared
# signature takes numba's typing context first.
trailing_zeros: Any = _trailing_zeros
leading_zeros: Any = _leading_zeros

HAND, GROUPS, ACTIONS, TRIPLES, CARDS = 13, 4, 52, 286, 52
FULL = (1 << HAND) - 1
TOP = 1 << 15  # above every strength (the strongest, a trial of aces, is 20,025)
TYPE_UNIT = 15**3  # a strength's highest base-15 digit is its group type
KEEP = 8  # witnesses kept per row
# A witness: its four groups' places, their strengths, then the grouping's steps.
WITNESS_WIDTH = 2 * GROUPS + 1
POWERS, STEPS = GROUPS, 2 * GROUPS

# The columns of a row.
TO_MOVE, DEALER, ROUNDS, MASK, MASK_OK, REFUSED, WITNESS_COUNT, WITNESS_NEXT = range(8)
SCORES = 8  # per seat
COMMITTED = SCORES + GROUPS  # per seat
PARTIAL = COMMITTED + GROUPS  # the moving seat's 13 labels (0: not placed)
WINNERS = PARTIAL + HAND  # the last scored round, per position: a seat, -1 cancelled
TYPES = WINNERS + GROUPS  # its groups' types, position × 4 + seat
HANDS = TYPES + GROUPS * GROUPS  # seat × 13 + place: a card (its index in the deck)
STRENGTHS = HANDS + GROUPS * HAND  # the round's committed groups, seat × 4 + position
WITNESSES = STRENGTHS + GROUPS * GROUPS
# What chance gave the row, in the engine's terms: the first deal (its order and dealer);
# what its last step drew (`DRAWN`: 0 nothing, 1 a round's deal, 2 the tie draw), the last
# round's order, and the tie draw's order of the seats.
FIRST_ORDER = WITNESSES + KEEP * WITNESS_WIDTH
FIRST_DEALER = FIRST_ORDER + CARDS
DRAWN = FIRST_DEALER + 1
DEALT = DRAWN + 1
DRAW = DEALT + CARDS
# The hand's groups that hold each place, as bits of their ranks (`_rank_groups`), a row of
# `WORDS` words a place.
WORDS = 5  # 286 bits
HOLDS = DRAW + GROUPS
# The moving seat's partial move again, as the places in each group (bits): the masks,
# the commit and the step read these four words; observations read the labels.
PLACED = HOLDS + HAND * WORDS
COLUMNS = PLACED + GROUPS

# The search's scratch: per group, its floor and cap (the bounds other groups set), its
# next rank, cards left, ceiling, choice, required places, and the partial move's places.
FLOOR, CAP, NEXT, LEFT, CEILING, CHOSEN, NEED, BASE = (5 * k for k in range(8))
# The group a search adds its step to, and the stamp its mask's searches share: groups after
# that one require only the partial move's places in every search for the mask, so what one
# search refutes there holds for all of them.
TRIAL, SHARED = 5 * 8, 5 * 8 + 1
# Per group, as bits of ranks (`WORDS` words each): the groups it may take (`_prepare`, then
# `_descend`); those that hold what it needs and no place a later group needs; and those
# that meet the groups chosen before it in a search.
FITS = 5 * 8 + 2
ONLY = FITS + GROUPS * WORDS
USED = ONLY + GROUPS * WORDS
# A grouping whose exchanges are tried (`_exchanges`), or that is kept as a witness: its
# groups, then their strengths.
SWAP = USED + GROUPS * WORDS
# Per group, the first rank its cap admits.
CAP_RANK = SWAP + 2 * GROUPS
# Per group, as bits of ranks: the groups holding all, and any, of its placed cards.
BOTH = CAP_RANK + GROUPS
EITHER = BOTH + GROUPS * WORDS
WORK = EITHER + GROUPS * WORDS
MEMO_STAMP = GROUPS * (1 << HAND)  # the memo's last cell: the current search's stamp
MEMO = MEMO_STAMP + 1
# A batch's scratch: the search's work, its memo, then the generator's state.
SHUFFLE = WORK + MEMO  # a deck to shuffle
SCRATCH = SHUFFLE + CARDS + 1
# The rules' array: the configuration (players, a point game, length), then the engine's
# strengths by ranks and suit (`_hand_strengths`).
PLAYERS, POINTS, LENGTH, TABLE = 0, 1, 2, 3

_TRIPLES = [(a, b, c) for a in range(HAND) for b in range(a + 1, HAND)
            for c in range(b + 1, HAND)]
TRIPLE_PLACES = np.array(_TRIPLES, dtype=np.int64)
TRIPLE_MASKS = np.array([1 << a | 1 << b | 1 << c for a, b, c in _TRIPLES], dtype=np.int64)
LISTED = TRIPLES  # a hand's groups listed strongest first
BY_TRIPLE = LISTED  # then the strengths by triple number
EQUAL_FROM = LISTED  # and the first rank of each rank's strength
# Fixed partitions of the places into four groups of three (one left out): before anything
# is placed, every partition is a valid grouping of any hand once its groups are sorted, so
# these cover most of the first mask's steps at a few lookups each (`_partitioned`).
PARTITION_COUNT = 24
_partitions = np.random.default_rng(2026)
PARTITIONS = np.zeros((PARTITION_COUNT, GROUPS), dtype=np.int64)
for _k in range(PARTITION_COUNT):
    for _place, _group in zip(_partitions.permutation(HAND)[: 3 * GROUPS],
                              np.repeat(np.arange(GROUPS), 3), strict=True):
        PARTITIONS[_k, _group] |= 1 << int(_place)

# The number of the triple at three places (a bit mask), in `TRIPLE_PLACES`.
TRIPLE_AT = np.full(1 << HAND, -1, dtype=np.int64)
for _number, (_a, _b, _c) in enumerate(_TRIPLES):
    TRIPLE_AT[1 << _a | 1 << _b | 1 << _c] = _number


# -- the generator ----------------------------------------------------------------------------

@njit(cache=True)
def _next(scratch: np.ndarray) -> np.uint64:
    """splitmix64: the batch's generator, its state in the scratch's last cell (read and
    written as a number: a view of the cell would cost more than the generator)."""
    state = np.uint64(scratch[SCRATCH - 1]) + np.uint64(0x9E3779B97F4A7C15)
    scratch[SCRATCH - 1] = np.int64(state)
    z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below(scratch: np.ndarray, n: int) -> int:
    """A uniform integer in range(n), n < 2**11."""
    return int(((_next(scratch) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))


@njit(cache=True)
def seed_generator(scratch: np.ndarray, seed: int) -> None:
    scratch[SCRATCH - 1] = np.int64(np.uint64(seed & 0x7FFFFFFFFFFFFFFF)
                                    * np.uint64(0x2545F4914F6CDD1D))
    _next(scratch)


@njit(cache=True)
def shuffled(scratch: np.ndarray, order: np.ndarray) -> None:
    """`order` becomes a uniform permutation of the deck (Fisher-Yates)."""
    for i in range(CARDS):
        order[i] = i
    for i in range(CARDS - 1, 0, -1):
        j = below(scratch, i + 1)
        order[i], order[j] = order[j], order[i]


# -- strengths and deals ----------------------------------------------------------------------

@njit(cache=True)
def _sort_hand(state: np.ndarray, row: int, seat: int) -> None:
    """The seat's cards as `view(seat)["hand"]` lists them: highest rank first, then
    spades, hearts, diamonds, clubs (the deck's suit order)."""
    base = HANDS + seat * HAND
    for i in range(1, HAND):
        card = state[row, base + i]
        key = (12 - card % 13) * 4 + card // 13
        j = i - 1
        while j >= 0 and (12 - state[row, base + j] % 13) * 4 + state[row, base + j] // 13 > key:
            state[row, base + j + 1] = state[row, base + j]
            j -= 1
        state[row, base + j + 1] = card


@njit(cache=True)
def _hand_strengths(state, rules, row, seat, strengths):
    """The engine's `group_strength` of the seat's 286 groups, by number in `TRIPLE_PLACES`,
    into `strengths`: read from the table by ranks (highest first: the hand is sorted so)
    and whether the three cards share a suit (deck indexes: suit × 13 + rank − 2)."""
    base = HANDS + seat * HAND
    t = 0
    for a in range(HAND):
        x, suit = state[row, base + a] % 13 + 2, state[row, base + a] // 13
        for b in range(a + 1, HAND):
            y, same = state[row, base + b] % 13 + 2, state[row, base + b] // 13 == suit
            for c in range(b + 1, HAND):
                z = state[row, base + c] % 13 + 2
                suited = 1 if same and state[row, base + c] // 13 == suit else 0
                strengths[t] = rules[TABLE + ((x * 15 + y) * 15 + z) * 2 + suited]
                t += 1


@njit(cache=True)
def _strongest_first(strengths, ranked, spare):
    """The groups' numbers into `ranked`, strongest first and equal groups by number: a
    stable radix sort (two passes of a byte, counted together) of the strengths, all below
    `TOP`; `spare` is as long, for the first pass."""
    counts = np.zeros(2 * 257, dtype=np.int64)
    for t in range(TRIPLES):
        key = TOP - 1 - strengths[t]
        counts[(key & 255) + 1] += 1
        counts[257 + (key >> 8 & 255) + 1] += 1
    for digit in range(256):
        counts[digit + 1] += counts[digit]
        counts[257 + digit + 1] += counts[257 + digit]
    for t in range(TRIPLES):
        digit = (TOP - 1 - strengths[t]) & 255
        spare[counts[digit]] = t
        counts[digit] += 1
    for i in range(TRIPLES):
        t = spare[i]
        digit = 257 + ((TOP - 1 - strengths[t]) >> 8 & 255)
        ranked[counts[digit]] = t
        counts[digit] += 1


@njit(cache=True)
def _rank_groups(state, lists, rules, row, seat):
    """The seat's hand's 286 groups, strongest first: their places (`lists[row, 0]`, bit
    masks) and strengths (`lists[row, 1]`), and the ranks of those that hold each place as
    bits (`HOLDS`); then every group's strength by its number in `TRIPLE_PLACES`, and each
    rank's first rank of equal strength. Only the seat to move's are kept (seats group one
    after another)."""
    order, power = lists[row, 0], lists[row, 1]
    strengths = power[BY_TRIPLE:]
    _hand_strengths(state, rules, row, seat, strengths)
    # The ranked numbers are written where the places go, and the first pass's where the
    # equal ranks go: each is read before it is overwritten.
    _strongest_first(strengths, order[:TRIPLES], order[EQUAL_FROM:])
    state[row, HOLDS : HOLDS + HAND * WORDS] = 0
    for i in range(TRIPLES):
        t = order[i]
        places = TRIPLE_MASKS[t]
        for k in range(3):
            state[row, HOLDS + TRIPLE_PLACES[t, k] * WORDS + (i >> 6)] |= 1 << (i & 63)
        order[i] = places
        power[i] = strengths[t]
        equal = i > 0 and power[i] == power[i - 1]
        order[EQUAL_FROM + i] = order[EQUAL_FROM + i - 1] if equal else i


@njit(cache=True)
def deal_round(state, lists, rules, row, cards, dealer):
    """A round dealt from `cards` (a permutation of the deck): 13 cards a seat in seat
    order, the rest set aside; nobody has grouped yet."""
    for i in range(CARDS):
        state[row, DEALT + i] = cards[i]
    for seat in range(rules[PLAYERS]):
        for place in range(HAND):
            state[row, HANDS + seat * HAND + place] = cards[seat * HAND + place]
        _sort_hand(state, row, seat)
        state[row, COMMITTED + seat] = 0
    state[row, DEALER] = dealer
    _start_seat(state, lists, rules, row, 0)


@njit(cache=True)
def _start_seat(state, lists, rules, row, seat):
    """`seat` begins its grouping: its groups ranked, no step taken, nothing known of its
    masks."""
    _rank_groups(state, lists, rules, row, seat)
    state[row, TO_MOVE] = seat
    for place in range(HAND):
        state[row, PARTIAL + place] = 0
    for group in range(GROUPS):
        state[row, PLACED + group] = 0
    state[row, MASK_OK] = 0
    state[row, REFUSED] = 0
    state[row, WITNESS_COUNT] = 0
    state[row, WITNESS_NEXT] = 0


@njit(cache=True)
def new_game(state, lists, rules, row, cards, dealer):
    """A game from its first deal (`Game.from_order`)."""
    for i in range(CARDS):
        state[row, FIRST_ORDER + i] = cards[i]
    state[row, FIRST_DEALER] = dealer
    state[row, DRAWN] = 0
    for seat in range(GROUPS):
        state[row, SCORES + seat] = 0
    state[row, ROUNDS] = 0
    deal_round(state, lists, rules, row, cards, dealer)


# -- masks ------------------------------------------------------------------------------------

@njit(cache=True)
def _prepare_partial(holds, work):
    """Per group g, as bits of ranks: the groups that hold all of the partial move's places
    in g (`work[BOTH]`) and those that hold any (`work[EITHER]`), which every search for the
    mask starts from (`_prepare`)."""
    for group in range(GROUPS):
        for word in range(WORDS):
            need = work[BASE + group]
            both = (1 << (TRIPLES - 64 * word)) - 1 if word == WORDS - 1 else -1
            anyof = 0
            while need:
                bits = holds[trailing_zeros(need) * WORDS + word]
                need &= need - 1
                both &= bits
                anyof |= bits
            work[BOTH + group * WORDS + word] = both
            work[EITHER + group * WORDS + word] = anyof


@njit(cache=True)
def _prepare(holds, work):
    """Per group g, as bits of ranks: the groups that hold `work[NEED + g]` (the partial
    move's places, and the step tried in group `work[TRIAL]`) and no place a later group
    needs (`work[ONLY]`: a search's candidates, less those that meet the groups chosen
    before), and of those, the ones that meet no place an earlier group needs (`work[FITS]`:
    the bounds' candidates). The four groups are written out, their words in registers."""
    trial = work[TRIAL]
    place = trailing_zeros(work[NEED + trial] & ~work[BASE + trial])
    # All ones in the trial group's own, else none.
    own0, own1, own2, own3 = -(trial == 0), -(trial == 1), -(trial == 2), -(trial == 3)
    for word in range(WORDS):
        extra = holds[place * WORDS + word]
        any0 = work[EITHER + word] | extra & own0
        any1 = work[EITHER + WORDS + word] | extra & own1
        any2 = work[EITHER + 2 * WORDS + word] | extra & own2
        any3 = work[EITHER + 3 * WORDS + word] | extra & own3
        only0 = work[BOTH + word] & (extra | ~own0) & ~(any1 | any2 | any3)
        only1 = work[BOTH + WORDS + word] & (extra | ~own1) & ~(any2 | any3)
        only2 = work[BOTH + 2 * WORDS + word] & (extra | ~own2) & ~any3
        only3 = work[BOTH + 3 * WORDS + word] & (extra | ~own3)
        work[ONLY + word] = only0
        work[ONLY + WORDS + word] = only1
        work[ONLY + 2 * WORDS + word] = only2
        work[ONLY + 3 * WORDS + word] = only3
        work[FITS + word] = only0
        work[FITS + WORDS + word] = only1 & ~any0
        work[FITS + 2 * WORDS + word] = only2 & ~(any0 | any1)
        work[FITS + 3 * WORDS + word] = only3 & ~(any0 | any1 | any2)


@njit(cache=True)
def _next_fit(work, at, rank):
    """The first rank from `rank` among the bits at `work[at]`; TRIPLES if none."""
    word = rank >> 6
    if word >= WORDS:
        return TRIPLES
    bits = work[at + word] & (-1 << (rank & 63))
    while bits == 0:
        word += 1
        if word == WORDS:
            return TRIPLES
        bits = work[at + word]
    return (word << 6) + trailing_zeros(bits)


@njit(cache=True)
def _last_fit(work, at):
    """The last rank among the bits at `work[at]`; -1 if none."""
    for word in range(WORDS - 1, -1, -1):
        bits = work[at + word]
        if bits != 0:
            return (word << 6) + 63 - leading_zeros(bits)
    return -1


@njit(cache=True)
def _bounds(order, holds, power, work):
    """Each group's floor (the weakest a later group can be) and ceiling (the strongest an
    earlier group can be); False when some group cannot lie between them, or has no
    group at all. Each group's candidates are left at `work[FITS]`."""
    _prepare(holds, work)
    low = 0
    for group in range(GROUPS - 1, -1, -1):
        work[FLOOR + group] = low
        weakest = _last_fit(work, FITS + group * WORDS)
        if weakest < 0:
            return False
        low = max(low, power[weakest])
    high, high_rank = TOP, 0
    for group in range(GROUPS):
        work[CAP + group] = high
        work[CAP_RANK + group] = high_rank
        rank = _next_fit(work, FITS + group * WORDS, 0)
        strongest = power[rank]
        if strongest < work[FLOOR + group]:
            return False
        if strongest < high:
            high, high_rank = strongest, order[EQUAL_FROM + rank]
    # Some group of each must lie between its floor and its cap.
    for group in range(GROUPS):
        rank = _next_fit(work, FITS + group * WORDS, work[CAP_RANK + group])
        if rank == TRIPLES or power[rank] < work[FLOOR + group]:
            return False
    return True


@njit(cache=True)
def _descend(holds, work, level, places):
    """A search moves to `level` after taking `places` for the group before it: the groups
    that meet these are no longer candidates."""
    for word in range(WORDS):
        used = work[USED + (level - 1) * WORDS + word]
        bits = places
        while bits:
            used |= holds[trailing_zeros(bits) * WORDS + word]
            bits &= bits - 1
        work[USED + level * WORDS + word] = used
        work[FITS + level * WORDS + word] = work[ONLY + level * WORDS + word] & ~used


@njit(cache=True)
def _first_fit(holds, work, level, places, start):
    """The first rank from `start` of a group that group `level` may take once the one
    before it has taken `places` (without descending: `_descend`); TRIPLES if none."""
    for word in range(start >> 6, WORDS):
        used = work[USED + (level - 1) * WORDS + word]
        bits = places
        while bits:
            used |= holds[trailing_zeros(bits) * WORDS + word]
            bits &= bits - 1
        fits = work[ONLY + level * WORDS + word] & ~used
        if word == start >> 6:
            fits &= -1 << (start & 63)
        if fits:
            return (word << 6) + trailing_zeros(fits)
    return TRIPLES


@njit(cache=True)
def _start_search(work, memo, free):
    """A search begins at the first group, with `free` places and nothing chosen; its own
    stamp in the memo."""
    memo[MEMO_STAMP] += 1
    work[LEFT] = free
    work[CEILING] = TOP
    work[NEXT] = 0
    for word in range(WORDS):
        work[USED + word] = 0
    return memo[MEMO_STAMP]


@njit(cache=True)
def complete(order, power, holds, work, memo, free):
    """Whether some valid grouping puts `work[NEED + g]` in group g and otherwise only
    `free` places; its groups are left in `work[CHOSEN + g]`. Groups are tried in order,
    each strongest first and no stronger than the one before (ruling H4), within the bounds
    `_bounds` found (it has returned True)."""
    stamp = _start_search(work, memo, free)
    level = 0
    while True:
        left, floor, at = work[LEFT + level], work[FLOOR + level], FITS + level * WORDS
        i, moved = _next_fit(work, at, work[NEXT + level]), False
        strength = rest = places = chosen = 0
        while i < TRIPLES:
            strength = power[i]
            if strength < floor:
                break
            places, chosen = order[i], i
            i = _next_fit(work, at, i + 1)
            rest = left & ~places
            if level == GROUPS - 2:
                # The last group is the first one left that fits, if it is strong enough.
                last = _first_fit(holds, work, level + 1, places,
                                  max(order[EQUAL_FROM + chosen], work[CAP_RANK + level + 1]))
                if last < TRIPLES and power[last] >= work[FLOOR + level + 1]:
                    work[CHOSEN + level] = places
                    work[CHOSEN + level + 1] = order[last]
                    return True
                continue
            seen = memo[(level + 1) * (1 << HAND) + rest]
            known = work[SHARED] if level + 1 > work[TRIAL] else stamp
            if seen >> 15 == known and seen & (TOP - 1) >= min(strength, work[CAP + level + 1]):
                continue
            # The next group needs some group to take, strong enough.
            first = _first_fit(holds, work, level + 1, places,
                               max(order[EQUAL_FROM + chosen], work[CAP_RANK + level + 1]))
            if first == TRIPLES or power[first] < work[FLOOR + level + 1]:
                continue
            work[NEXT + level] = i
            work[CHOSEN + level] = places
            moved = True
            break
        if moved:  # to a group before the last (`_first_fit` takes the last)
            level += 1
            work[LEFT + level] = rest
            work[CEILING + level] = min(strength, work[CAP + level])
            _descend(holds, work, level, places)
            work[NEXT + level] = max(order[EQUAL_FROM + chosen], work[CAP_RANK + level])
            continue
        if level == 0:
            return False
        # Refuted: these groups cannot be completed from these cards under this ceiling.
        known = work[SHARED] if level > work[TRIAL] else stamp
        memo[level * (1 << HAND) + left] = known << 15 | work[CEILING + level]
        level -= 1


@njit(cache=True)
def _spread(places):
    """The steps of `places` into group 0 (action bits): place i to bit 4i."""
    x = (places | places << 24) & 0x000000FF000000FF
    x = (x | x << 12) & 0x000F000F000F000F
    x = (x | x << 6) & 0x0303030303030303
    return (x | x << 3) & 0x1111111111111111


@njit(cache=True)
def _gather(bits, group):
    """The places whose step into `group` is among the action bits `bits` (`_spread`'s
    inverse)."""
    x = bits >> group & 0x1111111111111111
    x = (x | x >> 3) & 0x0303030303030303
    x = (x | x >> 6) & 0x000F000F000F000F
    x = (x | x >> 12) & 0x000000FF000000FF
    return (x | x >> 24) & FULL


@njit(cache=True)
def _steps_at(work, at):
    """The steps of the grouping at `work[at]`, as action bits."""
    bits = 0
    for group in range(GROUPS):
        bits |= _spread(work[at + group]) << group
    return bits


@njit(cache=True)
def _keep_witness(state, row, work, bits):
    """Keep the grouping at `work[SWAP]` (of steps `bits`) in place of the oldest."""
    _store_witness(state, row, WITNESSES + state[row, WITNESS_NEXT] * WITNESS_WIDTH, work, bits)
    state[row, WITNESS_NEXT] = (state[row, WITNESS_NEXT] + 1) % KEEP
    state[row, WITNESS_COUNT] = min(state[row, WITNESS_COUNT] + 1, KEEP)


@njit(cache=True)
def _store_witness(state, row, slot, work, bits):
    """The grouping at `work[SWAP]` (groups, then strengths), of steps `bits`, into `slot`."""
    for group in range(GROUPS):
        state[row, slot + group] = work[SWAP + group]
        state[row, slot + POWERS + group] = work[SWAP + GROUPS + group]
    state[row, slot + STEPS] = bits


@njit(cache=True)
def _known(state, power, row, work, goal):
    """The steps of the kept witnesses that agree with the partial move in `work[BASE]`, or
    can be made to by moving the one placed card they miss into its group, and of the
    groupings their exchanges make (`_exchanges`), until they cover `goal`."""
    found = 0
    for k in range(state[row, WITNESS_COUNT]):
        if goal & ~found == 0:
            break
        slot = WITNESSES + k * WITNESS_WIDTH
        missing, into = 0, -1
        for group in range(GROUPS):
            lacking = work[BASE + group] & ~state[row, slot + group]
            if lacking:
                missing |= lacking
                into = group
        if missing & (missing - 1):
            continue
        for group in range(GROUPS):
            work[SWAP + group] = state[row, slot + group]
            work[SWAP + GROUPS + group] = state[row, slot + POWERS + group]
        if missing:
            if not _repaired(power, work, missing, into):
                continue
            _store_witness(state, row, slot, work, _steps_at(work, SWAP))
        found = _exchanges(power, work, found | state[row, slot + STEPS])
    return found


@njit(cache=True)
def _repaired(power, work, card, into):
    """Whether the grouping at `work[SWAP]`, with `card` exchanged into group `into` for one
    of its cards not placed, is a valid grouping: then it is left there (it agrees with the
    partial move, if only `card` was out of place)."""
    source = -1
    for group in range(GROUPS):
        if work[SWAP + group] & card:
            source = group
    target = work[SWAP + into]
    movable = target & ~work[BASE + into]
    while movable:
        r = movable & -movable
        movable ^= r
        new_target = target ^ r ^ card
        strength_target = power[BY_TRIPLE + TRIPLE_AT[new_target]]
        if source < 0:
            ok = _in_order(work, into, strength_target, -1, 0)
        else:
            new_source = work[SWAP + source] ^ card ^ r
            strength_source = power[BY_TRIPLE + TRIPLE_AT[new_source]]
            if source < into:
                ok = _in_order(work, source, strength_source, into, strength_target)
            else:
                ok = _in_order(work, into, strength_target, source, strength_source)
        if ok:
            work[SWAP + into] = new_target
            work[SWAP + GROUPS + into] = strength_target
            if source >= 0:
                work[SWAP + source] = new_source
                work[SWAP + GROUPS + source] = strength_source
            return True
    return False


@njit(cache=True)
def _in_order(work, a, strength_a, b, strength_b):
    """Whether the groups at `work[SWAP]`, group a's strength `strength_a` and group b's
    `strength_b` instead, are strongest first."""
    previous = TOP
    for group in range(GROUPS):
        strength = work[SWAP + GROUPS + group]
        if group == a:
            strength = strength_a
        elif group == b:
            strength = strength_b
        if strength > previous:
            return False
        previous = strength
    return True


@njit(cache=True)
def _exchanges(power, work, found):
    """`found` and the steps of the valid groupings made from the one at `work[SWAP]` (its
    groups agreeing with the partial move in `work[BASE]`) by exchanging two cards not
    placed: of two groups, or of a group and the card left out. Only exchanges that would
    find a new step are tried: each is a few lookups, where a search is hundreds. An
    exchange keeps the groups strongest first when each changed group lies between its
    neighbours."""
    out = FULL
    for group in range(GROUPS):
        out &= ~work[SWAP + group]
    spare = trailing_zeros(out)
    strengths = SWAP + GROUPS
    for a in range(GROUPS):
        group_a = work[SWAP + a]
        movable = group_a & ~work[BASE + a]
        high_a = work[strengths + a - 1] if a > 0 else TOP
        low_a = work[strengths + a + 1] if a < GROUPS - 1 else 0
        bits = movable
        while bits and not found >> (GROUPS * spare + a) & 1:
            q = bits & -bits
            bits ^= q
            strength = power[BY_TRIPLE + TRIPLE_AT[group_a ^ q ^ out]]
            if low_a <= strength <= high_a:
                found |= 1 << (GROUPS * spare + a)
        for b in range(a + 1, GROUPS):
            group_b = work[SWAP + b]
            others = group_b & ~work[BASE + b]
            # With b next to a, a's new strength is b's ceiling and b's its floor.
            floor_a = low_a if b > a + 1 else 0
            high_b = work[strengths + b - 1]
            low_b = work[strengths + b + 1] if b < GROUPS - 1 else 0
            into_b = movable & ~_gather(found, b)
            into_a = others & ~_gather(found, a)
            if not (into_a | into_b):
                continue
            bits = movable
            while bits:
                q = bits & -bits
                bits ^= q
                rest = others if q & into_b else into_a
                while rest:
                    r = rest & -rest
                    rest ^= r
                    steps = (1 << (GROUPS * trailing_zeros(r) + a)
                             | 1 << (GROUPS * trailing_zeros(q) + b))
                    if found & steps == steps:
                        continue
                    # Without branches: which exchanges hold is hard to foresee.
                    strength_a = power[BY_TRIPLE + TRIPLE_AT[group_a ^ q ^ r]]
                    strength_b = power[BY_TRIPLE + TRIPLE_AT[group_b ^ q ^ r]]
                    ceiling_b = strength_a if b == a + 1 else high_b
                    holds = ((strength_a <= high_a) & (strength_a >= floor_a)
                             & (strength_b >= low_b) & (strength_b <= ceiling_b))
                    found |= steps * holds
    return found


@njit(cache=True)
def _partitioned(state, power, row, work, found):
    """`found` and the steps of the fixed partitions, each with its groups sorted strongest
    first (equal ones in their order): the first mask's, when nothing is placed. Those that
    add steps are kept as witnesses, for the masks after it."""
    strengths = CHOSEN  # the partition's strengths by its own order, before sorting
    for k in range(PARTITION_COUNT):
        for i in range(GROUPS):
            work[strengths + i] = power[BY_TRIPLE + TRIPLE_AT[PARTITIONS[k, i]]]
        for i in range(GROUPS):
            position = 0
            for j in range(GROUPS):
                if work[strengths + j] > work[strengths + i] or (
                        work[strengths + j] == work[strengths + i] and j < i):
                    position += 1
            work[SWAP + position] = PARTITIONS[k, i]
            work[SWAP + GROUPS + position] = work[strengths + i]
        bits = _steps_at(work, SWAP)
        if bits & ~found:
            _keep_witness(state, row, work, bits)
            found |= bits
    return found


@njit(cache=True)
def _partial(state: np.ndarray, row: int, work: np.ndarray) -> tuple[int, int]:
    """The partial move's groups into `work[BASE + g]`; (the free places, the steps a
    partial move of this shape allows at most: a free place to a group not yet full)."""
    placed = 0
    groups = 0  # one bit per group not yet full
    for group in range(GROUPS):
        places = state[row, PLACED + group]
        work[BASE + group] = places
        placed |= places
        if _count(places) < 3:
            groups |= 1 << group
    free = FULL & ~placed
    return free, _spread(free) * groups


@njit(cache=True)
def _count(bits: int) -> int:
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@njit(cache=True)
def row_mask(state, lists, scratch, row):
    """The legal steps of the row's seat to move, as action bits (kept until its next
    step)."""
    if state[row, MASK_OK]:
        return state[row, MASK]
    order, power = lists[row, 0], lists[row, 1]
    holds = state[row, HOLDS : HOLDS + HAND * WORDS]
    work, memo = scratch[:WORK], scratch[WORK : WORK + MEMO]
    free, wanted = _partial(state, row, work)
    found = _known(state, power, row, work, wanted & ~state[row, REFUSED])
    if free == FULL:
        found = _partitioned(state, power, row, work, found)
    refused = state[row, REFUSED]
    memo[MEMO_STAMP] += 1
    work[SHARED] = memo[MEMO_STAMP]
    unknown = wanted & ~found & ~refused
    if unknown:
        _prepare_partial(holds, work)
    pending = unknown
    while pending:
        step = trailing_zeros(pending)
        pending &= pending - 1
        if not unknown >> step & 1:
            continue  # found since, by a grouping an earlier step's search found
        place, group = step // GROUPS, step % GROUPS
        for g in range(GROUPS):
            work[NEED + g] = work[BASE + g]
        work[NEED + group] |= 1 << place
        work[TRIAL] = group
        if _bounds(order, holds, power, work) and complete(order, power, holds, work, memo,
                                                    free & ~(1 << place)):
            for g in range(GROUPS):
                work[SWAP + g] = work[CHOSEN + g]
                work[SWAP + GROUPS + g] = power[BY_TRIPLE + TRIPLE_AT[work[CHOSEN + g]]]
            bits = _steps_at(work, SWAP)
            _keep_witness(state, row, work, bits)
            found = _exchanges(power, work, found | bits)
            unknown &= ~found
        else:
            refused |= 1 << step
    mask = found & wanted
    state[row, REFUSED] = refused & wanted
    state[row, MASK] = mask
    state[row, MASK_OK] = 1
    return mask


# -- playing ----------------------------------------------------------------------------------

@njit(cache=True)
def _commit(state, lists, row, seat):
    """The seat's grouping is complete: its groups' strengths, by position."""
    for group in range(GROUPS):
        state[row, STRENGTHS + seat * GROUPS + group] = lists[
            row, 1, BY_TRIPLE + TRIPLE_AT[state[row, PLACED + group]]]
    state[row, COMMITTED + seat] = 1


@njit(cache=True)
def _score_round(state, row, players):
    """Each position to the one strongest group, a tie cancelling its point (H5)."""
    for position in range(GROUPS):
        best, winner = -1, -1
        for seat in range(players):
            strength = state[row, STRENGTHS + seat * GROUPS + position]
            state[row, TYPES + position * GROUPS + seat] = strength // TYPE_UNIT
            if strength > best:
                best, winner = strength, seat
            elif strength == best:
                winner = -1
        state[row, WINNERS + position] = winner
        if winner >= 0:
            state[row, SCORES + winner] += 1
    state[row, ROUNDS] += 1


@njit(cache=True)
def _over(state, row, players, points, length):
    """Whether the game is over (H7): its rounds played, or someone at the target."""
    if not points:
        return state[row, ROUNDS] >= length
    best = 0
    for seat in range(players):
        best = max(best, state[row, SCORES + seat])
    return best >= length


@njit(cache=True)
def _draw_ties(state, scratch, row, players):
    """The tie draw (H8), recorded though it changes no return: an order of the seats."""
    for seat in range(players):
        state[row, DRAW + seat] = seat
    for i in range(players - 1, 0, -1):
        j = below(scratch, i + 1)
        state[row, DRAW + i], state[row, DRAW + j] = state[row, DRAW + j], state[row, DRAW + i]
    state[row, DRAWN] = 2


@njit(cache=True)
def play(state, lists, rules, scratch, row, action):
    """Play a legal `action` for the row's seat to move; True when it ended the game. The
    next round is dealt from the batch's generator."""
    players, points, length = rules[PLAYERS], rules[POINTS], rules[LENGTH]
    seat = state[row, TO_MOVE]
    state[row, PARTIAL + action // GROUPS] = action % GROUPS + 1
    state[row, PLACED + action % GROUPS] |= 1 << action // GROUPS
    state[row, MASK_OK] = 0
    state[row, DRAWN] = 0
    placed = 0
    for group in range(GROUPS):
        placed += _count(state[row, PLACED + group])
    if placed < HAND - 1:
        return False
    _commit(state, lists, row, seat)
    for other in range(players):
        if not state[row, COMMITTED + other]:
            _start_seat(state, lists, rules, row, other)
            return False
    _score_round(state, row, players)
    if _over(state, row, players, points, length):
        state[row, TO_MOVE] = -1
        _draw_ties(state, scratch, row, players)
        return True
    cards = scratch[SHUFFLE : SHUFFLE + CARDS]
    shuffled(scratch, cards)
    deal_round(state, lists, rules, row, cards, (state[row, DEALER] - 1) % players)
    state[row, DRAWN] = 1
    return False


@njit(cache=True)
def step_batch(state, lists, rules, scratch, actions, rewards, ended):
    """Every live row plays its action; -1, or the first row whose action is not in its
    mask (then no row has changed)."""
    rows = state.shape[0]
    for row in range(rows):
        if state[row, TO_MOVE] >= 0:
            action = actions[row]
            if action < 0 or action >= ACTIONS:
                return row
            if not row_mask(state, lists, scratch, row) >> action & 1:
                return row
    for row in range(rows):
        for seat in range(rewards.shape[1]):
            rewards[row, seat] = 0.0
        ended[row] = 0
        if state[row, TO_MOVE] >= 0 and play(state, lists, rules, scratch, row, actions[row]):
            ended[row] = 1
            returns(state, row, rules[PLAYERS], rewards[row])
    return -1


@njit(cache=True)
def returns(state, row, players, out):
    """The returns of an ended game: each seat's points minus the mean of the others'."""
    total = 0
    for seat in range(players):
        total += state[row, SCORES + seat]
    for seat in range(players):
        own = state[row, SCORES + seat]
        out[seat] = own - (total - own) / (players - 1)


@njit(cache=True)
def masks(state, lists, scratch, out):
    """Each row's legal actions for its seat to move (all 0 for an ended row)."""
    for row in range(state.shape[0]):
        bits = 0
        if state[row, TO_MOVE] >= 0:
            bits = row_mask(state, lists, scratch, row)
        for action in range(ACTIONS):
            out[row, action] = bits >> action & 1


@njit(cache=True)
def _pick(bits, scratch):
    """A uniform choice among the set bits of `bits`."""
    for _ in range(below(scratch, _count(bits))):
        bits &= bits - 1
    return trailing_zeros(bits) if bits else -1


@njit(cache=True)
def _deal_random_row(state, lists, rules, scratch, row):
    cards = scratch[SHUFFLE : SHUFFLE + CARDS]
    shuffled(scratch, cards)
    new_game(state, lists, rules, row, cards, below(scratch, rules[PLAYERS]))


@njit(cache=True)
def deal_random(state, lists, rules, scratch, rows):
    """New games in `rows`, each from a shuffled deck and a random first dealer."""
    for row in rows:
        _deal_random_row(state, lists, rules, scratch, row)


@njit(cache=True)
def random_steps(state, lists, rules, scratch, steps, observations, afresh):
    """Every row dealt anew if `afresh` (else only rows never dealt), then plays `steps`
    uniform random legal actions, after each its seat to move's observation written to
    `observations[row]`; a row whose game ends is dealt a new game at once. The number of
    actions played."""
    rows = state.shape[0]
    # A row's steps one after another (the rows are independent games): its arrays stay in
    # the processor's caches, which a step of every row in turn would sweep out.
    for row in range(rows):
        if afresh or state[row, TO_MOVE] < 0:
            _deal_random_row(state, lists, rules, scratch, row)
        written = -1  # the seat whose observation `observations[row]` holds; -1: none yet
        for _ in range(steps):
            action = _pick(row_mask(state, lists, scratch, row), scratch)
            if play(state, lists, rules, scratch, row, action):
                _deal_random_row(state, lists, rules, scratch, row)
            seat = state[row, TO_MOVE]
            place = action // GROUPS
            if seat == written and state[row, PARTIAL + place]:
                # The same seat goes on grouping: only the step's place changed.
                _observe_step(observations[row], place, action % GROUPS + 1)
            else:
                observe_row(state, rules, row, seat, observations[row])
            written = seat
    return steps * rows


@njit(cache=True)
def _code(state, lists, rules, scratch, observation):
    """Row 0's seat to move, its observation written: seat + players × (mask bits + 1)."""
    seat = state[0, TO_MOVE]
    observe_row(state, rules, 0, seat, observation)
    return seat + rules[PLAYERS] * (row_mask(state, lists, scratch, 0) + 1)


@njit(cache=True)
def play_one(state, lists, rules, scratch, action, observation):
    """Row 0 plays `action`: -2 if it is not legal (nothing changed), -1 once the game has
    ended, else `_code`."""
    if state[0, TO_MOVE] < 0 or action < 0 or action >= ACTIONS:
        return -2
    if not row_mask(state, lists, scratch, 0) >> action & 1:
        return -2
    if play(state, lists, rules, scratch, 0, action):
        return -1
    return _code(state, lists, rules, scratch, observation)


@njit(cache=True)
def deal_one(state, lists, rules, scratch, seed, observation):
    """Row 0 dealt as `deal_random` deals it with the generator seeded by `seed`; `_code`."""
    seed_generator(scratch, seed)
    _deal_random_row(state, lists, rules, scratch, 0)
    return _code(state, lists, rules, scratch, observation)


# -- observations -----------------------------------------------------------------------------

LABELS = 221  # where the partial move's labels begin: 5 a place, after the hand's 17 a place

@njit(cache=True)
def _observe_hand(state, row, seat, live, out):
    """The hand (17 per place: rank, then suit) and the partial move (5 per place)."""
    for place in range(HAND):
        if live:
            card = state[row, HANDS + seat * HAND + place]
            out[17 * place + card % 13] = 1.0
            out[17 * place + 13 + card // 13] = 1.0
        label = state[row, PARTIAL + place] if live and state[row, TO_MOVE] == seat else 0
        out[LABELS + 5 * place + label] = 1.0


@njit(cache=True)
def _after(seat, other, players):
    """How many seats after `seat` `other` sits: (other − seat) mod players, without a
    division (this runs for every observation)."""
    k = other - seat
    return k + players if k < 0 else k


@njit(cache=True)
def _observe_step(o, place, label):
    """The seat to move's observation `o` after its step put `place` (free before) in group
    `label`."""
    o[LABELS + 5 * place] = 0.0
    o[LABELS + 5 * place + label] = 1.0


@njit(cache=True)
def observe_row(state, rules, row, seat, o):
    """The row's observation for `seat` into `o` (the encoding's layout)."""
    players, points, length = rules[PLAYERS], rules[POINTS], rules[LENGTH]
    o[:] = 0.0
    live = state[row, TO_MOVE] >= 0
    _observe_hand(state, row, seat, live, o)
    for other in range(players):
        k = _after(seat, other, players)
        o[286 + k] = state[row, SCORES + other] / (4 * length)
        o[290 + k] = state[row, COMMITTED + other] if live else 1.0
    if live:
        o[294 + _after(seat, state[row, DEALER], players)] = 1.0
    o[298 + players - 2] = 1.0
    o[301] = points
    played = state[row, ROUNDS]
    o[302] = min(played, length) / length
    if played:
        for k in range(GROUPS):
            winner = state[row, WINNERS + k]
            o[303 + 5 * k + (4 if winner < 0 else _after(seat, winner, players))] = 1.0
            for other in range(players):
                slot = _after(seat, other, players)
                o[323 + 24 * k + 6 * slot + state[row, TYPES + k * GROUPS + other]] = 1.0


@njit(cache=True)
def observe(state, rules, seats, out):
    """Row i's observation for seat `seats[i]` into `out[i]`."""
    for row in range(state.shape[0]):
        observe_row(state, rules, row, seats[row], out[row])
