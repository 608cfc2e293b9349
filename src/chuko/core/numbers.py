"""Chükö cards are positive integers that match when they share a prime factor (ruling G1)."""

from functools import lru_cache
from math import gcd

from .text import Text

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


def factor_words(n: int) -> Text:
    """How a learner reads n's prime factors: '22 is 2 × 11', '12 is 2 × 2 × 3', '13 is
    prime', '1 has no prime factor'. The one wording lessons use for factorisations."""
    if n == 1:
        return Text("1 has no prime factor")
    product, rest = [], n
    for p in prime_factors(n):
        while rest % p == 0:
            product.append(str(p))
            rest //= p
    if len(product) == 1:
        return Text("{n} is prime", n=n)
    return Text("{n} is {product}", n=n, product=" × ".join(product))


def pair_words(a: int, b: int) -> Text:
    """Whether a and b match, with both factorisations: '22 and 15 share no prime factor:
    22 is 2 × 11, 15 is 3 × 5', or '22 and 14 share the prime factor 2: ...'."""
    shared = sorted(set(prime_factors(a)) & set(prime_factors(b)))
    said = {"a": a, "b": b, "a_factors": factor_words(a), "b_factors": factor_words(b)}
    if not shared:
        return Text("{a} and {b} share no prime factor: {a_factors}, {b_factors}", **said)
    if len(shared) == 1:
        return Text("{a} and {b} share the prime factor {factor}: {a_factors}, {b_factors}",
                    factor=shared[0], **said)
    factors: str = str(shared[0])
    for factor in shared[1:]:  # "2 and 3 and 5": each pair a sentence of its own
        factors = Text("{first} and {last}", first=factors, last=factor)
    return Text("{a} and {b} share the prime factors {factors}: {a_factors}, {b_factors}",
                factors=factors, **said)
