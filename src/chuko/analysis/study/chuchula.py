"""Chuchula's study: how often each group type is dealt (exact, over all 22,100 groups of
three cards), each position's win chance by the type of group played there, and the
advisor's (`hard`) and the greedy grouping's (`easy`) points per round, from bot rounds
played by the Chuchula simulation (analysis/simulate_chuchula.py).
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from collections.abc import Callable

from chuko.analysis import wording
from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate_chuchula import simulate
from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.analysis.wording import ROUNDS
from chuko.core.deck52 import DECK
from chuko.core.protocol import Json
from chuko.games.chuchula import GROUPS, Game, GroupType, group_type

from . import until
from .command import add_game_flags, game_option, positive

LEVELS = ("hard", "easy")  # the advisor and the greedy grouping
# A win chance from fewer groups than this is drawn greyed, not as a rate: its interval
# spans half the scale (0% [0%, 56%] from 4 groups).
FEW_GROUPS = 30


def group_types() -> dict[GroupType, int]:
    """How many of the C(52, 3) groups are of each type."""
    found = Counter(group_type(cards) for cards in itertools.combinations(DECK, 3))
    return {t: found[t] for t in GroupType}


def rounds_played(players: int, rounds: int, seed: int,
                  advance: Callable[[int], None] = lambda n: None) -> Json:
    """One advisor against greedy players: points per round of each, and each position's
    wins by the type of group played there (every seat counted)."""
    levels = ["hard"] + ["easy"] * (players - 1)
    seen = [[Counter[str]() for _ in range(GROUPS)] for _ in range(2)]  # [won?][position]
    played: list[Json] = []

    def heard(record: Json) -> None:
        played.extend(Game.replay(record).view(None)["rounds"])

    result = simulate(levels, rounds, 5, seed, heard, advance)
    for entry in played:
        for position, scored in enumerate(entry["positions"]):
            for seat, kind in enumerate(scored["types"]):
                seen[scored["winner"] == seat][position][kind] += 1
    positions = []
    for position in range(GROUPS):
        row = {}
        for kind in GroupType:
            won, lost = seen[1][position][kind.name], seen[0][position][kind.name]
            if won + lost:
                row[kind.label] = {"groups": won + lost, "n": won + lost, "wins": won,
                                   **proportion_interval(won, won + lost).to_json()}
        positions.append(row)
    points = {level: {**result.level_interval(level).to_json(), "n": rounds}
              for level in LEVELS}
    return {"players": players, "rounds": rounds, "positions": positions, "points": points,
            "gain": {**_gain(result.points).to_json(), "n": rounds}}


def _gain(points: list[list[int]]) -> Interval:
    """The advisor's (seat 0's) points per round minus the greedy players' mean, round by
    round: the pairs come from the same deals, so the difference's interval is the mean
    interval of the per-round differences."""
    others = points[1:]
    return mean_interval(points[0][r] - sum(seat[r] for seat in others) / len(others)
                         for r in range(len(points[0])))


def study(players: int, rounds: int, seed: int,
          advance: Callable[[int], None] = lambda n: None) -> Json:
    total = sum(group_types().values())
    types: list[Json] = [{"type": t.label, "groups": n,
                          "share": {"estimate": n / total, "exact": True}}
             for t, n in group_types().items()]
    played = rounds_played(players, rounds, seed, advance)
    method = (f"group types exact over all {total:,} groups of three; the rest from "
              f"{rounds:,} rounds of {players} players, one advisor (hard) and greedy (easy) "
              f"players (seed {seed}), with 95% intervals (Wilson for win chances, normal for "
              "points)")
    kinds = [t.label for t in GroupType]
    win_rows = [[kind] + [_rate(played["positions"][p].get(kind)) for p in range(GROUPS)]
                for kind in kinds]
    points = played["points"]
    point_rows = [[name, f"{points[level]['estimate']:.3f} "
                   f"[{points[level]['low']:.3f}, {points[level]['high']:.3f}]"]
                  for level, name in zip(LEVELS, ("advisor (hard)", "greedy (easy)"),
                                         strict=True)]
    gain = played["gain"]
    finding = wording.versus(Interval(gain["estimate"], gain["low"], gain["high"]), 0.0,
                             rounds, exact=False, noun=ROUNDS,
                             subject="the advisor's (hard) lead over a greedy player (easy)",
                             effect="difference between the advisor and a greedy player",
                             unit=" points per round", digits=2)
    return {
        "game": Game.id, "title": f"Chuchula, {players} players", "method": method,
        "findings": wording.check([finding], exact=False),
        "data": {"method": method, "seed": seed, "group_types": types, **played},
        "tables": [
            {"title": "Group types among all groups of three (exact)",
             "columns": ["Type", "Groups", "Share"],
             "rows": [[t["type"], f"{t['groups']:,}", f"{t['share']['estimate']:.3%} (exact)"]
                      for t in types]},
            {"title": "Chance that a group wins its position, by type",
             "columns": ["Type", *(f"Position {p + 1}" for p in range(GROUPS))],
             "rows": win_rows},
            {"title": f"Points per round, over {rounds:,} rounds",
             "columns": ["Player", "Points [95%]"],
             "rows": [*point_rows, ["advisor − greedy (same rounds)",
                                    f"{gain['estimate']:+.3f} [{gain['low']:+.3f}, "
                                    f"{gain['high']:+.3f}]"]]},
        ],
        "plots": [
            {"title": "Group types among all groups of three", "kind": "bar",
             "x": kinds, "xlabel": "group type", "ylabel": "groups (%)",
             "note": "exact: every one of the 22,100 groups counted",
             "series": [{"label": "share", "y": [100 * t["share"]["estimate"] for t in types]}]},
            {"title": "Win chance by position and group type", "kind": "line",
             "x": [f"{p + 1}" for p in range(GROUPS)], "xlabel": "position",
             "ylabel": "wins the position (%)", "few": FEW_GROUPS,
             "note": (f"{rounds:,} rounds of {players} players (seed {seed}), every seat's "
                      f"group counted; 95% Wilson intervals; points from fewer than "
                      f"{FEW_GROUPS} groups are greyed, their n beside them"),
             "series": [_series(kind, [played["positions"][p].get(kind) for p in range(GROUPS)])
                        for kind in kinds]},
        ],
    }


def _rate(figure: Json | None) -> str:
    """A win chance with its interval and the groups it rests on; 'too few' below
    FEW_GROUPS, where the interval says little."""
    if figure is None:
        return "—"
    text = (f"{figure['estimate']:.0%} [{figure['low']:.0%}, {figure['high']:.0%}] "
            f"(n={figure['groups']:,})")
    return text + (", too few" if figure["groups"] < FEW_GROUPS else "")


def _series(label: str, figures: list[Json | None]) -> Json:
    """A line of win chances in percent, with each point's interval and groups ("n")."""
    return {"label": label,
            "y": [None if f is None else 100 * f["estimate"] for f in figures],
            "low": [None if f is None else 100 * f["low"] for f in figures],
            "high": [None if f is None else 100 * f["high"] for f in figures],
            "n": [None if f is None else f["groups"] for f in figures]}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_game_flags(parser, game_id, "players")
    parser.add_argument("--rounds", type=positive, default=2000, metavar="N",
                        help="rounds the bots play (default 2000)")
    until.add_arguments(parser, "rounds", 100_000)


def figures(found: Json) -> tuple[list[Json], list[Json]]:
    """The intervals --until narrows: the win chances drawn as rates (from FEW_GROUPS
    groups or more), and the points per round with the advisor's lead (means)."""
    data = found["data"]
    rates = [figure for row in data["positions"] for figure in row.values()
             if figure["groups"] >= FEW_GROUPS]
    return rates, [*data["points"].values(), data["gain"]]


def run_study(args: argparse.Namespace) -> Json:
    players = game_option(args, "chuchula", "players")
    Game.from_options({"players": players}, bots_only=True)  # the engine's limits
    asked = until.read(args)
    if asked is None:
        with progress_bar(args.rounds, "Rounds") as advance:
            return study(players, args.rounds, args.seed, advance)
    played = [0]

    def grow(count: int) -> Json:
        # the same seed plays the same first rounds again, then more
        played[0] += count
        return study(players, played[0], args.seed, advance)

    with progress_bar(asked.cap, "Rounds (until narrow enough)") as advance:
        return until.sample_until(asked, args.rounds, figures, "rounds", grow)
