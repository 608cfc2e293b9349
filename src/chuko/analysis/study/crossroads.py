"""Crossroads' study: the perfect-play value of a deal for its first player (ruling C4: own
points − the opponent's), its distribution, the first player's edge (the mean value) and
how often perfect play ends level.

Sampled with intervals by default; exact over every distinct deal (deals.py) as sharded
work for a backend (backends.py), meant for Ray: all of one pack is a cluster's job.
"""

from __future__ import annotations

import argparse
import math
from random import Random

import numpy as np
from numba import njit

from chuko.analysis import wording
from chuko.analysis.stats import Interval, mean_interval
from chuko.analysis.wording import DEALS
from chuko.core.protocol import Json
from chuko.solvers.kernels import CROSSROADS_MEMO, _cr_future, _gain_table, _pair_tables

from .command import add_game_flags, game_option
from .deals import ALL_DEALS
from .layout import (
    ExactWork,
    Pack,
    add_layout_arguments,
    examples,
    header,
    percent_series,
    run_layout,
    sample,
    share,
    share_text,
)

OFFSET = 20  # values lie within ±10 (five points a side per round), buckets value + 20
SIZE = 2 * OFFSET + 1


@njit(cache=True)
def _values(deals, match, rounds, memo, gen):
    gain = _gain_table(match)
    count = match.shape[0]
    index, low, high = _pair_tables(count)
    new = index[count, count]
    out = np.empty(deals.shape[0], dtype=np.int64)
    classes = np.empty(deals.shape[1], dtype=np.int64)
    for d in range(deals.shape[0]):
        for i in range(deals.shape[1]):
            classes[i] = deals[d, i]
        fresh = 0
        if rounds == 2:  # the second round's value for its first player comes first
            fresh = _cr_future(0, new, new, 1, 0, classes, gain, index, low, high, memo, gen + d)
        out[d] = _cr_future(0, new, new, 1 if rounds == 1 else 0, fresh, classes, gain, index,
                            low, high, memo, gen + d)
    return out


def values(deals: np.ndarray, match: np.ndarray, rounds: int = 1) -> np.ndarray:
    """Each deal's value for its first player (class rows, as deals.Pack gives them)."""
    gen = CROSSROADS_MEMO.draw(len(deals))
    return _values(deals, match, rounds, CROSSROADS_MEMO.array, gen)


def one_round(deals: np.ndarray, match: np.ndarray) -> np.ndarray:
    return values(deals, match, 1)


def two_rounds(deals: np.ndarray, match: np.ndarray) -> np.ndarray:
    return values(deals, match, 2)


MEASURES = {1: one_round, 2: two_rounds}


def exact_work(pack: Pack, rounds: int = 1, shard: tuple[int, int] = (0, 1),
               prefix: tuple[int, ...] = ()) -> ExactWork:
    return ExactWork(f"crossroads value, {rounds} round(s)", pack, MEASURES[rounds], SIZE,
                     OFFSET, shard, prefix)


def sampled(pack: Pack, games: int, seed: int | Random | None, advance, rounds: int = 1) -> Json:
    return sample(pack, MEASURES[rounds], SIZE, OFFSET, games, seed, advance)


def _mean(weights: list[int], total: int, exact: bool) -> Json:
    """The mean value: exact, or with a normal-approximation interval (stats.mean_interval
    over the sample, rebuilt from its counts)."""
    if not total:
        return {"estimate": None, "exact": exact}
    if exact:
        mean = sum((b - OFFSET) * w for b, w in enumerate(weights)) / total
        return {"estimate": mean, "exact": True}
    sample_values = [b - OFFSET for b, w in enumerate(weights) for _ in range(w)]
    return {**mean_interval(sample_values).to_json(), "exact": False}


def _edge_finding(edge: Json, total: int, exact: bool, rounds: int) -> list[str]:
    """The first player's edge in words: exact, or by its interval (wording.versus), so a
    sample whose interval includes 0 finds no edge *detected*, never no edge."""
    if edge["estimate"] is None:
        return []
    per = "match" if rounds == 2 else "round"
    if exact and edge["estimate"] == 0:
        return [f"Perfect play gives neither player an edge: the mean value over all "
                f"{total:,} deals is 0 exactly."]
    mean, low, high = edge["estimate"], edge.get("low"), edge.get("high")
    interval = Interval(mean, mean if low is None else low, mean if high is None else high)
    return [wording.versus(interval, 0.0, total, exact=exact, noun=DEALS,
                           subject="the first player's edge under perfect play",
                           effect="edge", unit=f" points per {per}")]


def study(pack: Pack, result: Json, *, exact: bool, seed: int | None, selection: Json,
          rounds: int = 1) -> Json:
    total = result["done"]
    weights = result["weights"]
    match = f"{rounds}-round match" if rounds == 2 else "one round"
    if exact and selection["complete"]:
        method = (f"exact: every one of the {sum(result['distinct']):,} distinct deals solved "
                  f"({match}), weighted to the {ALL_DEALS:,} deals")
    elif exact:
        method = (f"exact over a part of the deals ({selection['text']}, {match}): "
                  f"{sum(result['distinct']):,} distinct deals")
    else:
        method = (f"{total:,} shuffled deals ({match}, seed {seed}), each solved exactly; "
                  "95% intervals (Wilson for shares, normal for the mean)")
    first = sum(w for b, w in enumerate(weights) if b > OFFSET)
    second = sum(w for b, w in enumerate(weights) if b < OFFSET)
    draws = weights[OFFSET]
    shown = [b for b, w in enumerate(weights) if w]
    low, high = (min(shown), max(shown)) if shown else (OFFSET, OFFSET)
    spread = range(low, high + 1)
    distribution = [{"value": b - OFFSET, "deals": weights[b], "distinct": result["distinct"][b],
                     "share": share(weights[b], total, exact),
                     "examples": examples(pack, result, b)} for b in spread]
    edge = _mean(weights, total, exact)
    data = {**header(pack, method, result, exact, seed, selection), "rounds": rounds,
            "first_wins": share(first, total, exact), "second_wins": share(second, total, exact),
            "draws": share(draws, total, exact), "edge": edge, "distribution": distribution}
    edge_text = ("—" if edge["estimate"] is None else f"{edge['estimate']:+.3f}" + (
        " (exact)" if exact else f" [{edge['low']:+.3f}, {edge['high']:+.3f}]"))
    summary = [["First player wins", f"{first:,}", share_text(data["first_wins"])],
               ["Level (a draw)", f"{draws:,}", share_text(data["draws"])],
               ["Second player wins", f"{second:,}", share_text(data["second_wins"])],
               ["First player's edge (mean value)", "", edge_text]]
    rows = [[f"{d['value']:+d}", f"{d['deals']:,}", share_text(d["share"]),
             "; ".join(d["examples"][:1]) or "—"] for d in distribution]
    finding = _edge_finding(edge, total, exact and selection["complete"], rounds)
    return {
        "game": "crossroads", "title": f"Crossroads, pack {data['pack_name']}, {match}",
        "method": method, "findings": wording.check(finding, exact=exact), "data": data,
        "tables": [
            {"title": "Perfect play: who wins", "columns": ["Result", "Deals", "Share"],
             "rows": summary},
            {"title": "The first player's perfect-play value (own points − opponent's)",
             "columns": ["Value", "Deals", "Share", "Example"], "rows": rows},
        ],
        "plots": [{
            "title": "Distribution of the perfect-play value", "kind": "bar",
            "x": [f"{d['value']:+d}" for d in distribution],
            "xlabel": "value for the first player", "ylabel": "deals (%)", "note": method,
            "series": [percent_series("deals", [d["share"] for d in distribution])],
        }],
    }


def cluster_time(deals_per_second_per_core: float, cores: int) -> float:
    """Seconds to solve every distinct deal of a pack of twelve classes on `cores` cores."""
    return math.ceil(ALL_DEALS / deals_per_second_per_core / cores)


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_layout_arguments(parser, game_id, 2_000)
    add_game_flags(parser, game_id, "rounds")


def run_study(args: argparse.Namespace) -> Json:
    rounds = game_option(args, "crossroads", "rounds")
    return run_layout(args, "crossroads", exact_work, sampled, study, figures, rounds=rounds)


def figures(found: Json) -> tuple[list[Json], list[Json]]:
    """The intervals --until narrows: who wins and each value's share (rates), the edge
    (a mean, in points)."""
    data = found["data"]
    shares = [data["first_wins"], data["second_wins"], data["draws"],
              *(d["share"] for d in data["distribution"])]
    return shares, [data["edge"]]
