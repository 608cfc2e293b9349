"""The study of a game played by bots (any registered game without a study module of its
own): first-player and per-seat win rates, game length, and how often each kind of turn
the game counts happens, for every combination of the option values its descriptor's
`Study` varies × bot lineup, from the generic simulation (analysis/simulate.py).

Every option of the game can be varied from the command line too, by its flag; the table
has a column per varied option, named after it. A cell is JSON: the options it was played
with ("options", by name), "players", "bots", "games", and the figures, each with its 95%
interval.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Mapping, Sequence
from math import prod
from random import Random
from typing import Any

from chuko.analysis import wording
from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate import simulate
from chuko.analysis.stats import mean_interval
from chuko.bots import parse_levels
from chuko.console import LINEUP_HELP, OPTION_DEST, option_flag, option_values
from chuko.core import references
from chuko.core.descriptor import Descriptor, Option
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json, State
from chuko.games import game_class

from . import until
from .command import positive

PLACES = 101  # a cell's seed comes from its place in the grid, each coordinate below this
ONE_WORD_KINDS = ("pack", "text")  # values that may hold commas: one value per flag

TurnCounter = Callable[[Json], Mapping[str, int]]


def _turn_counter(named: str | None) -> TurnCounter | None:
    """The game's count of a record's turns by kind (`Study.turn_kinds`), if it has one."""
    if named is None:
        return None
    counter: TurnCounter = references.load(named)
    return counter


def cell(game_id: str, options: Mapping[str, Any], bots: str, games: int, seed: int) -> Json:
    """One configuration's figures, each with its 95% interval."""
    cls = game_class(game_id)
    game = cls.from_options(dict(options), bots_only=True)
    lineup = parse_levels(bots, game.id, game.players, "--bots")
    count = _turn_counter(cls.descriptor.integrations.study.turn_kinds)
    kinds: list[Mapping[str, int]] = []

    def heard(index: int, state: State, names: list[str]) -> None:
        if count is not None:
            kinds.append(count(state.record()))

    tally = simulate(game, lineup, games, Random(seed), on_result=heard)
    per_game = {}
    for kind in sorted(set().union(*kinds)):
        counts = [k.get(kind, 0) for k in kinds]
        if any(counts):
            per_game[kind] = mean_interval(counts).to_json()
    data = tally.to_json()
    return {"options": dict(options), "players": game.players, "bots": ",".join(lineup),
            "games": games, "first_player": data["first_player"], "seats": data["seats"],
            "draws": data["draws"], "no_winner": data["no_winner"], "moves": data["moves"],
            "per_game": per_game}


def grid(game_id: str, varied: Mapping[str, Sequence[Any]], lineups: Sequence[str],
         games: int, seed: int, advance: Callable[[int], None] = lambda n: None) -> list[Json]:
    """Every cell of the varied options' values × lineups, the first option varying
    slowest, each seeded from `seed` and its place."""
    if games < 1:
        raise ConfigError("--games must be at least 1.")
    cells = []
    for options, bots, cell_seed in plans(varied, lineups, seed):
        cells.append(cell(game_id, options, bots, games, cell_seed))
        advance(games)
    return cells


def plans(varied: Mapping[str, Sequence[Any]], lineups: Sequence[str],
          seed: int) -> list[tuple[dict[str, Any], str, int]]:
    """Each cell's options, lineup and seed, in the grid's order (`grid`)."""
    found = []
    for combination in itertools.product(*(enumerate(values) for values in varied.values())):
        place = 0
        for index, _ in combination:
            place = place * PLACES + index
        options = {name: value for name, (_, value) in zip(varied, combination, strict=True)}
        for b, bots in enumerate(lineups):
            found.append((options, bots, seed * 1_000_003 + place * PLACES + b))
    return found


def cell_figures(c: Json) -> tuple[list[Json | None], list[Json | None]]:
    """The intervals --until narrows in a cell: the win rates (first player, each seat)
    and the means (moves, turns of each kind per game)."""
    return [c["first_player"], *c["seats"]], [c["moves"], *c["per_game"].values()]


def figures(found: Json) -> tuple[list[Json | None], list[Json | None]]:
    """The intervals --until narrows in a whole study: every cell's."""
    rates: list[Json | None] = []
    means: list[Json | None] = []
    for c in found["data"]["cells"]:
        more_rates, more_means = cell_figures(c)
        rates += more_rates
        means += more_means
    return rates, means


def grid_until(game_id: str, varied: Mapping[str, Sequence[Any]], lineups: Sequence[str],
               games: int, seed: int, asked: until.Until,
               advance: Callable[[int], None] = lambda n: None) -> list[Json]:
    """`grid`, each cell played again with more games (the same seed: the first games
    are the same) until its intervals are narrow enough or its games reach the cap."""
    cells = []
    for options, bots, cell_seed in plans(varied, lineups, seed):
        done = min(games, asked.cap)
        found = cell(game_id, options, bots, done, cell_seed)
        advance(done)
        while step := asked.more(done, asked.width.wide(*cell_figures(found))):
            done += step
            found = cell(game_id, options, bots, done, cell_seed)
            advance(step)
        cells.append(found)
    return cells


def _rate(figure: Json | None, digits: int = 1) -> str:
    if not figure or figure.get("estimate") is None:
        return "—"
    return (f"{figure['estimate']:.{digits}%} [{figure['low']:.{digits}%}, "
            f"{figure['high']:.{digits}%}]")


def _draws(c: Json) -> str:
    """Drawn games, and games that ended with no winner otherwise, of the cell's."""
    text = f"{c['draws']:,}"
    return text + (f" (+{c['no_winner']:,} no winner)" if c.get("no_winner") else "")


def _games(cells: list[Json]) -> str:
    """'1,000', or '1,000–4,200' when the configurations played different numbers."""
    counts = sorted({c["games"] for c in cells}) or [0]
    return f"{counts[0]:,}" + (f"–{counts[-1]:,}" if len(counts) > 1 else "")


def _findings(described: Descriptor, cells: list[Json]) -> list[str]:
    """Every configuration whose first player's win rate excludes the fair share, after a
    sentence that counts them, each with its interval and games; then those where no edge
    was detected, named together."""
    off: list[str] = []
    level: list[str] = []
    for c in cells:
        first = c["first_player"]
        if not first or first.get("estimate") is None or c["players"] < 2:
            continue
        fair = 1 / c["players"]
        said = (f"{_where(described, c)} ({_lineup(c['bots'])}): {_rate(first)} of "
                f"{first.get('n', c['games']):,} games, fair {fair:.0%}")
        (level if wording.includes(first, fair) else off).append(said)
    found = []
    if off:
        found.append(f"The first player's win rate excludes the fair share (1/players) in "
                     f"{len(off)} of {len(off) + len(level)} configurations, by its 95% "
                     "interval:")
        found.extend(f"{said}." for said in off)
    if level:
        found.append("No first-player edge detected at this sample size (the interval "
                     f"includes the fair share) for {'; '.join(level)}.")
    return found


def _mean(figure: Json | None) -> str:
    if not figure or figure.get("estimate") is None:
        return "—"
    if figure.get("low") is None:
        return f"{figure['estimate']:.2f}"
    return f"{figure['estimate']:.2f} [{figure['low']:.2f}, {figure['high']:.2f}]"


def _listing(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join(filter(None, (", ".join(words[:-1]), *words[-1:])))


def _varied(cells: list[Json]) -> list[str]:
    """The names of the options the cells vary, in the grid's order."""
    return list(cells[0]["options"]) if cells else []


def _where(described: Descriptor, c: Json) -> str:
    """A cell's configuration in words: 'Pack standard, 2 players'."""
    seats = described.traits.players_option
    parts = [f"{described.option(name).label} {value}" for name, value in c["options"].items()
             if name != seats]
    return ", ".join([*parts, f"{c['players']} players"])


def study(game_id: str, cells: list[Json], seed: int) -> Json:
    described = game_class(game_id).descriptor
    method = (f"{_games(cells)} bot games per configuration (seed {seed}), the lineup "
              "rotating through the seats; 95% intervals (Wilson for rates, normal for means)")
    names = _varied(cells)
    labels = [described.option(name).label for name in names]
    kinds = sorted({k for c in cells for k in c["per_game"]})
    rows = []
    for c in cells:
        seats = " / ".join(_rate(s, 0) for s in c["seats"])
        rows.append([*(str(c["options"][name]) for name in names), _lineup(c["bots"]),
                     f"{c['games']:,}", _rate(c["first_player"]), f"{1 / c['players']:.0%}",
                     seats, _draws(c), _mean(c["moves"]),
                     *(_mean(c["per_game"].get(k)) for k in kinds)])
    columns = [*labels, "Bots", "Games", "First player wins", "Fair", "Seat wins", "Draws",
               "Moves per game", *(f"{k.capitalize()}s per game" for k in kinds)]
    title = f"By {_listing([*(label.lower() for label in labels), 'bots'])}"
    return {"game": game_id, "title": f"{described.title}: bots at the table",
            "method": method, "findings": wording.check(_findings(described, cells),
                                                        exact=False),
            "data": {"method": method, "seed": seed, "cells": cells},
            "tables": [{"title": title, "columns": columns, "rows": rows}],
            "plots": _plots(described, cells, method)}


def _series(label: str, figures: list[Json | None], scale: float = 100) -> Json:
    ys = [scale * f["estimate"] if f and f.get("estimate") is not None else None for f in figures]
    series: Json = {"label": label, "y": ys}
    if all(f and f.get("low") is not None for f in figures):
        series["low"] = [scale * f["low"] for f in figures]  # type: ignore[index]
        series["high"] = [scale * f["high"] for f in figures]  # type: ignore[index]
    if any(f and f.get("n") is not None for f in figures):  # each point's sample size
        series["n"] = [f.get("n") if f else None for f in figures]
    return series


def _lineup(bots: str) -> str:
    """A lineup as one line across player counts: "easy,easy,easy" is the `easy` line, as
    "easy,easy" is; a mixed lineup stays itself."""
    levels = set(bots.split(","))
    return levels.pop() if len(levels) == 1 else bots


def _plots(described: Descriptor, cells: list[Json], method: str) -> list[Json]:
    """Win rate and length against the number of players where it varies, and the win
    rate by each other varied option."""
    others = [name for name in _varied(cells) if name != described.traits.players_option]
    plots = _against_players(cells, others, method)
    for name in others:
        values = list(dict.fromkeys(c["options"][name] for c in cells))
        if len(values) > 1:
            plots.append(_by_option(described, cells, name, values, method))
    return plots or [_by_seat(cells, method)]


def _by_seat(cells: list[Json], method: str) -> Json:
    """Each seat's win rate, a bar per seat for each lineup: the plot of a study whose
    configurations differ in their bots at most, all with the same number of players."""
    players = cells[0]["players"]
    fair = f"{1 / players:.0%}"
    return {
        "title": f"Win rate by seat (fair: {fair} each)", "kind": "bar",
        "x": [str(seat + 1) for seat in range(players)], "xlabel": "seat",
        "ylabel": "wins (%)", "note": method,
        "series": [_series(_lineup(c["bots"]), c["seats"]) for c in cells]}


def _against_players(cells: list[Json], others: list[str], method: str) -> list[Json]:
    players = sorted({c["players"] for c in cells})
    if len(players) < 2:
        return []

    def group(c: Json) -> tuple[tuple[Any, ...], str]:
        return tuple(c["options"][name] for name in others), _lineup(c["bots"])

    groups = list(dict.fromkeys(group(c) for c in cells))
    one_lineup = len({lineup for _, lineup in groups}) == 1

    def label(values: tuple[Any, ...], lineup: str) -> str:
        words = [str(v) for v in values]
        return ", ".join(words if words and one_lineup else [*words, lineup])

    def line(key: str, wanted: tuple[tuple[Any, ...], str], scale: float = 100) -> Json:
        figures = [next((c[key] for c in cells if (group(c), c["players"]) == (wanted, n)),
                        None) for n in players]
        return _series(label(*wanted), figures, scale)

    fair = {"label": "fair (1/players)", "y": [100 / n for n in players], "style": "dashed"}
    return [
        {"title": "First player's win rate against the number of players", "kind": "line",
         "x": players, "xlabel": "players", "ylabel": "first player wins (%)", "note": method,
         "series": [line("first_player", g) for g in groups] + [fair]},
        {"title": "Game length against the number of players", "kind": "line",
         "x": players, "xlabel": "players", "ylabel": "moves per game", "note": method,
         "series": [line("moves", g, 1) for g in groups]},
    ]


def _by_option(described: Descriptor, cells: list[Json], name: str, values: list[Any],
               method: str) -> Json:
    """The first player's win rate by the values of the option `name`: a bar per value
    for each combination of the rest (the number of players, the other options, bots)."""
    rest = [other for other in _varied(cells)
            if other not in (name, described.traits.players_option)]

    def key(c: Json) -> tuple[int, tuple[Any, ...], str]:
        return c["players"], tuple(c["options"][other] for other in rest), c["bots"]

    keys = list(dict.fromkeys(key(c) for c in cells))
    one_lineup = len(keys) == len({k[:2] for k in keys})
    one_count = len({k[0] for k in keys}) == 1

    def label(players: int, others: tuple[Any, ...], bots: str) -> str:
        words = [f"{described.option(other).label} {value}"
                 for other, value in zip(rest, others, strict=True)]
        if not (words and one_count):
            words.insert(0, f"{players} players")
        return ", ".join(words if one_lineup else [*words, _lineup(bots)])

    caption = described.option(name).label.lower()
    return {
        "title": f"First player's win rate by {caption}", "kind": "bar",
        "x": [str(v) for v in values], "xlabel": caption, "ylabel": "first player wins (%)",
        "note": method,
        "series": [_series(label(*k), [next((c["first_player"] for c in cells
                                            if key(c) == k and c["options"][name] == v), None)
                                       for v in values])
                   for k in keys]}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    declared = {varied.option: varied.values for varied in described.integrations.study.varies}
    for option in described.options:
        how = ("repeated for several" if option.kind in ONE_WORD_KINDS else
               "repeated or separated by commas for several")
        tried = ", ".join(map(str, declared.get(option.name, (option.default,))))
        parser.add_argument(option_flag(option), action="append", metavar="VALUE",
                            dest=OPTION_DEST + option.name,
                            help=f"{option.label}: a value to try, {how} (default "
                                 f"{tried})".replace("%", "%%"))
    lineups = ", ".join(described.integrations.study.lineups or described.levels[:1])
    parser.add_argument("--bots", action="append", metavar="LINEUP",
                        help=f"a bot lineup such as {described.levels[-1]} or "
                             f"{described.levels[-1]},{described.levels[0]}, repeated for "
                             f"several; {LINEUP_HELP} (default {lineups})")
    parser.add_argument("--games", type=positive, default=1000, metavar="N",
                        help="games per configuration (default 1000)")
    until.add_arguments(parser, "games per configuration", 20_000)


def varied_values(described: Descriptor, given: Mapping[str, list[str]]) -> dict[str, list[Any]]:
    """Each varied option's values, in order: the study's own, each replaced by the values
    given on the command line, then the other options given there."""
    varies = described.integrations.study.varies
    declared = {varied.option: list(varied.values) for varied in varies}
    named = [*declared, *(o.name for o in described.options
                          if o.name in given and o.name not in declared)]
    found = {}
    for name in named:
        option = described.option(name)
        words = _words(option, given[name]) if name in given else declared[name]
        found[name] = list(dict.fromkeys(option.value(word) for word in words))
    return found


def _words(option: Option, texts: list[str]) -> list[str]:
    """The values in what the flags gave: one per flag where a value may hold commas (a pack
    such as 2,6,7), else separated by commas too."""
    pieces = texts if option.kind in ONE_WORD_KINDS else [
        word for text in texts for word in text.split(",")]
    words = [word.strip() for word in pieces if word.strip()]
    if not words:
        raise ConfigError(f"{option_flag(option)} names no value to try.")
    return words


def run_study(args: argparse.Namespace) -> Json:
    described = game_class(args.game).descriptor
    varied = varied_values(described, option_values(args))
    lineups = args.bots or list(described.integrations.study.lineups or described.levels[:1])
    configurations = prod(len(values) for values in varied.values()) * len(lineups)
    asked = until.read(args)
    if asked is None:
        with progress_bar(configurations * args.games, "Games") as advance:
            cells = grid(args.game, varied, lineups, args.games, args.seed, advance)
        return study(args.game, cells, args.seed)
    with progress_bar(configurations * asked.cap, "Games (until narrow enough)") as advance:
        cells = grid_until(args.game, varied, lineups, args.games, args.seed, asked, advance)
    return asked.said(study(args.game, cells, args.seed), figures,
                      max(c["games"] for c in cells), "games per configuration")
