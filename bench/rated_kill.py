"""`python -m bench rated_kill`: SIGKILL to the server the moment a rated game's final state
reaches its players, `--times` times, then the count of ratings lost or doubled.

The rooms are made over HTTP (Crossroads between two invited seats, many moves each), then,
the server stopped, each is marked rated with its two seats held by accounts of its own,
written in the database directly: fresh players for every room, so that the limits on
repeated pairings and on new accounts' rated games never apply and every finished room
should be rated. For each room the server is started again, both seats play it to its end
over the room's sockets, and the server and its workers get SIGKILL on the first final
state received. A last start and stop, and the rooms are counted from the database: one
`rating_history` row per seat (applied once), none and a reason in `rooms.result`'s
`unrated` (not counted), none without a reason (lost), or more (doubled). A room still in
play after the restart lost its final move to the kill before it committed: its end was
never acknowledged to anyone (the final state comes after the commit), so that is no lost
rating, and is counted apart ("end not stored").

On SQLite (a file), a PostgreSQL of the bench's own, or two workers on that PostgreSQL and a
Redis (`--workers 2`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from websockets.sync.client import ClientConnection, connect

from bench.postgres_process import PostgresProcess
from bench.server_process import Server
from bench.serverload import address
from bench.soak_cluster import redis_server, workers
from bench.soak_rated import rated_rooms_applied

ROOM = {"game": "crossroads", "options": {"first": "0"},
        "seats": [{"kind": "me"}, {"kind": "friend"}]}
STATE_SECONDS = 30.0  # no state received in this long: the game is stuck, the run fails
POLL_SECONDS = 0.02  # how long each socket is waited on in turn


@dataclass(frozen=True)
class Room:
    id: str
    tokens: tuple[str, str]  # its two seats'


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench rated_kill", description=__doc__)
    p.add_argument("--times", type=int, default=20, help="rated rooms, one kill each")
    p.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--workers", type=int, choices=(1, 2), default=1,
                   help="2: `chuko serve --workers 2` on PostgreSQL and Redis")
    return p


@contextlib.contextmanager
def served(args: argparse.Namespace, directory: Path) -> Iterator[tuple[Server, Engine]]:
    """A server (not started) on the database asked for, and an engine on that database."""
    with contextlib.ExitStack() as stack:
        if args.db == "sqlite":
            server = Server.chuko(directory)
            engine = create_engine(f"sqlite:///{directory / 'bench.db'}")
        else:
            postgres = PostgresProcess()
            stack.callback(postgres.close)
            postgres.start()
            redis = stack.enter_context(redis_server()) if args.workers == 2 else None
            server = Server.chuko(directory, db=postgres.url, redis=redis,
                                  workers=args.workers)
            engine = create_engine(postgres.url.replace("postgresql:", "postgresql+psycopg:"))
        stack.callback(engine.dispose)
        stack.callback(server.stop)
        yield server, engine


def made_rooms(port: int, count: int) -> list[Room]:
    """`count` rooms of Crossroads, both seats taken (the second through its invite), each
    from a loopback address of its own, as players' are (an address has 20 open rooms)."""
    made = []
    for n in range(count):
        transport = httpx.HTTPTransport(local_address=address(n, 0))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport,
                          timeout=30) as client:
            room = client.post("/api/rooms", json=ROOM).json()
            if "invites" not in room:
                raise RuntimeError(f"The server refused a room: {room}")
            code = room["invites"][0]["url"].rsplit("/", 1)[1]
            friend = client.post(f"/api/rooms/{room['room']}/join",
                                 json={"invite": code}).json()
        made.append(Room(room["room"], (room["token"], friend["token"])))
    return made


def rated_between_accounts(engine: Engine, rooms: list[Room]) -> None:
    """Each room rated, its seats held by two accounts of its own (the server stopped: it
    reads a room's seats from the database when the room is next opened)."""
    stamp = time.time_ns() % 10**9
    with engine.begin() as conn:
        for n, room in enumerate(rooms):
            for seat in (0, 1):
                player = f"k{stamp}r{n}s{seat}"
                conn.execute(text(
                    "INSERT INTO players (id, username, username_key, name, created, deleted) "
                    "VALUES (:p, :p, :p, :p, :now, false)"), {"p": player, "now": time.time()})
                conn.execute(text("UPDATE seats SET player = :p WHERE room = :r AND seat = :s"),
                             {"p": player, "r": room.id, "s": seat})
            conn.execute(text("UPDATE rooms SET rated = true WHERE id = :r"), {"r": room.id})


def next_state(ws: ClientConnection) -> dict[str, Any] | None:
    """The next state a socket has received, or None if none came within POLL_SECONDS."""
    while True:
        try:
            message: dict[str, Any] = json.loads(ws.recv(timeout=POLL_SECONDS))
        except TimeoutError:
            return None
        if message["type"] == "error":
            raise RuntimeError(f"the room refused a move: {message.get('message')}")
        if message["type"] == "state":
            return message


def killed_at_the_end(server: Server, room: Room) -> int:
    """Both seats play the room to its end (each its first legal move, once for each
    version in which it is to move); SIGKILL to the server and its workers on the first
    final state either receives; the moves sent. Each socket is read as states come, not
    in turn: with two workers a seat's socket may be served by the worker that does not
    hold the room, and hear of a move later than the other."""
    url = f"ws://127.0.0.1:{server.port}/ws/{room.id}?token="
    seen, sent = [-1, -1], 0  # the latest version each seat's socket showed
    with connect(url + room.tokens[0]) as first, connect(url + room.tokens[1]) as second:
        heard = time.monotonic()
        while time.monotonic() < heard + STATE_SECONDS:
            for seat, ws in enumerate((first, second)):
                state = next_state(ws)
                if state is None:
                    continue
                heard = time.monotonic()
                if state["status"] == "over":
                    kill_all(server)
                    return sent
                fresh, seen[seat] = state["version"] > seen[seat], state["version"]
                if fresh and seat in state["view"]["to_move"] and state["legal"]:
                    ws.send(json.dumps({"type": "move", "move": state["legal"][0]}))
                    sent += 1
    raise RuntimeError(f"Room {room.id}: no state for {STATE_SECONDS:g} s, the seats' "
                       f"sockets at versions {seen}.")


def kill_all(server: Server) -> None:
    """SIGKILL to uvicorn's workers and the server's process at once, nothing flushed."""
    for pid in [server.pid, *workers(server.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.kill()  # reaps it


def run(args: argparse.Namespace) -> dict[str, object]:
    """One configuration: its rooms made, marked rated, each played and killed at its end,
    then counted after a last start."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, served(args, Path(tmp)) as (server, engine):
        server.start()
        rooms = made_rooms(server.port, args.times)
        server.stop()
        rated_between_accounts(engine, rooms)
        moves = 0
        for room in rooms:
            moves += killed_at_the_end(server.start(), room)
        server.start().stop()  # a last start: what it finds at start it applies
        applied = rated_rooms_applied(engine)
    return {"db": args.db, "workers": args.workers, "rooms": args.times, "moves": moves,
            "applied_once": applied.once, "not_counted": dict(applied.unrated),
            "lost": applied.lost, "doubled": applied.doubled,
            "end_not_stored": applied.playing, "ratings_miscounted": applied.miscounted,
            "wrong": applied.wrong, "seconds": round(time.monotonic() - began, 1),
            "load": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str]) -> None:
    args = parser().parse_args(argv)
    if args.workers == 2 and args.db != "postgres":
        parser().error("two workers share one PostgreSQL: --workers 2 needs --db postgres.")
    figures = run(args)
    print(json.dumps(figures), flush=True)
    print(f"{args.times} rated rooms killed at their final state ({args.db}, "
          f"{args.workers} worker{'s' if args.workers > 1 else ''}): applied once "
          f"{figures['applied_once']}, not counted {figures['not_counted'] or 0}, "
          f"lost {figures['lost']}, doubled {figures['doubled']}, end not stored "
          f"{figures['end_not_stored']} (its final move never acknowledged), ratings whose "
          f"games differ from their rows {figures['ratings_miscounted']}")
