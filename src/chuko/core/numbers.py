"""Chükö cards are positive integers that match when they share a prime factor (ruling G1)."""

from functools import lru_cache
from math import gcd

# Cards are kept to numbers whose factors are found at once, so no typed card can stall
# a game, a solver or a screen.
MAX_CARD = 1_000_000


@lru_cache(maxsize=4096)  # cards go to a million: keep the recent ones only
def prime_factors(n: int) -> tuple[int, ...]:
    """The distinct prime factors of n, ascending; () for 1."""
    if n < 1:
        raise ValueError(f"{n} is not a positive integer")
    factors = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            factors.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return tuple(factors)


def matches(a: int, b: int) -> bool:
    """True when a and b share a prime factor (ruling G1): 1 matches nothing."""
    return gcd(a, b) > 1


def factor_text(n: int) -> str:
    """Prime factors as a player reads them: '2·3·5', or '—' for 1."""
    return "·".join(map(str, prime_factors(n))) or "—"


def whole_number(text: str) -> int | None:
    """The number `text` spells in ASCII digits ('12'), or None: str.isdigit alone also
    accepts digits such as '²' that int() refuses."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None
