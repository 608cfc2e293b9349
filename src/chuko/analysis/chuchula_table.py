"""Regenerate the advisor's win table, src/chuko/data/chuchula_table.json (seeded).

    python -m chuko.analysis.chuchula_table --hands 20000 --refine 1 --seed 2026

It deals random hands, groups them with a model of the other players and counts,
for each position, how often their group there falls below each strength class.
The first model is the greedy (`easy`) grouping; each refinement regroups fresh
hands with the advisor using the previous table, for four players.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random

from chuko.core.deck52 import DECK, Card
from chuko.games.chuchula import GROUPS, HAND_SIZE, Grouping, group_strength
from chuko.solvers.chuchula_advisor import (
    TABLE_FILE,
    WinTable,
    advise,
    greedy_grouping,
    strength_classes,
)

OUT = Path(__file__).resolve().parent.parent / "data" / TABLE_FILE


def estimate(
    hands: int, rng: Random, strategy: Callable[[tuple[Card, ...]], Grouping], description: str
) -> WinTable:
    """The win table of the players who group `hands` random hands with `strategy`."""
    classes = strength_classes()
    counts = [[0] * len(classes) for _ in range(GROUPS)]
    deck = list(DECK)
    for _ in range(hands):
        rng.shuffle(deck)
        grouping = strategy(tuple(deck[:HAND_SIZE]))
        for position, group in enumerate(grouping.groups):
            counts[position][classes[group_strength(group)]] += 1
    below = []
    for row in counts:
        seen, cumulative = 0, []
        for count in row:
            cumulative.append(round(seen / hands, 6))
            seen += count
        below.append(tuple(cumulative))
    return WinTable(tuple(below), description)


def build(hands: int, refine: int, seed: int) -> WinTable:
    rng = Random(seed)
    table = estimate(hands, rng, greedy_grouping, f"greedy players, {hands} hands, seed {seed}")
    for step in range(1, refine + 1):
        table = estimate(
            hands, rng, partial(_advised, table=table),
            f"advisor players (refinement {step}), {hands} hands each, seed {seed}",
        )
    return table


def _advised(hand: tuple[Card, ...], table: WinTable) -> Grouping:
    """The grouping an advisor player picks when the others play as `table` says."""
    return advise(hand, 4, table).grouping


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--refine", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    table = build(args.hands, args.refine, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(table.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({table.description})")


if __name__ == "__main__":
    main()
