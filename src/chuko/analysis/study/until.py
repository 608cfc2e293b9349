"""`--until WIDTH`: keep sampling, in batches, until every interval a study reports is at
most WIDTH wide (rates in percentage points, written 2%; means in their own unit, 0.05),
or until a cap, which the study then says it hit.

Each study names the figures it reports (`Figures`: its rates and its means, as JSON with
"low" and "high"). After each batch the widest interval is compared with the width; the
next batch is what the shrinking of an interval as 1/√n predicts is still needed (a
little more, at most sixteen times what was done so far), so a study rarely needs more
than two or three batches.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from chuko.analysis.wording import Width, parse_width
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json

from .command import positive

# A study's figures that --until narrows: (rates, means), each as JSON with its interval.
Figures = Callable[[Json], tuple[Iterable[Json | None], Iterable[Json | None]]]

MAX_GROWTH = 16  # a batch adds at most this many times what was sampled so far


@dataclass(frozen=True)
class Until:
    """How narrow the intervals should be, and the most to sample (`cap`) for it."""

    width: Width
    cap: int

    def more(self, done: int, factor: float) -> int:
        """How many to sample next, after `done`, when the widest interval is `factor`
        times too wide (≤ 1: none)."""
        if factor <= 1 or done >= self.cap:
            return 0
        grow = MAX_GROWTH if not math.isfinite(factor) else min(MAX_GROWTH, factor * factor)
        return max(1, min(self.cap, math.ceil(done * grow * 1.05)) - done)

    def said(self, study: Json, figures: Figures, done: int, what: str) -> Json:
        """`study` with how --until went in its method, and a first finding when the cap
        stopped it before the intervals were narrow enough."""
        factor = self.width.wide(*figures(study))
        study["method"] += f"; sampled until {self.width.text()}"
        study.setdefault("data", {})["until"] = {
            "rate": self.width.rate, "mean": self.width.mean, "cap": self.cap,
            "reached": factor <= 1, "sampled": done}
        if factor > 1:
            study["method"] += f", stopped at the cap of {self.cap:,} {what}"
            study["findings"].insert(0, (
                f"The sample stopped at the cap of {self.cap:,} {what} before "
                f"{self.width.text()}: the widest is {factor:.1f} times that; --cap N "
                "allows more."))
        return study


def add_arguments(parser: argparse.ArgumentParser, what: str, cap: int) -> None:
    """--until and --cap, for a study that samples `what` (deals, games, rounds)."""
    parser.add_argument("--until", action="append", metavar="WIDTH",
                        help="keep sampling until every interval is at most WIDTH wide: 2%% "
                             "for rates (percentage points), 0.05 for means (their unit); "
                             "both may be given")
    parser.add_argument("--cap", type=positive, metavar="N",
                        help=f"with --until, the most {what} to sample (default {cap:,})")
    parser.set_defaults(until_cap=cap)


def read(args: argparse.Namespace) -> Until | None:
    """The --until the command line asks for, or None; ConfigError in one sentence."""
    if not getattr(args, "until", None):
        if getattr(args, "cap", None):
            raise ConfigError("--cap goes with --until.")
        return None
    try:
        width = parse_width(args.until)
    except ValueError as error:
        raise ConfigError(f"{error}.") from None
    return Until(width, args.cap or args.until_cap)


def sample_until(until: Until, first: int, figures: Figures, what: str,
                 grow: Callable[[int], Json]) -> Json:
    """Sample `first`, then more while the intervals are too wide and the cap allows:
    `grow(n)` samples n more and returns the study of everything sampled so far."""
    done = min(first, until.cap)
    study = grow(done)
    while step := until.more(done, until.width.wide(*figures(study))):
        done += step
        study = grow(step)
    return until.said(study, figures, done, what)
