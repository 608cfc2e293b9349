"""Counting deals of a layout game by one integer measure (Caravan's least bridge limit,
Crossroads' perfect-play value), exactly over every distinct deal or over a sample.

A tally is JSON, so that it travels between processes and into checkpoints as it is:
- "weights": per measure value, the deals (of deals.ALL_DEALS) it covers, or sampled deals;
- "distinct": per measure value, the distinct deals solved;
- "examples": per measure value, the first few deals met (by shard, then order), as
  [shard, position, classes];
- "done": the deals covered (progress units).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chuko.core.protocol import Json

EXAMPLES = 3  # example deals kept per measure value


def tally(values: np.ndarray, weights: np.ndarray, deals: np.ndarray, shard: int,
          size: int, offset: int = 0) -> Json:
    """The tally of solved deals: `values[i] + offset` is deal i's bucket of `size`."""
    buckets = values + offset
    counted = np.bincount(buckets, weights=weights, minlength=size)
    distinct = np.bincount(buckets, minlength=size)
    examples: dict[str, list[list[object]]] = {}
    for bucket in np.unique(buckets):
        first = np.flatnonzero(buckets == bucket)[:EXAMPLES]
        examples[str(int(bucket))] = [[shard, int(i), deals[i].tolist()] for i in first]
    return {"weights": [int(round(x)) for x in counted], "distinct": distinct.tolist(),
            "examples": examples, "done": int(weights.sum())}


def empty(size: int) -> Json:
    return {"weights": [0] * size, "distinct": [0] * size, "examples": {}, "done": 0}


def merge(a: Json, b: Json) -> Json:
    examples = {}
    for bucket in a["examples"].keys() | b["examples"].keys():
        both = a["examples"].get(bucket, []) + b["examples"].get(bucket, [])
        examples[bucket] = sorted(both, key=lambda e: (e[0], e[1]))[:EXAMPLES]
    return {"weights": _add(a["weights"], b["weights"]),
            "distinct": _add(a["distinct"], b["distinct"]),
            "examples": dict(sorted(examples.items(), key=lambda kv: int(kv[0]))),
            "done": a["done"] + b["done"]}


def merge_all(parts: Sequence[Json], size: int) -> Json:
    result = empty(size)
    for part in parts:
        result = merge(result, part)
    return result


def _add(x: list[int], y: list[int]) -> list[int]:
    return [p + q for p, q in zip(x, y, strict=True)]
