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


def factor_words(n: int) -> str:
    """How a learner reads n's prime factors: '22 is 2 × 11', '12 is 2 × 2 × 3', '13 is
    prime', '1 has no prime factor'. The one wording lessons use for factorisations."""
    if n == 1:
        return "1 has no prime factor"
    product, rest = [], n
    for p in prime_factors(n):
        while rest % p == 0:
            product.append(str(p))
            rest //= p
    return f"{n} is prime" if len(product) == 1 else f"{n} is {' × '.join(product)}"


def pair_words(a: int, b: int) -> str:
    """Whether a and b match, with both factorisations: '22 and 15 share no prime factor:
    22 is 2 × 11, 15 is 3 × 5', or '22 and 14 share the prime factor 2: ...'."""
    shared = sorted(set(prime_factors(a)) & set(prime_factors(b)))
    if not shared:
        said = "share no prime factor"
    elif len(shared) == 1:
        said = f"share the prime factor {shared[0]}"
    else:
        said = f"share the prime factors {' and '.join(map(str, shared))}"
    return f"{a} and {b} {said}: {factor_words(a)}, {factor_words(b)}"
