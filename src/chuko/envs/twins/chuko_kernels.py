"""The compiled rules of Chükö's twin (chuko/envs/twins/chuko.py): numba kernels over one
int64 array of the configuration (`cfg`) and one int64 row per game (`s`).

The engine (chuko/games/chuko.py) is the reference; these kernels follow it rule by rule
and its differential test (tests/envs/test_twin_chuko.py) holds them to it. Cards are
value indexes (0..D-1, the encoding's actions); a hand, the play pile and a recycled draw
pile are counts per value, which is all the rules and the views need: a recycled pile's
order is chance, so a draw from it is a uniformly random card of it (the engine shuffles
the pile once and pops; the same distribution), and before any recycle the draw pile is
the deal's order, read from a pointer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from chuko.solvers.numba_cache import ensure_cache

ensure_cache()  # before the first kernel is defined: it needs somewhere to be cached

# -- the configuration array ---------------------------------------------------------------
# Scalars, then the tables: may_follow[card, top] (D × D), each deck card's value index
# (N), each value's count in the pack (D).
C_D, C_P, C_H, C_N, C_LIMIT, C_EXPLICIT, C_FIRST, C_TURNS, C_DRAWS = range(9)
C_TABLES = 16

# -- a game's row ----------------------------------------------------------------------------
# Scalars, then per seat × value the hands, per value the pile, per seat × value the pools
# (what the draw pile may hold as that seat knows it), per value the recycled draw pile,
# per seat the hand sizes, plays and resets, and the deal's order (deck indexes).
(TOP, SEAT, FIRST, PENDING, OVER, WINNER, COUNT, CHANCE, RECYCLED, POINTER, DRAW_SIZE,
 CHANCE_DRAWN, RNG, TRUNCATED, DEALT) = range(15)
SCALARS = 16

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _places(d, p):  # type: ignore[no-untyped-def]
    """(hands, pile, pools, recycled, sizes, plays, resets, order): where each starts."""
    hands = SCALARS
    pile = hands + p * d
    pools = pile + d
    recycled = pools + p * d
    sizes = recycled + d
    plays = sizes + p
    resets = plays + p
    order = resets + p
    return hands, pile, pools, recycled, sizes, plays, resets, order


def row_width(d: int, p: int, n: int) -> int:
    return SCALARS + 2 * p * d + 2 * d + 3 * p + n


# -- the generator: splitmix64, one state per row --------------------------------------------


@njit(cache=True, inline="always")
def _next(s, r):  # type: ignore[no-untyped-def]
    """The row's next 64 random bits, advancing its state."""
    x = np.uint64(s[r, RNG]) + _GOLDEN
    s[r, RNG] = np.int64(x)
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(s, r, n):  # type: ignore[no-untyped-def]
    """A uniformly random int in range(n) from the row's generator."""
    return int(float(_next(s, r) >> np.uint64(11)) * _UNIT * n)


@njit(cache=True)
def seed_rows(s, rows, seed):  # type: ignore[no-untyped-def]
    """Each listed row's generator from `seed` and the row's place in `rows`."""
    base = np.uint64(seed)
    for k in range(rows.shape[0]):
        x = base + np.uint64(k + 1) * _GOLDEN
        x = (x ^ (x >> np.uint64(30))) * _MIX1
        x = (x ^ (x >> np.uint64(27))) * _MIX2
        s[rows[k], RNG] = np.int64(x ^ (x >> np.uint64(31)))


# -- dealing -----------------------------------------------------------------------------------


@njit(cache=True)
def _start(cfg, s, r, first):  # type: ignore[no-untyped-def]
    """Row r's game from the order already in its row and the first seat (from_order)."""
    d, p, h, n = cfg[C_D], cfg[C_P], cfg[C_H], cfg[C_N]
    hands, pile, pools, recycled, sizes, plays, resets, order = _places(d, p)
    rng = s[r, RNG]
    s[r, :order] = 0
    s[r, RNG] = rng
    deck = C_TABLES + d * d
    for seat in range(p):
        for k in range(h):
            s[r, hands + seat * d + cfg[deck + s[r, order + seat * h + k]]] += 1
        s[r, sizes + seat] = h
    top = cfg[deck + s[r, order + p * h]]
    s[r, TOP] = top
    s[r, pile + top] = 1
    s[r, POINTER] = p * h + 1
    s[r, DRAW_SIZE] = n - p * h - 1
    s[r, SEAT] = first
    s[r, FIRST] = first
    s[r, WINNER] = -1
    s[r, CHANCE_DRAWN] = -1
    s[r, DEALT] = 1


@njit(cache=True)
def deal_rows(cfg, s, rows, orders, choices):  # type: ignore[no-untyped-def]
    order = _places(cfg[C_D], cfg[C_P])[7]
    n = cfg[C_N]
    for k in range(rows.shape[0]):
        r = rows[k]
        s[r, order:order + n] = orders[k]
        _start(cfg, s, r, cfg[C_FIRST] if cfg[C_FIRST] >= 0 else choices[k, 0])


@njit(cache=True)
def _deal_random_row(cfg, s, r):  # type: ignore[no-untyped-def]
    """A uniformly random order (Fisher-Yates) and first seat from the row's generator."""
    order = _places(cfg[C_D], cfg[C_P])[7]
    n = cfg[C_N]
    for i in range(n):
        s[r, order + i] = i
    for i in range(n - 1, 0, -1):
        j = _below(s, r, i + 1)
        s[r, order + i], s[r, order + j] = s[r, order + j], s[r, order + i]
    first = cfg[C_FIRST] if cfg[C_FIRST] >= 0 else _below(s, r, cfg[C_P])
    _start(cfg, s, r, first)


@njit(cache=True)
def deal_random_rows(cfg, s, rows, seed):  # type: ignore[no-untyped-def]
    seed_rows(s, rows, seed)
    for k in range(rows.shape[0]):
        _deal_random_row(cfg, s, rows[k])


# -- legality ----------------------------------------------------------------------------------


@njit(cache=True)
def mask_row(cfg, s, r, out):  # type: ignore[no-untyped-def]
    """Row r's legal actions into `out` (D + 1 int8); returns how many."""
    d = cfg[C_D]
    out[:] = 0
    if s[r, OVER] or s[r, CHANCE] or not s[r, DEALT]:
        return 0
    at = SCALARS + s[r, SEAT] * d
    legal = 0
    if s[r, PENDING]:  # K2: after a reset's draw any card of the hand
        for v in range(d):
            if s[r, at + v]:
                out[v] = 1
                legal += 1
        return legal
    follow = C_TABLES + s[r, TOP]
    for v in range(d):
        if s[r, at + v] and cfg[follow + v * d]:  # K1: may_follow(v, top)
            out[v] = 1
            legal += 1
    out[d] = 1  # K2: a reset, whether or not a play exists
    return legal + 1


@njit(cache=True)
def legal(cfg, s, r, action):  # type: ignore[no-untyped-def]
    d = cfg[C_D]
    if s[r, OVER] or s[r, CHANCE] or not s[r, DEALT] or action < 0 or action > d:
        return False
    if action == d:
        return not s[r, PENDING]
    if not s[r, SCALARS + s[r, SEAT] * d + action]:
        return False
    return bool(s[r, PENDING] or cfg[C_TABLES + s[r, TOP] + action * d])


# -- moves -------------------------------------------------------------------------------------


@njit(cache=True)
def _put(cfg, s, r, v):  # type: ignore[no-untyped-def]
    """The seat to move plays value v (State.put; legality checked before)."""
    d, p = cfg[C_D], cfg[C_P]
    hands, pile, pools, recycled, sizes, plays, resets, order = _places(d, p)
    seat = s[r, SEAT]
    s[r, hands + seat * d + v] -= 1
    s[r, sizes + seat] -= 1
    if s[r, PENDING]:
        s[r, PENDING] = 0
    else:
        s[r, plays + seat] += 1
    s[r, pile + v] += 1
    s[r, TOP] = v
    s[r, COUNT] += 1
    if s[r, sizes + seat] == 0:  # K5
        s[r, WINNER] = seat
        s[r, OVER] = 1
    elif s[r, COUNT] == cfg[C_LIMIT]:  # K8
        s[r, OVER] = 1
        s[r, TRUNCATED] = 1
    else:
        s[r, SEAT] = seat + 1 if seat + 1 < p else 0


@njit(cache=True)
def _take(cfg, s, r, v):  # type: ignore[no-untyped-def]
    """The seat to move takes value v from the recycled draw pile (apply_chance)."""
    d, p = cfg[C_D], cfg[C_P]
    hands, pile, pools, recycled, sizes, plays, resets, order = _places(d, p)
    seat = s[r, SEAT]
    s[r, recycled + v] -= 1
    s[r, DRAW_SIZE] -= 1
    s[r, hands + seat * d + v] += 1
    s[r, sizes + seat] += 1
    s[r, pools + seat * d + v] -= 1
    s[r, CHANCE] = 0
    s[r, PENDING] = 1


@njit(cache=True)
def _reset(cfg, s, r):  # type: ignore[no-untyped-def]
    """The seat to move resets (State.reset, K2): recycle the pile beneath the top when the
    draw pile is empty, then draw, or take a free reset with nothing to draw."""
    d, p = cfg[C_D], cfg[C_P]
    hands, pile, pools, recycled, sizes, plays, resets, order = _places(d, p)
    seat = s[r, SEAT]
    s[r, resets + seat] += 1
    if s[r, DRAW_SIZE] == 0:
        top = s[r, TOP]
        under = 0
        for v in range(d):
            under += s[r, pile + v]
        under -= 1
        if under == 0:  # a free reset
            s[r, PENDING] = 1
            return
        for v in range(d):
            left = s[r, pile + v] - (1 if v == top else 0)
            s[r, recycled + v] = left
            s[r, pile + v] -= left
            for other in range(p):
                s[r, pools + other * d + v] = left
        s[r, DRAW_SIZE] = under
        s[r, RECYCLED] = 1
    if not s[r, RECYCLED]:  # the deal's draw pile, in its order
        v = cfg[C_TABLES + d * d + s[r, order + s[r, POINTER]]]
        s[r, POINTER] += 1
        s[r, DRAW_SIZE] -= 1
        s[r, hands + seat * d + v] += 1
        s[r, sizes + seat] += 1
        s[r, PENDING] = 1
        return
    s[r, CHANCE] = 1
    if cfg[C_EXPLICIT]:
        return  # the caller gives the card (apply_chance)
    pick = _below(s, r, s[r, DRAW_SIZE])
    for v in range(d):
        pick -= s[r, recycled + v]
        if pick < 0:
            s[r, CHANCE_DRAWN] = v
            _take(cfg, s, r, v)
            return


@njit(cache=True)
def play(cfg, s, r, action):  # type: ignore[no-untyped-def]
    """Row r's seat to move takes `action` (checked legal before)."""
    s[r, CHANCE_DRAWN] = -1
    if action == cfg[C_D]:
        _reset(cfg, s, r)
    else:
        _put(cfg, s, r, action)


@njit(cache=True)
def apply_chance(cfg, s, r, v):  # type: ignore[no-untyped-def]
    if not s[r, CHANCE] or v < 0 or v >= cfg[C_D]:
        return False
    if s[r, _places(cfg[C_D], cfg[C_P])[3] + v] == 0:
        return False
    _take(cfg, s, r, v)
    return True


# -- what a seat sees, and the returns --------------------------------------------------------


@njit(cache=True)
def observe_row(cfg, s, r, seat, out):  # type: ignore[no-untyped-def]
    """Seat `seat`'s observation of row r into `out`: the encoding's layout, each count
    divided by its bound as float32 (chuko/games/encodings/chuko.py)."""
    d, p, h = cfg[C_D], cfg[C_P], cfg[C_H]
    hands, pile, pools, recycled, sizes, plays, resets, order = _places(d, p)
    mult = C_TABLES + d * d + cfg[C_N]
    held = np.float32(h + 1)
    recycle = s[r, RECYCLED]
    for v in range(d):
        m = np.float32(cfg[mult + v])
        out[v] = np.float32(s[r, hands + seat * d + v]) / min(m, held)
        out[d + v] = np.float32(s[r, pile + v]) / m
        out[2 * d + v] = 0.0
        out[3 * d + v] = np.float32(s[r, pools + seat * d + v]) / m if recycle else 0.0
    out[2 * d + s[r, TOP]] = 1.0
    turns = np.float32(cfg[C_TURNS])
    mover = -1 if s[r, OVER] or s[r, CHANCE] else s[r, SEAT]
    base = 4 * d
    for k in range(p):
        other = seat + k if seat + k < p else seat + k - p
        out[base + k] = np.float32(s[r, sizes + other]) / held
        out[base + p + k] = 1.0 if other == mover else 0.0
        out[base + 2 * p + k] = np.float32(s[r, plays + other]) / turns
        out[base + 3 * p + k] = np.float32(s[r, resets + other]) / turns
    out[base + 4 * p] = np.float32(s[r, DRAW_SIZE]) / np.float32(cfg[C_DRAWS])
    out[base + 4 * p + 1] = 1.0 if s[r, PENDING] else 0.0


@njit(cache=True)
def rewards_row(cfg, s, r, out):  # type: ignore[no-untyped-def]
    """The returns (envs/common.py) of row r's ended game into `out`: the winner 1, the
    others −1/(P−1); all 0 at the turn limit."""
    p = cfg[C_P]
    winner = s[r, WINNER]
    for seat in range(p):
        if winner < 0:
            out[seat] = 0.0
        elif seat == winner:
            out[seat] = 1.0
        else:
            out[seat] = -1.0 / (p - 1)


# -- whole batches -------------------------------------------------------------------------------


@njit(cache=True)
def to_move_rows(cfg, s, out):  # type: ignore[no-untyped-def]
    for r in range(s.shape[0]):
        out[r] = -1 if s[r, OVER] or s[r, CHANCE] or not s[r, DEALT] else s[r, SEAT]


@njit(cache=True)
def masks_rows(cfg, s, out):  # type: ignore[no-untyped-def]
    for r in range(s.shape[0]):
        mask_row(cfg, s, r, out[r])


@njit(cache=True)
def observe_rows(cfg, s, seats, out):  # type: ignore[no-untyped-def]
    """Each row's observation for its seat; returns -1, or the first row whose seat is
    not one of the game's (then nothing is written)."""
    for r in range(s.shape[0]):
        if seats[r] < 0 or seats[r] >= cfg[C_P]:
            return r
    for r in range(s.shape[0]):
        observe_row(cfg, s, r, seats[r], out[r])
    return -1


@njit(cache=True)
def step_rows(cfg, s, actions, rewards, ended, truncated):  # type: ignore[no-untyped-def]
    """Every live row plays its action; returns -1, or the first row whose action is
    illegal (then no row has changed)."""
    rows = s.shape[0]
    for r in range(rows):
        live = s[r, DEALT] and not s[r, OVER] and not s[r, CHANCE]
        if live and not legal(cfg, s, r, actions[r]):
            return r
    for r in range(rows):
        rewards[r, :] = 0.0
        ended[r] = 0
        truncated[r] = 0
        if not s[r, DEALT] or s[r, OVER] or s[r, CHANCE]:
            continue
        play(cfg, s, r, actions[r])
        if s[r, OVER]:
            ended[r] = 1
            truncated[r] = s[r, TRUNCATED]
            rewards_row(cfg, s, r, rewards[r])
    return -1


@njit(cache=True)
def _random_action(cfg, s, r):  # type: ignore[no-untyped-def]
    """A uniformly random legal action of row r (mask_row's rules, counted, not written)."""
    d = cfg[C_D]
    at = SCALARS + s[r, SEAT] * d
    pending = s[r, PENDING]
    follow = C_TABLES + s[r, TOP]
    plays = 0
    for v in range(d):
        if s[r, at + v] and (pending or cfg[follow + v * d]):
            plays += 1
    pick = _below(s, r, plays if pending else plays + 1)
    if pick == plays:
        return d  # the reset
    for v in range(d):
        if s[r, at + v] and (pending or cfg[follow + v * d]):
            if pick == 0:
                return v
            pick -= 1
    return -1


@njit(cache=True)
def random_steps(cfg, s, observations, steps):  # type: ignore[no-untyped-def]
    """`steps` rounds of one uniformly random legal action in every row, each row's game
    dealt again from its generator as soon as it ends, and after each action the seat to
    move's observation written to its row of `observations`; returns the actions."""
    actions = 0
    for _ in range(steps):
        for r in range(s.shape[0]):
            if not s[r, DEALT] or s[r, OVER]:
                _deal_random_row(cfg, s, r)
            play(cfg, s, r, _random_action(cfg, s, r))
            actions += 1
            if s[r, OVER]:
                _deal_random_row(cfg, s, r)
            observe_row(cfg, s, r, s[r, SEAT], observations[r])
    return actions


@njit(cache=True)
def pattern_row(cfg, s, r):  # type: ignore[no-untyped-def]
    """Row r's legal actions as the bits of one number (action a: bit a); -1 when the
    actions are too many for an int64."""
    d = cfg[C_D]
    if d + 1 > 62:
        return -1
    at = SCALARS + s[r, SEAT] * d
    bits = 0
    if s[r, PENDING]:
        for v in range(d):
            if s[r, at + v]:
                bits |= 1 << v
        return bits
    follow = C_TABLES + s[r, TOP]
    for v in range(d):
        if s[r, at + v] and cfg[follow + v * d]:
            bits |= 1 << v
    return bits | (1 << d)


@njit(cache=True)
def play_one(cfg, s, action, observation):  # type: ignore[no-untyped-def]
    """Row 0 plays `action`: -2 if illegal (nothing changed), -1 once its game has ended,
    else seat + P × (pattern + 1) for the seat to move, whose observation is written, and
    the pattern of its legal actions (`pattern_row`)."""
    if not legal(cfg, s, 0, action):
        return -2
    play(cfg, s, 0, action)
    if s[0, OVER]:
        return -1
    seat = s[0, SEAT]
    observe_row(cfg, s, 0, seat, observation)
    return seat + cfg[C_P] * (pattern_row(cfg, s, 0) + 1)


@njit(cache=True)
def deal_one(cfg, s, seed, observation):  # type: ignore[no-untyped-def]
    """Row 0 dealt from its generator seeded with `seed`; returns seat + P × (pattern + 1)
    for the seat to move, whose observation is written (as `play_one`)."""
    seed_rows(s, np.zeros(1, np.int64), seed)
    _deal_random_row(cfg, s, 0)
    seat = s[0, SEAT]
    observe_row(cfg, s, 0, seat, observation)
    return seat + cfg[C_P] * (pattern_row(cfg, s, 0) + 1)


@njit(cache=True)
def observe_one(cfg, s, seat, observation):  # type: ignore[no-untyped-def]
    """Row 0's observation for `seat`; False (nothing written) for a seat not in the game."""
    if seat < 0 or seat >= cfg[C_P]:
        return False
    observe_row(cfg, s, 0, seat, observation)
    return True
