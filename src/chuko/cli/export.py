"""`chuko export GAME`: bots play games of any registered game and write them as data, one
row per game, as JSON lines or Parquet.

- A game row is its record (`State.record()`, which `Game.replay` rebuilds) with the bots'
  levels by seat as `bots`: the lines of `chuko simulate --jsonl`, since simulate plays
  them. Their JSON Schema ships as `chuko/data/record.schema.json`.
- With `--positions`, for games with an exact solver (a `perfect` bot level), every
  position of every game instead: the seat to move, its view, its legal moves, the
  solver's value of each (higher is better for the mover; a yes/no value is 1 or 0) and
  the move played, as supervised-learning data (`chuko/data/position.schema.json`).
- With `--steps`, for games with a research environment, every action of every game as
  the environments see it (chuko/envs/dataset.py): game, game index, step and seat, the
  observation, the legal mask, the action, the reward and the episode flags, as training
  data for learners.

Parquet (the `pyarrow` module, in the `rl` extra) keeps flat columns: a step's observation
and mask as fixed-size lists of numbers; the nested JSON of a record or a view as text in
one column, since each game's records have their own shape.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any

from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate import add_bot_game_arguments, read_bot_games, simulate
from chuko.bots import make_bot
from chuko.console import listing, say
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.games import descriptors, game_class

HELP = {"": "bots play many games and write their records (or solved positions) as data"}
FORMATS = ("jsonl", "parquet")
# The bot level that names an exact solver (docs/architecture.md, "Bots and hints").
SOLVED = "perfect"

Values = Callable[[State], Mapping[Any, Any]]


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    parser.description = (f"Bots play games of {described.title} and write each game's "
                          "replayable record, one row per game, as JSON lines or Parquet.")
    add_bot_game_arguments(parser, described, 100)
    parser.add_argument("--format", choices=FORMATS, default="jsonl",
                        help="jsonl: one JSON object a line; parquet: a table (needs the rl "
                        "extra) (default jsonl)")
    parser.add_argument("--out", metavar="FILE", help="file to write (default: standard output)")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--positions", action="store_true",
                      help="write every position with the exact solver's value of each "
                      "legal move instead of whole games (games with a perfect bot)")
    kind.add_argument("--steps", action="store_true",
                      help="write every action as training data instead of whole games: "
                      "observation, legal mask, action, reward (needs the rl extra)")


def labeller(game_id: str) -> Values | None:
    """The exact solver's value of every legal move at a position, from the game's perfect
    bot (`perfect(state)`); None when the game has no such bot."""
    if SOLVED not in game_class(game_id).descriptor.levels:
        return None
    values: Values | None = getattr(make_bot(game_id, SOLVED), SOLVED, None)
    return values


def solver_values(game: Game) -> Values:
    """`labeller` for `game`; ConfigError names the games that have one."""
    values = labeller(game.id)
    if values is None:
        solved = [d.title for d in descriptors() if labeller(d.id) is not None]
        if not solved:
            raise ConfigError(Text("{game} has no exact solver to label positions with; "
                                   "--positions is for no game installed.", game=game.title))
        raise ConfigError(Text("{game} has no exact solver to label positions with; "
                               "--positions is for {games}.", game=game.title,
                               games=listing(solved)))
    return values


def number(value: Any) -> float | int:
    """A solver's value as a number: a yes/no answer (can the deal still be won) is 1 or 0."""
    return int(value) if isinstance(value, bool) else value


def positions(cls: type[Game], record: Json, index: int, values: Values) -> list[Json]:
    """Every position of the recorded game where a seat moves, labelled with `values`, and
    the move that seat played there (the engine replays the record, re-checking it)."""
    rows: list[Json] = []
    waiting: dict[int, Json] = {}  # seat → its position whose move is still to come

    def observe(state: State, mover: int | None, move: Any) -> None:
        if mover in waiting:
            waiting.pop(mover)["played"] = str(move)
        for seat in state.to_move:
            if seat in waiting:
                continue
            solved = values(state)
            moves = state.legal_moves(seat)
            row = {"game": cls.id, "game_index": index, "ply": len(rows), "seat": seat,
                   "view": state.view(seat), "moves": [str(m) for m in moves],
                   "values": [number(solved[m]) for m in moves]}
            rows.append(row)
            waiting[seat] = row

    cls.replay(record, observe)
    return rows


class _Lines(io.StringIO):
    """Where simulate writes each game's JSON line: hands each record on as it comes."""

    def __init__(self, take: Callable[[Json], None]) -> None:
        super().__init__()
        self.take = take

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.take(json.loads(line))
        return len(text)


def _parquet_table(rows: list[Json], of_positions: bool) -> Any:
    import pyarrow as pa

    if of_positions:
        schema = pa.schema([("game", pa.string()), ("game_index", pa.int64()),
                            ("ply", pa.int64()), ("seat", pa.int64()), ("view", pa.string()),
                            ("moves", pa.list_(pa.string())), ("values", pa.list_(pa.float64())),
                            ("played", pa.string())])
        flat = [{**row, "view": json.dumps(row["view"])} for row in rows]
    else:
        schema = pa.schema([("game", pa.string()), ("index", pa.int64()),
                            ("bots", pa.list_(pa.string())), ("record", pa.string())])
        flat = [{"game": row["game"], "index": index, "bots": row["bots"],
                 "record": json.dumps({k: v for k, v in row.items() if k != "bots"})}
                for index, row in enumerate(rows)]
    return pa.Table.from_pylist(flat, schema=schema)


@contextmanager
def _opened(path: str | None, binary: bool) -> Iterator[IO[Any]]:
    if path is None:
        yield sys.stdout.buffer if binary else sys.stdout
        return
    try:
        out = open(path, "wb" if binary else "w", encoding=None if binary else "utf-8")  # noqa: SIM115
    except OSError as error:
        raise ChukoError(Text("Cannot write {path}: {reason}.", path=path,
                              reason=error.strerror)) from None
    with out:
        yield out


def _rows_of(game: Game, args: argparse.Namespace) -> Callable[[Json, int], list[Json]]:
    """What one played game becomes: its record, its solved positions or its steps."""
    cls = type(game)
    if args.positions:
        values = solver_values(game)
        return lambda record, index: positions(cls, record, index, values)
    if args.steps:
        step_rows = _steps_module().step_rows
        return lambda record, index: step_rows(cls, record, index)
    return lambda record, index: [record]


def _steps_module() -> Any:
    """chuko.envs.dataset, whose environments need the rl extra: one sentence if missing."""
    try:
        from chuko.envs import dataset
    except ImportError as missing:
        raise ConfigError(Text("--steps needs the rl extra (pip install 'chuko[rl]'): {module} "
                               "is not installed.", module=missing.name)) from None
    return dataset


def _table(game: Game, args: argparse.Namespace, rows: list[Json]) -> Any:
    if args.steps:
        dataset = _steps_module()
        return dataset.steps_table(rows, dataset.load_encoding(game))
    return _parquet_table(rows, args.positions)


def run(args: argparse.Namespace) -> int:
    game, options, lineup, budget = read_bot_games(args)
    rows_of = _rows_of(game, args)
    if args.steps:
        _steps_module().load_encoding(game)  # a game without an environment says so now
    parquet = args.format == "parquet"
    if parquet:
        import pyarrow.parquet as pq  # before any game is played: a missing extra says so now
    kept: list[Json] = []
    games = 0

    with _opened(args.out, parquet) as out:
        def take(record: Json) -> None:
            nonlocal games
            rows = rows_of(record, games)
            games += 1
            if parquet:
                kept.extend(rows)
                return
            for row in rows:
                out.write(json.dumps(_steps_module().jsonable(row) if args.steps else row)
                          + "\n")

        with progress_bar(args.games, say(Text("{game} games", game=game.title))) as advance:
            simulate(game, lineup, args.games, make_rng(args.seed),
                     options=options, budget=budget,
                     out=_Lines(take), advance=advance)
        if parquet:
            pq.write_table(_table(game, args, kept), out)
    return 0

