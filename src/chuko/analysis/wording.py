"""How the lab words what it found: never beyond what was measured.

Every sentence a study, a design search or the arena reports about a figure comes from
here, so that one set of rules holds everywhere:

- Only an exact finding (every case counted) may say "every deal" or "no deal". When all
  n sampled cases did something, the plain fact is "every one of the n sampled deals",
  and what it shows about all deals is the exact (Clopper–Pearson) one-sided 95% lower
  bound: "at least 99.85% of all deals" from 2,000 (`every`).
- A sampled difference is compared with its null value (0, or a fair share) through its
  95% interval: when the interval includes the null, the finding is "no … detected at
  this sample size", with the interval and the sample size; never "no edge" (`versus`).
- Every sampled rate and difference is told with its interval and sample size (`rate`,
  `figure_text`, `score_cell`).

`check` refuses a sampled finding worded as if it were exact; every study passes its
findings through it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chuko.core.protocol import Json

from .stats import Interval, mean_interval, proportion_interval

CONFIDENCE = 0.95

# Words only an exact count may use: a sample never shows "every deal", "no edge", "always".
_OVERSTATED = re.compile(
    r"\b(?:every|each and every)\s+(?:deal|game|round|player|seat|pack|hand)\b"
    r"|\bno\s+(?:edge|advantage|difference|deal|game)\b(?![^.:;]*\bdetected\b)"
    r"|\b(?:always|never|all\s+deals)\b", re.IGNORECASE)


class Overstated(ValueError):
    """A sampled finding worded as if every case had been counted (a bug of the study that
    wrote it, not of the user's input)."""


def check(findings: Iterable[str], *, exact: bool) -> list[str]:
    """`findings` as they are, if their wording fits how they were found; a sampled finding
    that says "every deal", "no edge" (not "not detected"), "always" or "never" is refused."""
    found = list(findings)
    if not exact:
        for text in found:
            if (hit := _OVERSTATED.search(text)) is not None:
                raise Overstated(f"A sampled finding says {hit.group(0)!r}, which only an "
                                 f"exact count may say: {text!r}")
    return found


# -- exact bounds for a proportion ---------------------------------------------------------

def _tail_at_least(successes: int, n: int, p: float) -> float:
    """P(X >= successes) for X ~ Binomial(n, p), summed over the shorter side."""
    if successes <= 0:
        return 1.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0

    def term(k: int) -> float:
        return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                        + k * math.log(p) + (n - k) * math.log1p(-p))

    if n - successes < successes:
        return min(1.0, sum(term(k) for k in range(successes, n + 1)))
    return max(0.0, 1.0 - sum(term(k) for k in range(successes)))


def at_least(successes: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The exact (Clopper–Pearson) one-sided lower bound of a proportion from `successes`
    of `n`: the least p under which so many successes are not too rare. For all n, it is
    (1 − confidence)^(1/n): 99.85% from 2,000 of 2,000 at 95% (about 1 − 3/n)."""
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials is not a proportion.")
    alpha = 1 - confidence
    if successes == 0:
        return 0.0
    if successes == n:
        return alpha ** (1 / n)
    low, high = 0.0, successes / n
    for _ in range(60):  # bisection to well below a millionth
        middle = (low + high) / 2
        if _tail_at_least(successes, n, middle) < alpha:
            low = middle
        else:
            high = middle
    return low


def at_most(successes: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper bound of a proportion (the mirror of `at_least`)."""
    return 1 - at_least(n - successes, n, confidence)


# -- sentences -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Noun:
    """What was counted, as a sentence names one and many: Noun("deal", "deals")."""

    one: str
    many: str


DEALS = Noun("deal", "deals")
GAMES = Noun("game", "games")
ROUNDS = Noun("round", "rounds")


def _percent(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}%}"


def every(count: int, n: int, *, exact: bool, noun: Noun, predicate: str) -> str:
    """A finding about how many of `n` cases `predicate` ("can be won with 2 bridges"):
    "Every deal …" only when exact; "Every one of the 2,000 sampled deals …, so at least
    99.85% of all deals …" from a sample; "k of n …" with the share otherwise."""
    if n < 1:
        return f"No {noun.many} were counted."
    if exact:
        if count == n:
            return f"Every {noun.one} {predicate}."
        if count == 0:
            return f"No {noun.one} {predicate}."
        return f"{count:,} of {n:,} {noun.many} {predicate} ({_percent(count / n, 4)}, exact)."
    if count == n:
        return (f"Every one of the {n:,} sampled {noun.many} {predicate}, so at least "
                f"{_percent(at_least(count, n))} of {noun.many} {predicate} (exact one-sided "
                f"{CONFIDENCE:.0%} bound).")
    if count == 0:
        return (f"None of the {n:,} sampled {noun.many} {predicate}, so at most "
                f"{_percent(at_most(count, n))} of {noun.many} {predicate} (exact one-sided "
                f"{CONFIDENCE:.0%} bound).")
    share = proportion_interval(count, n)
    return (f"{count:,} of {n:,} sampled {noun.many} {predicate}: "
            f"{share_words(share)} of {noun.many}.")


def share_words(share: Interval, digits: int = 2) -> str:
    """'1.20% [0.80%, 1.70%]'."""
    return (f"{_percent(share.estimate, digits)} [{_percent(share.low, digits)}, "
            f"{_percent(share.high, digits)}]")


def includes(interval: Interval | Json, value: float) -> bool:
    """Whether the interval (an Interval or its JSON) holds `value`."""
    low, high = ((interval.low, interval.high) if isinstance(interval, Interval)
                 else (interval["low"], interval["high"]))
    return low is None or high is None or low <= value <= high


def versus(interval: Interval, null: float, n: int, *, exact: bool, noun: Noun, subject: str,
           effect: str, unit: str = "", percent: bool = False, digits: int = 3) -> str:
    """A figure against its null value (0 for a difference, the fair share for a rate):
    `subject` ("the first player's edge under perfect play") is told with its interval and
    sample size; a sampled interval that includes the null says `effect` ("edge") was not
    detected at this sample size, never that there is none."""
    shown = (share_words(interval, 1) if percent else
             f"{interval.estimate:+.{digits}f} [{interval.low:+.{digits}f}, "
             f"{interval.high:+.{digits}f}]")
    null_text = f"a fair {_percent(null, 0)}" if percent else f"{null:g}"
    if exact:
        value = _percent(interval.estimate, 1) if percent else f"{interval.estimate:+.{digits}f}"
        return f"{_capital(subject)} is {value}{unit} exactly, over all {n:,} {noun.many}."
    measured = f"{subject} is {shown}{unit} over {n:,} sampled {noun.many}"
    if includes(interval, null):
        return (f"No {effect} detected at this sample size: {measured}, an interval that "
                f"includes {null_text}.")
    return f"{_capital(measured)}, an interval that excludes {null_text}."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def rate(successes: int, n: int, digits: int = 1) -> str:
    """A sampled rate with its interval and sample size: '54.0% [50.9%, 57.1%] of 1,000'."""
    if n < 1:
        return "—"
    return f"{share_words(proportion_interval(successes, n), digits)} of {n:,}"


def figure_text(figure: Json | None, *, percent: bool = True, digits: int = 1) -> str:
    """A figure's JSON ({"estimate", "low", "high"}, with "n" where known) as text with its
    interval: '54.0% [50.9%, 57.1%]', or '12.77 [12.56, 12.97]'; '—' for none."""
    if not figure or figure.get("estimate") is None:
        return "—"
    if percent:
        text = f"{figure['estimate']:.{digits}%}"
        if figure.get("low") is not None:
            text += f" [{figure['low']:.{digits}%}, {figure['high']:.{digits}%}]"
    else:
        text = f"{figure['estimate']:.{digits}f}"
        if figure.get("low") is not None:
            text += f" [{figure['low']:.{digits}f}, {figure['high']:.{digits}f}]"
    return text + (f" (n={figure['n']:,})" if figure.get("n") is not None else "")


def score_cell(results: Sequence[float]) -> Json:
    """A pairing's score from one side (1 a win, ½ a draw, 0 a loss per game), as the arena
    matrix's cell: the mean with its 95% interval, the games and the draws."""
    games = len(results)
    draws = sum(1 for r in results if r == 0.5)
    if not games:
        return {"estimate": None, "low": None, "high": None, "games": 0, "draws": 0,
                "text": "—"}
    found = mean_interval(results) if games > 1 else Interval(results[0], 0.0, 1.0)
    low, high = max(0.0, found.low), min(1.0, found.high)
    drawn = f", {draws:,} drawn" if draws else ""
    return {"estimate": found.estimate, "low": low, "high": high, "games": games,
            "draws": draws,
            "text": f"{found.estimate:.0%} [{low:.0%}, {high:.0%}] ({games:,} games{drawn})"}


# -- interval widths, for sampling until they are narrow enough ----------------------------

@dataclass(frozen=True)
class Width:
    """How narrow `--until` wants the intervals: rates in percentage points (given as
    '2%'), means in their own unit (given as a bare number); None leaves a kind free."""

    rate: float | None = None
    mean: float | None = None

    def text(self) -> str:
        points = "percentage point" if self.rate == 1 else "percentage points"
        parts = ([f"every rate's interval was at most {self.rate:g} {points} wide"]
                 if self.rate else []) + (
            [f"every mean's interval was at most {self.mean:g} wide"] if self.mean else [])
        return " and ".join(parts)

    def wide(self, rates: Iterable[Json | None], means: Iterable[Json | None]) -> float:
        """How far the widest interval is from narrow enough, as a factor (≤ 1: done): the
        sample to add grows with its square."""
        worst = 0.0
        for figures, bound, scale in ((rates, self.rate, 100.0), (means, self.mean, 1.0)):
            if bound is None:
                continue
            for figure in figures:
                if figure and figure.get("low") is not None and figure.get("high") is not None:
                    worst = max(worst, scale * (figure["high"] - figure["low"]) / bound)
                elif figure and figure.get("estimate") is not None:
                    worst = max(worst, math.inf)  # one value: no interval yet
        return worst


def parse_width(texts: Sequence[str]) -> Width:
    """`--until 2%` bounds the rates, `--until 0.05` the means; both may be given. ValueError
    (for argparse's message) when a width is not a positive number."""
    rate_bound = mean_bound = None
    for text in texts:
        word = text.strip()
        is_rate = word.endswith("%")
        try:
            value = float(word.rstrip("%"))
        except ValueError:
            value = math.nan
        if not (value > 0 and math.isfinite(value)):
            raise ValueError(f"--until takes a positive width such as 2% (rates, in "
                             f"percentage points) or 0.05 (means), not {text!r}")
        if is_rate:
            rate_bound = value
        else:
            mean_bound = value
    return Width(rate_bound, mean_bound)
