"""The lobby's tests' tools: players, a room opener that only records, and a trivial stand-in
for the pairing's waves (neighbours in rating order), so the lobby is tested on its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chuko.server.lobby.board import Board
from chuko.server.lobby.kv import MemoryKv
from chuko.server.lobby.matchmaking import Matchmaker
from chuko.server.lobby.seeks import LobbyLimits, Standing

HOME = "192.0.2.1"  # the address the tests' seeks are posted from
QUICK = {"kind": "move", "seconds": 30, "reserve": 60}  # a pool's and a seek's clock


@dataclass(frozen=True)
class Guest:
    id: str
    name: str
    username: str | None = None


def guests(n: int) -> list[Guest]:
    return [Guest(f"p{i:03d}", f"Guest {i}") for i in range(n)]


def members(n: int) -> list[Guest]:
    """Players with an account (a username): they may play rated."""
    return [Guest(f"p{i:03d}", f"Member {i}", f"member{i}") for i in range(n)]


def pair_in_order(pool, now) -> list[tuple[str, str]]:
    """Neighbours in rating order, two by two."""
    ordered = sorted(pool, key=lambda w: (w.rating, w.player))
    return [(a.player, b.player) for a, b in zip(ordered[::2], ordered[1::2], strict=False)]


def tables_in_order(pool, now, players) -> list[tuple[list[str], int]]:
    """Neighbours in rating order, `players` by `players`; a short table with bots once all
    at it waited past their choice."""
    ordered = sorted(pool, key=lambda w: (w.rating, w.player))
    tables = []
    for start in range(0, len(ordered), players):
        table = ordered[start:start + players]
        if len(table) == players:
            tables.append(([w.player for w in table], 0))
        elif all(w.bots_after is not None and now - w.since >= w.bots_after for w in table):
            tables.append(([w.player for w in table], players - len(table)))
    return tables


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Rooms:
    """A room opener that records each pairing, names its room and seats its players in
    the pairing's order."""

    def __init__(self) -> None:
        self.made: list[dict[str, Any]] = []
        self.fail = False

    async def __call__(self, record: dict[str, Any]) -> tuple[str, list[str | None]]:
        if self.fail:
            from chuko.core.errors import ChukoError

            raise ChukoError("The database is away.")
        self.made.append(record)
        return f"room{len(self.made)}", [p["player"] for p in record["players"]]


async def rated(player: str, game: str, klass: str) -> Standing:
    rating = 1500.0 + int(player[1:]) if player[1:].isdigit() else 1500.0
    return Standing(rating, f"{rating:.0f}?")


def matchmaker(kv=None, clock=None, rooms=None, prefix="test", **options) -> Matchmaker:
    """A matchmaker on a board in memory (or on `kv`, under `prefix`) with the stand-in
    waves."""
    clock = clock or Clock()
    board = Board(kv or MemoryKv(clock), prefix, clock)
    options.setdefault("limits", LobbyLimits())
    options.setdefault("pair", pair_in_order)
    options.setdefault("fill", tables_in_order)
    return Matchmaker(board, rooms or Rooms(), rated, **options)


async def present(made: Matchmaker, players, seconds: float = 60.0) -> None:
    await made.board.touch([p.id for p in players], made.board.clock() + seconds, made.me)
