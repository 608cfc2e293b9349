"""The two-worker soak's rated games: slots that play, game after game, a rated room between
two accounts made for it, paired through the lobby as people are, and the check afterwards
that every finished rated room's result was applied exactly once.

Each game: two fresh accounts (`POST /api/account/signup`, from a loopback address of the
game's own, so that neither the sign-ups' bucket of 5 per address nor the limits on rated
play of new accounts and repeated pairings get in the way), one posting a rated seek with a
clock over `/lobby/ws` and the other accepting it; both then play the room their session
holds like the soak's other seats (`serverload.play_seat`, by the session's cookie), but
for a quarter of the games, in which the poster resigns early (`RESIGNING`).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import websockets
from sqlalchemy import text
from sqlalchemy.engine import Engine

from bench.children import ending_with_parent
from bench.serverload import (
    KINDS,
    MIX,
    SESSION_COOKIE,
    Clients,
    Pace,
    Refused,
    Tally,
    address,
    exchange,
    lost_moves,
    play_seat,
    session_headers,
    whole_log,
)
from bench.soak_abuse import ABUSE_SLOT

RATED_SLOT = 3_000_000  # far from the other slots' addresses
GAMES_PER_SLOT = 1_000  # the addresses a rated slot may take, one a game
PASSWORD = "soak-rated-password"
CLOCK = {"kind": "move", "seconds": 30, "reserve": 60}  # one of the lobby's seek clocks
PAIRING_SECONDS = 30.0  # a seek not taken in this long is given up (a worker killed)
# Of each RESIGN_CYCLE games of a slot, those whose poster resigns, after how many moves of
# its own: before the game's second move (the game is aborted), and after one (too few
# moves to count). Both end rated rooms that change no rating, and say why.
RESIGN_CYCLE, RESIGNING = 8, {1: 0, 5: 1}


async def signed_up(port: int, addr: str, username: str) -> str:
    """A new account's session cookie."""
    status, head, body = await exchange(port, addr, "POST", "/api/account/signup",
                                        {"username": username, "password": PASSWORD})
    if status != 201:
        raise Refused(f"sign-up {status} {body}")
    for line in head.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie" and value.strip().startswith(SESSION_COOKIE + "="):
            return value.strip().split(";", 1)[0].split("=", 1)[1]
    raise Refused("sign-up answered without a session cookie")


async def lobby_message(ws: Any, kind: str, test: Any = None) -> dict[str, Any]:
    """The next message of `kind` from a socket, the lobby's or a room's (that passes
    `test`); an error is a refusal."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "error":
            raise Refused(f"lobby: {message['message']}")
        if message["type"] == kind and (test is None or test(message)):
            return message


async def paired(port: int, addr: str, sessions: list[str], spec: dict[str, Any]) -> str:
    """The rated room of a seek posted by the first session and accepted by the second."""
    url = f"ws://127.0.0.1:{port}/lobby/ws"
    sockets = [websockets.connect(url, local_addr=(addr, 0),
                                  additional_headers=session_headers(session))
               for session in sessions]
    async with sockets[0] as poster, sockets[1] as taker:
        await lobby_message(poster, "you")
        await poster.send(json.dumps({"type": "seek", "rated": True, "range": None,
                                      "clock": CLOCK, **spec}))
        posted = await lobby_message(poster, "you", lambda m: m["seeks"])
        await lobby_message(taker, "you")
        await taker.send(json.dumps({"type": "accept", "seek": posted["seeks"][0]}))
        rooms = [(await lobby_message(ws, "paired"))["room"] for ws in (poster, taker)]
    if rooms[0] != rooms[1]:
        raise Refused(f"the seek's two players were paired into {rooms}")
    return str(rooms[0])


async def session_log(port: int, room: str, session: str, addr: str) -> list[str]:
    """The whole move log of the seat a session holds, from the room's socket (the log the
    socket sends on connecting, then earlier pages asked for): the log pages over HTTP know
    a seat by its token only."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{room}", local_addr=(addr, 0),
                                  additional_headers=session_headers(session),
                                  max_size=2**23) as ws:
        page = await lobby_message(ws, "log")
        lines = page["lines"]
        while page["first"] > 0:
            await ws.send(json.dumps({"type": "log", "before": page["first"], "count": 200}))
            page = await lobby_message(ws, "log", lambda m: "before" in m)
            lines[:0] = page["lines"]
    return list(lines)


async def rated_slot(port: int, slot: int, pace: Pace, tally: Tally, delay: float) -> None:
    """Rated game after game in one slot until `pace.stop_at`, each between two new
    accounts from an address of its own."""
    await asyncio.sleep(delay)
    rng = random.Random(RATED_SLOT + slot)
    for n in range(GAMES_PER_SLOT):
        if time.monotonic() >= pace.stop_at:
            return
        addr = address(RATED_SLOT + slot * GAMES_PER_SLOT + n, 0)
        names = [f"r{slot}g{n}{side}" for side in "ab"]
        try:
            sessions = [await signed_up(port, addr, name) for name in names]
            room = await asyncio.wait_for(
                paired(port, addr, sessions, KINDS[MIX[(slot + n) % len(MIX)]]),
                PAIRING_SECONDS)
        except (Refused, OSError, TimeoutError, websockets.WebSocketException) as error:
            tally.refused += 1
            tally.errors.append(f"rated: {type(error).__name__}: {error}")
            await asyncio.sleep(1)
            continue
        for name, session in zip(names, sessions, strict=True):
            tally.sessions[(room, name)] = session
        paces = [replace(pace, resign_after=RESIGNING.get(n % RESIGN_CYCLE, -1)), pace]
        seats = [asyncio.create_task(play_seat(
            f"ws://127.0.0.1:{port}/ws/{room}", addr, random.Random(rng.getrandbits(32)),
            seat_pace, tally, (room, name))) for name, seat_pace in zip(names, paces,
                                                                         strict=True)]
        _, pending = await asyncio.wait(seats, timeout=pace.stop_at - time.monotonic() + 2)
        for task in pending:
            task.cancel()
        await asyncio.gather(*seats, return_exceptions=True)


def _rated_main(send: Any, port: int, slots: int, pace: Pace, start_at: float,
                ramp: float) -> None:
    import uvloop

    async def everything() -> Tally:
        tally = Tally()
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        await asyncio.gather(*(rated_slot(port, slot, pace, tally, ramp * slot / slots)
                               for slot in range(slots)))
        return tally

    send.send(uvloop.run(everything()))
    send.close()


def fork_rated(port: int, slots: int, pace: Pace, start_at: float, ramp: float) -> Clients:
    """A client process of `slots` rated slots, started over `ramp` seconds; it ends with
    this one."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=ending_with_parent(_rated_main), daemon=True,
                              args=(send, port, slots, pace, start_at, ramp))
    process.start()
    send.close()
    return Clients(process, receive)


@dataclass
class Applied:
    """The rated rooms as the database has them after the soak."""

    finished: int = 0
    once: int = 0  # one rating_history row per seat
    unrated: Counter[str] = field(default_factory=Counter)  # no row, and the reason stored
    wrong: list[str] = field(default_factory=list)  # any other count of rows: lost or doubled
    lost: int = 0  # of `wrong`: fewer rows than seats, and no reason
    doubled: int = 0  # of `wrong`: more rows than seats, or rows and a reason
    playing: int = 0  # not over when the soak stopped
    # Ratings whose count of games is not their rating_history rows: applied twice or lost
    miscounted: int = 0
    ended_at: dict[str, float] = field(default_factory=dict)  # finished rooms' `rooms.ended`


def rated_rooms_applied(engine: Engine) -> Applied:
    """Every rated room's ratings: each finished one must have one `rating_history` row
    per seat, or none and the reason it did not count in its `result`."""
    applied = Applied()
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT r.id, r.status, r.result, r.ended, "
            "(SELECT count(*) FROM seats s WHERE s.room = r.id), "
            "(SELECT count(*) FROM rating_history h WHERE h.room = r.id) "
            "FROM rooms r WHERE r.rated")).all()
        applied.miscounted = conn.execute(text(
            "SELECT count(*) FROM ratings g WHERE g.games <> (SELECT count(*) FROM "
            "rating_history h WHERE h.player = g.player AND h.game = g.game "
            "AND h.class = g.class)")).scalar_one()
    for room, status, result, ended, seats, rows_applied in rows:
        if status != "over":
            applied.playing += 1
            continue
        applied.finished += 1
        applied.ended_at[room] = ended
        reason = json.loads(result or "{}").get("unrated")
        if rows_applied == seats and not reason:
            applied.once += 1
        elif rows_applied == 0 and reason:
            applied.unrated[reason] += 1
        else:
            if rows_applied < seats and not reason:
                applied.lost += 1
            else:
                applied.doubled += 1
            applied.wrong.append(f"{room}: {rows_applied} rows for {seats} seats, "
                                 f"unrated {reason!r}")
    return applied


async def check_acked(port: int, tally: Tally) -> int:
    """Acknowledged moves missing from (or worded otherwise in) each seat's move log."""
    gate = asyncio.Semaphore(8)  # within the queue of the server's pool for costly work

    async def one(n: int, room: str, token: str, moves: dict[int, str]) -> int:
        async with gate:  # from addresses of its own, each within the log pages' bucket
            addr = address(ABUSE_SLOT + 10_000 + n // 20, 0)
            session = tally.sessions.get((room, token))
            return lost_moves(moves, await (session_log(port, room, session, addr) if session
                                            else whole_log(port, room, token, addr)))

    lost = await asyncio.gather(*(one(n, room, token, moves) for n, ((room, token), moves)
                                  in enumerate(tally.acked.items()) if moves))
    return sum(lost)
