"""What the two layout games' studies share: the pack, which shards an exact run covers,
sampled deals, and a tally turned into figures (exact shares, or Wilson intervals).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

import numpy as np

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import proportion_interval
from chuko.console import option_values
from chuko.core.errors import ConfigError, Stopped
from chuko.core.packs import as_pack, pack_text
from chuko.core.protocol import Json

from . import tally, until
from .backends import BACKENDS, run
from .command import add_game_flags, positive
from .deals import ALL_DEALS, Pack
from .shipped import shipped_exact

CHECKPOINTS = "var/study"

# A solver of many deals: (class rows, the pack's match table) → one integer per deal.
Measure = Callable[[np.ndarray, np.ndarray], np.ndarray]


def read_pack(text: str) -> Pack:
    return Pack(as_pack(text))


def parse_shard(text: str | None) -> tuple[int, int]:
    """'I/N' → (I, N): the shards whose index is I modulo N."""
    if text is None:
        return 0, 1
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        index, count = -1, 0
    if not 0 <= index < count:
        raise ConfigError(f"--shard is I/N with 0 <= I < N, such as 3/100, not {text!r}.")
    return index, count


def parse_prefix(pack: Pack, text: str | None) -> tuple[int, ...]:
    """The classes of the cards a deal's first row must start with (rows in increasing
    order of their classes)."""
    if not text:
        return ()
    words = text.replace(",", " ").split()
    classes = []
    for word in words:
        card = int(word) if word.isdigit() else None
        if card not in pack.cards:
            raise ConfigError(f"--rows-prefix names {word!r}, which is not a card of the pack.")
        classes.append(int(pack.cards_of_class(card)))
    if len(classes) > 4:
        raise ConfigError("--rows-prefix names at most the four cards of a row.")
    return tuple(classes)


@dataclass(frozen=True)
class ExactWork:
    """Every distinct deal of `pack` in the selected shards, solved by `measure` into
    buckets value + offset of `size` (backends.ShardWork)."""

    name: str  # what is measured, for the checkpoint's key
    pack: Pack
    measure: Measure
    size: int
    offset: int = 0
    shard: tuple[int, int] = (0, 1)
    prefix: tuple[int, ...] = ()

    def key(self) -> Json:
        return {"measure": self.name, "pack": list(self.pack.cards), "shard": list(self.shard),
                "prefix": list(self.prefix)}

    def selected(self) -> list[int]:
        index, count = self.shard
        rows = self.pack.shards
        return [s for s in range(index, len(rows), count)
                if tuple(rows[s][: len(self.prefix)]) == self.prefix]

    def total(self) -> int:
        if self.shard == (0, 1) and not self.prefix:
            return ALL_DEALS
        return sum(int(self.pack.deals(s)[1].sum()) for s in self.selected()) \
            * self.pack.deal_weight // 6

    def solve(self, shards: Sequence[int]) -> Json:
        parts = []
        for shard in shards:
            deals, orders = self.pack.deals(shard)
            if len(deals):
                weights = orders * self.pack.deal_weight // 6
                values = self.measure(deals, self.pack.match)
                parts.append(tally.tally(values, weights, deals, shard, self.size, self.offset))
        return tally.merge_all(parts, self.size)

    def merge(self, a: Json, b: Json) -> Json:
        return tally.merge(a, b)


def sample(pack: Pack, measure: Measure, size: int, offset: int, games: int,
           seed: int | Random | None, advance: Callable[[int], None],
           batch: int = 20_000) -> Json:
    """A tally of `games` shuffled deals (each weighing 1), in batches; `seed` may be a
    generator that goes on from an earlier sample (--until)."""
    rng = seed if isinstance(seed, Random) else Random(seed)
    classes = pack.classes_array
    parts = []
    for start in range(0, games, batch):
        count = min(batch, games - start)
        deals = np.empty((count, len(pack.cards)), dtype=np.int8)
        for i in range(count):
            deals[i] = classes[rng.sample(range(len(pack.cards)), len(pack.cards))]
        values = measure(deals, pack.match)
        parts.append(tally.tally(values, np.ones(count, dtype=np.int64), deals, start // batch,
                                 size, offset))
        advance(count)
    return tally.merge_all(parts, size)


def share(count: int, total: int, exact: bool) -> Json:
    """A share of the deals: exact, or with its 95% Wilson interval."""
    if exact:
        return {"estimate": count / total if total else None, "exact": True}
    return {**proportion_interval(count, total).to_json(), "exact": False, "n": total}


def share_text(figure: Json) -> str:
    if figure["estimate"] is None:
        return "—"
    if figure["exact"]:
        return f"{figure['estimate']:.4%} (exact)"
    return f"{figure['estimate']:.2%} [{figure['low']:.2%}, {figure['high']:.2%}]"


def header(pack: Pack, method: str, result: Json, exact: bool, seed: int | None,
           selection: Json) -> Json:
    """The fields every layout study's JSON starts with."""
    return {"pack": list(pack.cards), "pack_name": pack_text(pack.cards), "method": method,
            "exact": exact, "seed": seed, "deals": result["done"],
            "distinct": sum(result["distinct"]), "selection": selection}


def examples(pack: Pack, result: Json, bucket: int) -> list[str]:
    return [pack.text(classes) for _, _, classes in result["examples"].get(str(bucket), [])]


def add_layout_arguments(parser: argparse.ArgumentParser, game_id: str, sample: int) -> None:
    """The options of a layout game's study; `sample` is its default sample size."""
    add_game_flags(parser, game_id, "pack")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true",
                     help="solve every distinct deal (rows interchangeable, equal cards alike)")
    how.add_argument("--sample", type=positive, metavar="N",
                     help=f"solve N shuffled deals (default {sample:,}; none for a pack "
                          "whose exact figures ship with chuko: those are shown)")
    parser.set_defaults(sample_default=sample)
    until.add_arguments(parser, "deals", 50 * sample)
    parser.add_argument("--jobs", type=positive, default=os.cpu_count() or 1, metavar="N",
                        help="processes (or Ray CPUs) for --exact (default: every core)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where --exact runs: local processes, or Ray (default local)")
    parser.add_argument("--address", help="a Ray cluster's address (--backend ray)")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="where --exact saves its progress and resumes from (default "
                             f"{CHECKPOINTS}/<game>-<pack>-….json)")
    parser.add_argument("--shard", metavar="I/N",
                        help="with --exact, only shard I of N (shards by the deal's first row)")
    parser.add_argument("--rows-prefix", metavar="CARDS",
                        help="with --exact, only deals whose first row (rows in order) starts "
                             "with these cards")


def _selection(args: argparse.Namespace, work: ExactWork) -> Json:
    complete = work.shard == (0, 1) and not work.prefix
    parts = []
    if work.shard != (0, 1):
        parts.append(f"shard {work.shard[0]}/{work.shard[1]}")
    if work.prefix:
        parts.append(f"first row starting {args.rows_prefix}")
    return {"complete": complete, "text": ", ".join(parts) or "every deal",
            "shards": len(work.selected()), "of": len(work.pack.shards)}


def _sampled_study(args: argparse.Namespace, pack: Pack, sampled: Callable[..., Json],
                   study: Callable[..., Json], figures: until.Figures, **extra: Any) -> Json:
    """The study of `--sample N` shuffled deals, or, with --until, of as many as it takes
    for every interval `figures` names to be narrow enough (up to the cap)."""
    games = args.sample or args.sample_default
    asked = until.read(args)
    rng = Random(args.seed)
    found: list[Json] = []

    def grow(count: int, advance: Callable[[int], None]) -> Json:
        part = sampled(pack, count, rng, advance, **extra)
        found[:] = [tally.merge(found[0], part) if found else part]
        return study(pack, found[0], exact=False, seed=args.seed,
                     selection={"complete": True, "text": "sample"}, **extra)

    if asked is None:
        with progress_bar(games, "Deals") as advance:
            return grow(games, advance)
    with progress_bar(asked.cap, "Deals (until narrow enough)") as advance:
        return until.sample_until(asked, games, figures, "deals",
                                  lambda count: grow(count, advance))


def run_layout(args: argparse.Namespace, game_id: str,
               exact_work: Callable[..., ExactWork], sampled: Callable[..., Json],
               study: Callable[..., Json], figures: until.Figures, **extra: Any) -> Json:
    """Solve what the options ask (exact or sampled) and return the study; without --exact
    or --sample, the exact study that ships with chuko for the pack, where one does."""
    pack = read_pack(option_values(args)["pack"])
    if not args.exact:
        if args.shard or args.rows_prefix or args.backend != "local" or args.address:
            raise ConfigError("--shard, --rows-prefix, --backend and --address go with --exact.")
        shipped = (None if args.sample or args.until
                   else shipped_exact(game_id, pack.cards, **extra))
        if shipped is not None:  # what no sample of deals could better
            return shipped
        return _sampled_study(args, pack, sampled, study, figures, **extra)
    if args.until:
        raise ConfigError("--until samples deals: it does not go with --exact.")
    work = exact_work(pack, shard=parse_shard(args.shard),
                      prefix=parse_prefix(pack, args.rows_prefix), **extra)
    if not work.selected():
        raise ConfigError("No deal of the pack is in that shard or has that first row.")
    path = Path(args.checkpoint) if args.checkpoint else checkpoint_path(game_id, work)
    try:
        with progress_bar(work.total(), "Deals") as advance:
            result = run(work, jobs=args.jobs, backend=args.backend, address=args.address,
                         checkpoint=path, advance=advance)
    except KeyboardInterrupt:
        raise Stopped(f"Stopped; the deals solved so far are saved in {path}: the same "
                      "command resumes from there." if path.exists() else
                      "Stopped before any deal was solved.") from None
    found = study(pack, result, exact=True, seed=None, selection=_selection(args, work),
                  **extra)
    found["data"]["checkpoint"] = str(path)
    return found


def checkpoint_path(game_id: str, work: ExactWork) -> Path:
    """var/study/<game>-<pack>-<digest of the work's key>.json"""
    digest = hashlib.sha1(json.dumps(work.key(), sort_keys=True).encode()).hexdigest()[:10]
    name = re.sub(r"[^A-Za-z0-9-]+", "_", pack_text(work.pack.cards))[:40]
    return Path(CHECKPOINTS) / f"{game_id}-{name}-{digest}.json"


def percent_series(label: str, shares: list[Json]) -> Json:
    """A plot series in percent, with interval ends where sampled."""
    series: Json = {"label": label, "y": [100 * (s["estimate"] or 0) for s in shares]}
    if not all(s["exact"] for s in shares):
        series["low"] = [100 * s["low"] for s in shares]
        series["high"] = [100 * s["high"] for s in shares]
        series["n"] = [s.get("n") for s in shares]
    return series
