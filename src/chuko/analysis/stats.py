"""Confidence intervals for the figures the studies report (win rates, mean scores).

`proportion_interval` is the Wilson score interval: unlike the plain normal
approximation it stays inside [0, 1] and behaves for rates near 0 or 1 and for
small counts. `mean_interval` uses the normal approximation with the sample
standard deviation, fine for the hundreds of games a study plays.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import NormalDist, fmean, stdev


@dataclass(frozen=True)
class Interval:
    """An estimate with the low and high ends of its confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float = 0.95

    def __str__(self) -> str:
        return f"{self.estimate:.3f} [{self.low:.3f}, {self.high:.3f}]"

    def percent(self) -> str:
        """As percentages: '61.2% [57.0%, 65.3%]'."""
        return f"{self.estimate:.1%} [{self.low:.1%}, {self.high:.1%}]"

    def to_json(self) -> dict[str, float | None]:
        """JSON has no NaN or infinity: an undefined figure (no trials, one value) is null."""
        return {name: value if math.isfinite(value) else None
                for name, value in (("estimate", self.estimate), ("low", self.low),
                                    ("high", self.high))}


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"A confidence level lies strictly between 0 and 1, not {confidence}.")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def proportion_interval(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for `successes` out of `n` trials."""
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials is not a proportion.")
    if n == 0:
        return Interval(math.nan, 0.0, 1.0, confidence)
    z = _z(confidence)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The interval holds p exactly; min/max only absorb rounding at p = 0 or 1.
    low, high = max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
    return Interval(p, low, high, confidence)


def mean_interval(values: Iterable[float], confidence: float = 0.95) -> Interval:
    """Mean of `values` with a normal-approximation interval (mean ± z·s/√n)."""
    data = list(values)
    if not data:
        raise ValueError("The mean of no values is undefined.")
    mean = fmean(data)
    if len(data) == 1:
        return Interval(mean, -math.inf, math.inf, confidence)
    half = _z(confidence) * stdev(data) / math.sqrt(len(data))
    return Interval(mean, mean - half, mean + half, confidence)
