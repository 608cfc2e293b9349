"""The daily Caravan: one `standard` deal a day, the same for everyone, with its par.

A day's deal comes from the date alone. The day's number (its ordinal) picks a block of
candidate indices, a fixed keyed permutation of every arrangement of the pack maps each
index to a distinct arrangement, and the day takes the block's first deal that is in its
standard form (rows in the order of their first cards: rows are interchangeable, so each
deal has six arrangements and one standard form) and whose par (the least bridge limit
under which the exact solver wins it) is 0 or 1. Blocks never overlap and the permutation
is one to one, so no deal comes back on any other day, within a year or ever.
"""

from __future__ import annotations

import datetime
import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from math import factorial
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.layout import COLUMNS, SIZE, LayoutMove, layout_text
from chuko.core.text import Text
from chuko.core.words import count
from chuko.games.caravan import BRIDGE_LEVELS, Caravan, CaravanState
from chuko.solvers.caravan import CaravanSolver

GAME = Caravan()  # the `standard` game: its pack and its bridge limit
LIMIT = BRIDGE_LEVELS["standard"]
PARS = (0, 1)  # the interesting pars: a deal won only with the limit's last bridge is not
SEED = b"chuko daily caravan"
ARRANGEMENTS = factorial(SIZE)
BITS = (ARRANGEMENTS - 1).bit_length()  # 29: the permutation's domain, cycle-walked
# Candidates a day may try: one in six is in standard form and nearly every deal has par 0
# or 1; the last day's block still ends below 12!.
BLOCK = 128
ROUNDS = 6
# The archive's first day. Days are asked between it and today only, so the solver works
# out each day once while the caches below hold them all (about three years).
FIRST_DAY = datetime.date(2026, 1, 1)
CACHED_DAYS = 1024


@dataclass(frozen=True)
class Daily:
    """A day's deal: the date, the layout (row by row) and its par."""

    day: datetime.date
    layout: tuple[int, ...]
    par: int

    @property
    def deal(self) -> str:
        return layout_text(self.layout)

    def game(self) -> Caravan:
        return Caravan(deal=self.layout, bridges=LIMIT)

    def start(self) -> CaravanState:
        return self.game().new()


def _round(half: int, key: int, width: int) -> int:
    digest = hashlib.blake2b(f"{key}:{half}".encode(), key=SEED, digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << width) - 1)


def _feistel(value: int) -> int:
    """A fixed one-to-one map of [0, 2**BITS) onto itself (an unbalanced Feistel network)."""
    low_bits = BITS // 2
    high_bits = BITS - low_bits
    left, right = value >> low_bits, value & ((1 << low_bits) - 1)
    for key in range(ROUNDS):
        # Alternate which half is mixed so both widths stay what they are.
        if key % 2 == 0:
            left ^= _round(right, key, high_bits)
        else:
            right ^= _round(left, key, low_bits)
    return (left << low_bits) | right


def permuted(index: int) -> int:
    """A fixed one-to-one map of [0, 12!) onto itself: the Feistel map, cycle-walked."""
    value = _feistel(index)
    while value >= ARRANGEMENTS:
        value = _feistel(value)
    return value


def arrangement(index: int) -> tuple[int, ...]:
    """The pack's `index`-th arrangement (0 ≤ index < 12!), by its factorial digits."""
    cards = list(GAME.pack)
    order = []
    for place in range(SIZE, 0, -1):
        digit, index = divmod(index, factorial(place - 1))
        order.append(cards.pop(digit))
    return GAME.layout_from_order(order)


def standard_form(layout: tuple[int, ...]) -> bool:
    """Whether the deal's rows are in the order of their first cards: one of the six
    arrangements of a deal that differ only in the order of the rows, which play alike."""
    return layout[0] < layout[COLUMNS] < layout[2 * COLUMNS]


def par_of(layout: tuple[int, ...]) -> int | None:
    """The least bridge limit (0 up to the standard limit) under which the deal can be won;
    None when even the standard limit cannot win it."""
    for limit in range(LIMIT + 1):
        if CaravanSolver(layout, limit).fresh():
            return limit
    return None


def read_day(text: str) -> datetime.date:
    """A date written YYYY-MM-DD; ConfigError in one sentence otherwise."""
    try:
        return datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ConfigError(Text("{text} is not a date written YYYY-MM-DD.",
                               text=repr(text))) from None


def day_of(moment: float) -> datetime.date:
    """The UTC date at `moment` (seconds since the epoch)."""
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).date()


def today() -> datetime.date:
    """The day everyone shares: the date in UTC."""
    return day_of(time.time())


def playable(day: datetime.date, latest: datetime.date | None = None) -> datetime.date:
    """`day` if its deal is out (from FIRST_DAY to `latest`, today by default); ConfigError
    for a day still to come or before the first."""
    if day > (today() if latest is None else latest):
        raise ConfigError(Text("The daily Caravan of {day} is not out yet.", day=day.isoformat()))
    if day < FIRST_DAY:
        raise ConfigError(Text("The daily Caravan starts on {day}.", day=FIRST_DAY.isoformat()))
    return day


@lru_cache(maxsize=CACHED_DAYS)
def deal_for(day: datetime.date) -> Daily:
    """The day's deal and par: the first deal of the day's block whose par is 0 or 1."""
    first = day.toordinal() * BLOCK
    for index in range(first, first + BLOCK):
        layout = arrangement(permuted(index))
        if not standard_form(layout):
            continue
        par = par_of(layout)
        if par in PARS:
            assert par is not None
            return Daily(day, layout, par)
    # about 1 in 10**10
    raise ConfigError(Text("No deal of {day} has par 0 or 1.", day=day.isoformat()))


def played(day: datetime.date, moves: Any) -> CaravanState:
    """The day's game after `moves` (in notation, e.g. ["A", "EL", "FR*"]), each judged by
    the engine: its sentence (IllegalMove, ParseError) for a move it refuses."""
    if (not isinstance(moves, list) or len(moves) > SIZE
            or not all(isinstance(move, str) for move in moves)):
        raise ConfigError(Text("The moves are a list of at most {most}, such as \"A\" or \"BR\".",
                               most=SIZE))
    state = deal_for(day).start()
    for move in moves:
        if state.outcome is not None:
            raise ConfigError(Text("The game is over: no move comes after its last."))
        state.play(0, move)
    return state


@dataclass(frozen=True)
class Facts:
    """What the solver knows about a day's deal: how many of the legal first moves keep a
    win with the par's bridges possible, and a winning line that uses only the par's
    bridges."""

    winning_starts: int
    starts: int
    line: tuple[LayoutMove, ...]


@lru_cache(maxsize=CACHED_DAYS)
def facts_for(day: datetime.date) -> Facts:
    daily = deal_for(day)
    start = daily.start()
    solver = CaravanSolver(daily.layout, daily.par)
    options = solver.options(start)
    line = solver.solution(start)
    assert line is not None  # the par's limit wins by definition
    return Facts(sum(options.values()), len(options), tuple(line))


def share_line(day: datetime.date, won: bool, bridges: int, par: int,
               seconds: int | None) -> str:
    """The line a player shares, with nothing personal in it:
    "chuko daily Caravan 2026-12-02: won with 1 bridge (par 1) in 3:12" (no time where
    `seconds` is None)."""
    said: dict[str, Any] = {"day": day.isoformat(), "par": par}
    if seconds is not None:
        minutes, rest = divmod(max(0, int(seconds)), 60)
        said["time"] = f"{minutes}:{rest:02d}"
    if not won:
        return (Text("chuko daily Caravan {day}: not won (par {par})", **said) if seconds is None
                else Text("chuko daily Caravan {day}: not won (par {par}) in {time}", **said))
    said["bridges"] = count(bridges, "bridge")
    if seconds is None:
        return Text("chuko daily Caravan {day}: won with {bridges} (par {par})", **said)
    return Text("chuko daily Caravan {day}: won with {bridges} (par {par}) in {time}", **said)
