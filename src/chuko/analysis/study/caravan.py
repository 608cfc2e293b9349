"""Caravan's study: which share of deals can be won under each bridge limit 0–3, from
each deal's least bridge limit (the fewest bridges with which it can be won).

A deal is searched with limit 0, then 1, and so on, under one memo generation of the
compiled search (solvers/kernels.py): the memo says with how many spare bridges a position
is lost, which stays true under a higher limit, so each search starts from what the
previous ones learnt.
"""

from __future__ import annotations

import argparse
from random import Random

import numpy as np
from numba import njit

from chuko.analysis import wording
from chuko.analysis.wording import DEALS
from chuko.core.protocol import Json
from chuko.games.caravan import BRIDGE_LEVELS, MAX_BRIDGES
from chuko.solvers.kernels import CARAVAN_MEMO, _cv_win, _fits_table, _match_bits

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

NEVER = MAX_BRIDGES + 1  # the least limit of a deal that no limit lets you win
SIZE = NEVER + 1
LIMITS = range(4)  # the limits the study reports: the rule's three levels and none
LEVEL_NAMES = {limit: name for name, limit in BRIDGE_LEVELS.items()}
PART = wording.Noun("deal of the part solved", "deals of the part solved")


@njit(cache=True)
def _least(deals, match, memo, gen):
    fits = _fits_table(match)
    bits = _match_bits(match)
    empty = match.shape[0] + 1
    out = np.empty(deals.shape[0], dtype=np.int64)
    classes = np.empty(deals.shape[1], dtype=np.int64)
    for d in range(deals.shape[0]):
        for i in range(deals.shape[1]):
            classes[i] = deals[d, i]
        out[d] = NEVER
        for limit in range(NEVER):
            if _cv_win(0, empty, empty, limit, classes, fits, bits, memo, gen + d):
                out[d] = limit
                break
    return out


def least_limits(deals: np.ndarray, match: np.ndarray) -> np.ndarray:
    """Each deal's least bridge limit (NEVER when none wins); `deals` are class rows of
    the classes `match` relates (deals.Pack)."""
    gen = CARAVAN_MEMO.draw(len(deals))
    return _least(deals, match, CARAVAN_MEMO.array, gen)


def exact_work(pack: Pack, shard: tuple[int, int] = (0, 1),
               prefix: tuple[int, ...] = ()) -> ExactWork:
    return ExactWork("caravan least bridge limit", pack, least_limits, SIZE, 0, shard, prefix)


def sampled(pack: Pack, games: int, seed: int | Random | None, advance) -> Json:
    return sample(pack, least_limits, SIZE, 0, games, seed, advance)


def _limit_name(limit: int) -> str:
    level = LEVEL_NAMES.get(limit)
    return f"{limit} ({level})" if level else str(limit)


def study(pack: Pack, result: Json, *, exact: bool, seed: int | None,
          selection: Json) -> Json:
    """The study's JSON: figures, tables and plots from a tally of least limits."""
    total = result["done"]
    weights = result["weights"]
    if exact and selection["complete"]:
        method = (f"exact: every one of the {sum(result['distinct']):,} distinct deals of the "
                  f"pack solved (rows are interchangeable, cards with the same prime factors "
                  f"alike), weighted to the {ALL_DEALS:,} deals")
    elif exact:
        method = (f"exact over a part of the deals ({selection['text']}): "
                  f"{sum(result['distinct']):,} distinct deals")
    else:
        method = f"{total:,} shuffled deals (seed {seed}), 95% Wilson intervals"
    least = [{"limit": None if b == NEVER else b, "deals": weights[b],
              "distinct": result["distinct"][b], "share": share(weights[b], total, exact),
              "examples": examples(pack, result, b)}
             for b in range(SIZE) if weights[b] or b in LIMITS]
    winnable = [{"limit": b, "deals": sum(weights[: b + 1]),
                 "share": share(sum(weights[: b + 1]), total, exact)} for b in LIMITS]
    data = {**header(pack, method, result, exact, seed, selection), "least": least,
            "winnable": winnable}
    rows = [[_limit_name(w["limit"]), f"{w['deals']:,}", share_text(w["share"])]
            for w in winnable]
    least_rows = [["never" if e["limit"] is None else str(e["limit"]), f"{e['deals']:,}",
                   share_text(e["share"]), "; ".join(e["examples"][:2]) or "—"]
                  for e in least]
    standard = f"with the standard {BRIDGE_LEVELS['standard']} bridges"
    unwinnable = total - winnable[BRIDGE_LEVELS["standard"]]["deals"]
    finding = wording.every(unwinnable or total, total, exact=exact,
                            noun=DEALS if selection["complete"] else PART,
                            predicate=f"{'cannot' if unwinnable else 'can'} be won {standard}")
    return {
        "game": "caravan", "title": f"Caravan, pack {data['pack_name']}", "method": method,
        "findings": wording.check([finding], exact=exact), "data": data,
        "tables": [
            {"title": "Deals winnable with at most this many bridges",
             "columns": ["Bridge limit", "Deals", "Share"], "rows": rows},
            {"title": "Each deal's least bridge limit, with example deals",
             "columns": ["Least limit", "Deals", "Share", "Examples"], "rows": least_rows},
        ],
        "plots": [{
            "title": "Winnable deals by bridge limit", "kind": "bar",
            "x": [str(b) for b in LIMITS], "xlabel": "bridge limit",
            "ylabel": "deals winnable (%)", "note": method,
            "series": [percent_series("winnable", [w["share"] for w in winnable])],
        }],
    }


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_layout_arguments(parser, game_id, 20_000)


def figures(found: Json) -> tuple[list[Json], list[Json]]:
    """The intervals --until narrows: the winnable shares (rates)."""
    return [w["share"] for w in found["data"]["winnable"]], []


def run_study(args: argparse.Namespace) -> Json:
    return run_layout(args, "caravan", exact_work, sampled, study, figures)
