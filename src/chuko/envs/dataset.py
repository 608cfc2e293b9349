"""Training data from recorded games: every decision as the research environments see it
(docs/envs.md), one row per action, for `chuko export GAME --steps`.

A row is `game`, `game_index`, `step` (its place among the game's rows), `seat`, the
seat's `observation` and legal `mask` (its encoding's, from its view just before it acted),
the `action` it took, and `reward`, `terminated` and `truncated` as the AEC environment
gives them: 0 and False but on each seat's last row, which holds its return
(`common.returns`; 0 for a game stopped by a limit, which is truncated). A move built in
steps (Chuchula's grouping) is one row per step, in the order of its places, each with the
partial move so far in its observation and mask, as an agent building it would see them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chuko.core.encoding import Encoding
from chuko.core.protocol import Game, Json, State

from .common import load_encoding, returns


def move_actions(encoding: Encoding, move: Any, view: Json) -> list[int]:
    """The actions that make `move`: the encoding's steps of it where it builds moves in
    steps (`move_steps(move, view)`), else its one action."""
    steps = getattr(encoding, "move_steps", None)
    return list(steps(move, view)) if steps is not None else [encoding.action(move)]


def _decision(encoding: Encoding, before: State, seat: int, view: Json,
              move: Any) -> Iterator[Json]:
    """The rows of one move of `seat`, made from the position `before` it, seen as `view`."""
    partial = None
    for action in move_actions(encoding, move, view):
        yield {"seat": seat, "observation": encoding.observation(view, partial),
               "mask": encoding.legal_mask(before, seat, partial), "action": action}
        partial, _ = encoding.step_move(partial, action)


def step_rows(cls: type[Game], record: Json, index: int) -> list[Json]:
    """The rows of one recorded game (the module docstring), the engine replaying it."""
    rows: list[Json] = []
    # Each seat to act: the position just before it acts and its view there.
    before: dict[int, tuple[State, Json]] = {}
    made: list[Encoding] = []

    def observe(state: State, mover: int | None, move: Any) -> None:
        if not made:
            made.append(load_encoding(state.game))
        if mover is not None:
            position, view = before.pop(mover)
            rows.extend(_decision(made[0], position, mover, view, move))
        for seat in state.to_move:
            before[seat] = (state.copy(), state.view(seat))

    final = cls.replay(record, observe)
    outcome = final.outcome
    truncated = outcome is not None and bool(made[0].truncated(final))
    paid = [0.0] * final.game.players if outcome is None or truncated else returns(
        outcome.scores)
    last = {row["seat"]: number for number, row in enumerate(rows)}
    table = []
    for number, row in enumerate(rows):
        over = outcome is not None and last[row["seat"]] == number
        table.append({"game": cls.id, "game_index": index, "step": number, **row,
                      "reward": paid[row["seat"]] if over else 0.0,
                      "terminated": over and not truncated, "truncated": over and truncated})
    return table


def jsonable(row: Json) -> Json:
    """A row with its arrays as lists (a JSON line)."""
    return {**row, "observation": [float(x) for x in row["observation"]],
            "mask": [int(x) for x in row["mask"]]}


def steps_table(rows: list[Json], encoding: Encoding) -> Any:
    """The rows as an Arrow table (`pyarrow`, in the rl extra): identifiers and scalars as
    columns, the observation and the mask as fixed-size lists (float32, int8) that read
    back as arrays of shape (rows, size)."""
    import numpy as np
    import pyarrow as pa

    size = int(np.prod(encoding.observation_shape))
    observations = np.stack([np.asarray(r["observation"], np.float32).ravel() for r in rows]) \
        if rows else np.zeros((0, size), np.float32)
    masks = np.stack([np.asarray(r["mask"], np.int8) for r in rows]) if rows else np.zeros(
        (0, encoding.num_actions), np.int8)
    column = {name: [r[name] for r in rows] for name in (
        "game", "game_index", "step", "seat", "action", "reward", "terminated", "truncated")}
    return pa.table({
        "game": pa.array(column["game"], pa.string()),
        "game_index": pa.array(column["game_index"], pa.int64()),
        "step": pa.array(column["step"], pa.int64()),
        "seat": pa.array(column["seat"], pa.int64()),
        "observation": pa.FixedSizeListArray.from_arrays(pa.array(observations.ravel()), size),
        "mask": pa.FixedSizeListArray.from_arrays(pa.array(masks.ravel()),
                                                  encoding.num_actions),
        "action": pa.array(column["action"], pa.int64()),
        "reward": pa.array(column["reward"], pa.float64()),
        "terminated": pa.array(column["terminated"], pa.bool_()),
        "truncated": pa.array(column["truncated"], pa.bool_()),
    })
