"""The study of a game played by bots (Chükö, and any registered game without a study of
its own): first-player and per-seat win rates, game length, and how often each kind of
turn other than a plain play happens (Chükö's resets, and its recycled draw piles), by pack
× players × bot lineup, from the generic simulation (analysis/simulate.py).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random

from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate import simulate
from chuko.analysis.stats import mean_interval
from chuko.bots import parse_levels
from chuko.console import LINEUP_HELP
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json, State
from chuko.games import game_class

from .command import positive

DEFAULT_PACKS = ("standard", "plain", "primes", "2-30", "2-100")
DEFAULT_PLAYERS = (2, 3, 4)


def _turn_kinds(record: Json) -> Counter[str]:
    """How many turns of each kind a record holds ('recycle' for turns that recycled)."""
    kinds: Counter[str] = Counter()
    for turn in record.get("turns", []) if isinstance(record.get("turns"), list) else []:
        if isinstance(turn, dict):
            kinds[str(turn.get("kind", "turn"))] += 1
            kinds["recycle"] += "recycled" in turn
    return kinds


def cell(game_id: str, pack: str | None, players: int | None, bots: str, games: int,
         seed: int) -> Json:
    """One configuration's figures, each with its 95% interval."""
    cls = game_class(game_id)
    names = {o.name for o in cls.descriptor.options}
    options: dict[str, object] = {}
    if pack is not None and "pack" in names:
        options["pack"] = pack
    if players is not None and "players" in names:
        options["players"] = players
    game = cls.from_options(options, bots_only=True)
    lineup = parse_levels(bots, game.id, game.players, "--bots")
    kinds: list[Counter[str]] = []

    def heard(index: int, state: State, names_: list[str]) -> None:
        kinds.append(_turn_kinds(state.record()))

    tally = simulate(game, lineup, games, Random(seed), on_result=heard)
    per_game = {}
    for kind in sorted(set().union(*kinds) - {"play"}):
        counts = [k[kind] for k in kinds]
        if any(counts):
            per_game[kind] = mean_interval(counts).to_json()
    data = tally.to_json()
    return {"pack": options.get("pack"), "players": game.players, "bots": ",".join(lineup),
            "games": games, "first_player": data["first_player"], "seats": data["seats"],
            "draws": data["draws"], "no_winner": data["no_winner"], "moves": data["moves"],
            "per_game": per_game}


def grid(game_id: str, packs: Sequence[str | None], players: Sequence[int | None],
         lineups: Sequence[str], games: int, seed: int,
         advance: Callable[[int], None] = lambda n: None) -> list[Json]:
    """Every cell of packs × players × lineups, each seeded from `seed` and its place."""
    if games < 1:
        raise ConfigError("--games must be at least 1.")
    cells = []
    for p, pack in enumerate(packs):
        for q, count in enumerate(players):
            for b, bots in enumerate(lineups):
                cells.append(cell(game_id, pack, count, bots, games,
                                  seed * 1_000_003 + (p * 101 + q) * 101 + b))
                advance(games)
    return cells


def _rate(figure: Json | None) -> str:
    if not figure or figure.get("estimate") is None:
        return "—"
    return f"{figure['estimate']:.1%} [{figure['low']:.1%}, {figure['high']:.1%}]"


def _mean(figure: Json | None) -> str:
    if not figure or figure.get("estimate") is None:
        return "—"
    if figure.get("low") is None:
        return f"{figure['estimate']:.2f}"
    return f"{figure['estimate']:.2f} [{figure['low']:.2f}, {figure['high']:.2f}]"


def study(game_id: str, cells: list[Json], seed: int) -> Json:
    title = game_class(game_id).title
    games = cells[0]["games"] if cells else 0
    method = (f"{games:,} bot games per configuration (seed {seed}), the lineup rotating "
              "through the seats; 95% intervals (Wilson for rates, normal for means)")
    kinds = sorted({k for c in cells for k in c["per_game"]})
    rows = []
    for c in cells:
        seats = " / ".join(f"{s['estimate']:.0%}" for s in c["seats"])
        levels = c["bots"].split(",")
        bots = levels[0] if len(set(levels)) == 1 else c["bots"]
        rows.append([str(c["pack"] or "—"), str(c["players"]), bots,
                     _rate(c["first_player"]), f"{1 / c['players']:.0%}", seats,
                     _mean(c["moves"]), *(_mean(c["per_game"].get(k)) for k in kinds)])
    columns = ["Pack", "Players", "Bots", "First player wins", "Fair", "Seat wins",
               "Moves per game", *(f"{k.capitalize()}s per game" for k in kinds)]
    findings = []
    for c in cells:
        first = c["first_player"]
        if first and first["low"] > 1 / c["players"] + 0.05:
            findings.append(f"Pack {c['pack']}, {c['players']} players ({c['bots']}): the "
                            f"first player wins {_rate(first)} against a fair "
                            f"{1 / c['players']:.0%}.")
    return {"game": game_id, "title": f"{title}: bots at the table", "method": method,
            "findings": findings[:6], "data": {"method": method, "seed": seed, "cells": cells},
            "tables": [{"title": "By pack, players and bots", "columns": columns, "rows": rows}],
            "plots": _plots(cells, method)}


def _series(label: str, figures: list[Json | None], scale: float = 100) -> Json:
    ys = [scale * f["estimate"] if f and f.get("estimate") is not None else None for f in figures]
    series: Json = {"label": label, "y": ys}
    if all(f and f.get("low") is not None for f in figures):
        series["low"] = [scale * f["low"] for f in figures]  # type: ignore[index]
        series["high"] = [scale * f["high"] for f in figures]  # type: ignore[index]
    return series


def _lineup(bots: str) -> str:
    """A lineup as one line across player counts: "easy,easy,easy" is the `easy` line, as
    "easy,easy" is; a mixed lineup stays itself."""
    levels = set(bots.split(","))
    return levels.pop() if len(levels) == 1 else bots


def _plots(cells: list[Json], method: str) -> list[Json]:
    groups = list(dict.fromkeys((c["pack"], _lineup(c["bots"])) for c in cells))
    players = sorted({c["players"] for c in cells})
    plots = []
    if len(players) > 1:
        def find(pack: object, lineup: str, count: int, key: str) -> Json | None:
            for c in cells:
                if (c["pack"], _lineup(c["bots"]), c["players"]) == (pack, lineup, count):
                    figure: Json | None = c[key]
                    return figure
            return None

        one_lineup = len({b for _, b in groups}) == 1

        def label(pack: object, lineup: str) -> str:
            return f"{pack}" if one_lineup else f"{pack}, {lineup}"

        fair = {"label": "fair (1/players)", "y": [100 / n for n in players], "style": "dashed"}
        plots.append({
            "title": "First player's win rate against the number of players", "kind": "line",
            "x": players, "xlabel": "players", "ylabel": "first player wins (%)", "note": method,
            "series": [_series(label(p, b), [find(p, b, n, "first_player") for n in players])
                       for p, b in groups] + [fair]})
        plots.append({
            "title": "Game length against the number of players", "kind": "line",
            "x": players, "xlabel": "players", "ylabel": "moves per game", "note": method,
            "series": [_series(label(p, b), [find(p, b, n, "moves") for n in players], 1)
                       for p, b in groups]})
    packs = list(dict.fromkeys(c["pack"] for c in cells))
    if len(packs) > 1:
        by_players = list(dict.fromkeys((c["players"], c["bots"]) for c in cells))
        plots.append({
            "title": "First player's win rate by pack", "kind": "bar",
            "x": [str(p) for p in packs], "xlabel": "pack", "ylabel": "first player wins (%)",
            "note": method,
            "series": [_series(f"{n} players" + ("" if len(by_players) == len(players)
                                                 else f", {b}"),
                               [next((c["first_player"] for c in cells
                                      if (c["pack"], c["players"], c["bots"]) == (p, n, b)),
                                     None) for p in packs])
                       for n, b in by_players]})
    return plots




def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    names = {o.name for o in game_class(game_id).descriptor.options}
    if "pack" in names:
        parser.add_argument("--pack", action="append", metavar="PACK",
                            help="a pack to study, repeated for several (default: "
                                 f"{', '.join(DEFAULT_PACKS)})")
    if "players" in names:
        parser.add_argument("--players", default=",".join(map(str, DEFAULT_PLAYERS)),
                            metavar="N,N…", help="numbers of players, separated by commas "
                            f"(default {','.join(map(str, DEFAULT_PLAYERS))})")
    parser.add_argument("--bots", action="append", metavar="LINEUP",
                        help=f"a bot lineup such as easy or hard,easy, repeated for several; "
                             f"{LINEUP_HELP} (default easy)")
    parser.add_argument("--games", type=positive, default=1000, metavar="N",
                        help="games per configuration (default 1000)")


def _players(text: str | None) -> list[int | None]:
    if text is None:
        return [None]
    try:
        counts = [int(w) for w in text.split(",") if w.strip()]
    except ValueError:
        counts = []
    if not counts:
        raise ConfigError(f"--players is a list of numbers such as 2,3,4, not {text!r}.")
    return list(dict.fromkeys(counts))


def run_study(args: argparse.Namespace) -> Json:
    packs: list[str | None] = list(getattr(args, "pack", None) or DEFAULT_PACKS) \
        if hasattr(args, "pack") else [None]
    players = _players(getattr(args, "players", None))
    lineups = args.bots or ["easy"]
    total = len(packs) * len(players) * len(lineups) * args.games
    with progress_bar(total, "Games") as advance:
        cells = grid(args.game, packs, players, lineups, args.games, args.seed, advance)
    return study(args.game, cells, args.seed)
