"""Load on the web server as browsers make it, shared by `python -m bench server` and
`python -m bench soak`.

The server is a black box: `chuko serve` in a subprocess (`server_process.py`) on loopback
with a SQLite file, spoken to over HTTP (`POST /api/rooms`, `…/join`) and WebSockets as the
room page does.
Clients are asyncio coroutines on uvloop, many sockets per process, split over worker
processes forked by the caller (one per core by default), so the client side costs as
little as it can and its share is measured too.

Every client connects from its own loopback address (127.x.y.z, which Linux routes to `lo`),
a few addresses per game slot, so the server's per-address limits (rooms made, seats taken,
open rooms) stay at their defaults and are not what is measured: each address behaves like
one person. Linux only, as are the CPU and memory figures read from /proc.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from bench.children import ending_with_parent
from chuko.server.rooms.move_path import MOVE_NOT_SAVED as UNSAVED

SESSION_COOKIE = "chuko_session"
ADDRESSES_PER_SLOT = 4  # a slot makes a room from each in turn: 4 rooms/s before any 429
# The two games with two human seats that list their moves; a slot plays one kind only.
KINDS = {
    "crossroads": {"game": "crossroads", "options": {"rounds": 1}},
    "chuko": {"game": "chuko", "options": {"players": 2}},
    # Resetting whenever it may, a seat plays Chükö to the turn limit: 4,000 moves.
    "chuko-long": {"game": "chuko", "options": {"players": 2, "turn_limit": 2000}},
}
MIX = ("crossroads", "chuko")  # slot i plays MIX[i % 2]
# -- HTTP, as small as a browser's fetch: one request per connection ----------------------------

async def request(port: int, address: str, method: str, path: str,
                  body: Any = None) -> tuple[int, Any]:
    """Status and parsed JSON body of one HTTP/1.1 request from `address`."""
    status, _, answer = await exchange(port, address, method, path, body)
    return status, answer


async def exchange(port: int, address: str, method: str, path: str,
                   body: Any = None) -> tuple[int, bytes, Any]:
    """`request`'s status, the answer's head (its status and header lines) and its body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        data = b"" if body is None else json.dumps(body).encode()
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                     f"Connection: close\r\n\r\n".encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/"):  # e.g. killed as it answered (the soak's restarts)
        raise ConnectionError("The server closed the connection without an answer.")
    try:
        if b"transfer-encoding: chunked" in head.lower():
            payload = _unchunk(payload)
        return int(head.split(b" ", 2)[1]), head, json.loads(payload) if payload else None
    except ValueError:  # a body cut short
        raise ConnectionError("The server's answer was cut short.") from None


def session_headers(session: str | None) -> dict[str, str] | None:
    """A socket's headers that present the session cookie `session`, when there is one."""
    return {"Cookie": f"{SESSION_COOKIE}={session}"} if session else None


def _unchunk(data: bytes) -> bytes:
    parts: list[bytes] = []
    at = 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(parts)
        parts.append(data[end + 2:end + 2 + size])
        at = end + 4 + size


def address(slot: int, turn: int) -> str:
    """The loopback address of a slot's `turn`-th room (ADDRESSES_PER_SLOT per slot)."""
    k = slot * ADDRESSES_PER_SLOT + turn % ADDRESSES_PER_SLOT
    return f"127.{1 + k // 62_500 % 250}.{k // 250 % 250}.{k % 250 + 1}"


class Refused(Exception):
    """The server said 429 (or another refusal) to making or joining a room."""


async def new_room(port: int, addr: str, spec: dict[str, Any]) -> tuple[str, list[str]]:
    """A room of two human seats made and joined from `addr`: its id and both tokens."""
    status, made = await request(port, addr, "POST", "/api/rooms", {
        **spec, "seats": [{"kind": "me"}, {"kind": "friend"}]})
    if status != 201 and status != 200:
        raise Refused(f"{status} {made}")
    invite = made["invites"][0]["url"].rsplit("/", 1)[1]
    status, joined = await request(port, addr, "POST", f"/api/rooms/{made['room']}/join",
                                   {"invite": invite})
    if status != 200:
        raise Refused(f"{status} {joined}")
    return made["room"], [made["token"], joined["token"]]


# -- seats ----------------------------------------------------------------------------------

@dataclass
class Tally:
    """What one client process saw. `acks` are (when the ack came, seconds since the move
    was sent); `acked` maps (room, token) to {version: `last`} for every move this seat
    sent and saw acknowledged, to check later that none was lost."""

    acks: list[tuple[float, float]] = field(default_factory=list)
    games: int = 0
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    reconnects: int = 0
    lost: int = 0
    state_bytes: int = 0
    states: int = 0
    game_moves: list[int] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    messages: int = 0  # every message the seats received, of any type
    # One message of each type but states as the server sent it (the relay sends the same)
    others: dict[str, str] = field(default_factory=dict)
    finished: list[tuple[str, str]] = field(default_factory=list)  # (room, a seat's token)
    acked: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)
    # Moves refused because the game could not be saved (`Pace.retry_unsaved`): (when the
    # refusal came, seconds since the move was sent).
    unsaved: list[tuple[float, float]] = field(default_factory=list)
    # The session cookie of each seat played by its player's session rather than a token,
    # by the seat's key in `acked`.
    sessions: dict[tuple[str, str], str] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(mine, dict):
                mine.update(value)
            elif isinstance(mine, list):
                mine.extend(value)
            else:
                setattr(self, name, mine + value)


@dataclass(frozen=True)
class Pace:
    think: tuple[float, float] = (0.0, 0.0)  # seconds a seat waits before each move
    stop_at: float = float("inf")  # monotonic time after which no move is sent
    keep_acked: bool = False  # remember acked moves (the soak checks them after restarts)
    reconnect: bool = False  # reconnect when the socket drops (the soak's restarts)
    samples: int = 0  # state messages kept as the echo peer's corpus
    prefer: str = ""  # a move to make whenever it is legal (else a random one)
    # Rooms made and joined over HTTP; the echo relay also takes its sockets without.
    rooms_by_http: bool = True
    # A move refused because the game cannot be saved (the database is away) is sent again
    # after this many seconds, as a player would; 0: the refusal ends the seat like any error.
    retry_unsaved: float = 0.0
    resign_after: int = -1  # with 0 or more: the seat resigns after that many moves of its own


def lost_moves(acked: dict[int, str], lines: list[str], first: int = 0) -> int:
    """Acked moves after move `first` whose sentence is not in the page of the move log the
    server sent back (`lines[k]` is move `first + k + 1`)."""
    return sum(1 for v, last in acked.items()
               if v > first and (v > first + len(lines) or lines[v - first - 1] != last))


async def whole_log(port: int, room: str, token: str, addr: str = "127.0.0.1") -> list[str]:
    """A seat's whole move log, page by page (`GET /api/rooms/{room}/log`) from `addr`,
    waiting a moment when the server says too many pages were asked (429) or it is busy
    with others (503)."""
    lines: list[str] = []
    before = ""
    while True:
        status, page = await request(port, addr, "GET", f"/api/rooms/{room}/log?"
                                     f"token={token}&count=200{before}")
        if status in (429, 503):
            await asyncio.sleep(0.5)
            continue
        if status != 200:
            raise RuntimeError(f"The log of room {room}: {status} {page}")
        lines[:0] = page["lines"]
        if page["first"] == 0:
            return lines
        before = f"&before={page['first']}"


async def play_seat(url: str, addr: str, rng: random.Random, pace: Pace, tally: Tally,
                    key: tuple[str, str]) -> None:
    """One seat until its game is over (or `pace.stop_at`): a random legal move whenever it
    is its turn, each timed from sending it to the first state that includes it. The seat
    is the url's token's, or with none the session's of `tally.sessions[key]`."""
    acked = tally.acked.setdefault(key, {}) if pace.keep_acked else {}  # else forgotten
    cookie = session_headers(tally.sessions.get(key))
    turns = 0  # the seat's turns taken
    while True:
        try:
            async with websockets.connect(url, max_size=2**23, open_timeout=30,
                                          local_addr=(addr, 0),
                                          additional_headers=cookie) as ws:
                sent_at, moved_at, legal = 0.0, -1, []
                async for text in ws:
                    message = json.loads(text)
                    kind = message["type"]
                    tally.messages += 1
                    if pace.samples and kind != "state" and kind not in tally.others:
                        tally.others[kind] = text if isinstance(text, str) else text.decode()
                    if kind == "log":
                        tally.lost += lost_moves(acked, message["lines"], message["first"])
                        continue
                    if kind == "error":
                        if not (pace.retry_unsaved and sent_at and message["message"] == UNSAVED):
                            tally.errors.append(message["message"])
                            return
                        sent_at = await _send_again(ws, rng.choice(legal), sent_at, pace, tally)
                        continue
                    if kind != "state":
                        continue
                    tally.states += 1
                    tally.state_bytes += len(text)
                    version = message["version"]
                    if sent_at and version > moved_at:
                        now = time.monotonic()
                        tally.acks.append((now, now - sent_at))
                        acked[moved_at + 1] = message["last"]
                        sent_at = 0.0
                    if message["status"] != "playing":
                        _count_end(message, tally, key)
                        return
                    legal = message.get("legal")
                    if legal and version > moved_at:
                        if len(tally.samples) < pace.samples:
                            tally.samples.append(text if isinstance(text, str) else text.decode())
                        if pace.think[1]:
                            await asyncio.sleep(rng.uniform(*pace.think))
                        if time.monotonic() > pace.stop_at:
                            return
                        moved_at = version
                        sent_at = await _take_turn(ws, legal, rng, pace, turns)
                        turns += 1
                return
        except (OSError, websockets.WebSocketException) as error:
            if not pace.reconnect or time.monotonic() > pace.stop_at:
                tally.errors.append(f"{type(error).__name__}: {error}")
                return
            tally.reconnects += 1
            await asyncio.sleep(0.5)


async def _take_turn(ws: Any, legal: list[str], rng: random.Random, pace: Pace,
                     turns: int) -> float:
    """The seat's move (`pace.prefer` when legal, else a random one), or its resignation at
    its turn `pace.resign_after`; when a move was sent (0: none to be acknowledged)."""
    if turns == pace.resign_after:
        await ws.send('{"type": "resign"}')
        return 0.0
    sent = time.monotonic()
    move = pace.prefer if pace.prefer in legal else rng.choice(legal)
    await ws.send(json.dumps({"type": "move", "move": move}))
    return sent


async def _send_again(ws: Any, move: str, sent_at: float, pace: Pace, tally: Tally) -> float:
    """A move sent again `pace.retry_unsaved` s after the one sent at `sent_at` was refused as
    not saved; when it was sent."""
    now = time.monotonic()
    tally.unsaved.append((now, now - sent_at))
    await asyncio.sleep(pace.retry_unsaved)
    sent = time.monotonic()
    await ws.send(json.dumps({"type": "move", "move": move}))
    return sent


def _count_end(message: dict[str, Any], tally: Tally, key: tuple[str, str]) -> None:
    """A seat's state that is no longer `playing`: a game finished, counted by its seat 0."""
    if message["status"] == "over":
        tally.games += 1
        if message["seat"] == 0:
            tally.game_moves.append(message["version"])
            tally.finished.append(key)


async def play_slot(port: int, slot: int, kind: str, pace: Pace, tally: Tally, delay: float,
                    echo_moves: int = 0) -> None:
    """Game after game in one slot (a new room each time) until `pace.stop_at`. With
    `echo_moves` the peer is the echo relay, whose games are that many moves."""
    await asyncio.sleep(delay)
    rng = random.Random(slot)
    turn = 0
    while time.monotonic() < pace.stop_at:
        addr = address(slot, turn)
        turn += 1
        try:
            room, tokens = (await new_room(port, addr, KINDS[kind]) if pace.rooms_by_http
                            else (f"s{slot}g{turn}", ["0", "1"]))
        except Refused as error:
            tally.refused += 1
            if tally.refused <= 3:
                tally.errors.append(f"refused: {error}")
            await asyncio.sleep(1)
            continue
        except OSError as error:
            if not pace.reconnect:
                tally.errors.append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(1)
            continue
        query = f"&moves={echo_moves}" if echo_moves else ""
        seats = [asyncio.create_task(play_seat(
            f"ws://127.0.0.1:{port}/ws/{room}?token={token}{query}", addr,
            random.Random(rng.getrandbits(32)), pace, tally, (room, token)))
            for token in tokens]
        _, pending = await asyncio.wait(seats, timeout=pace.stop_at - time.monotonic() + 2)
        for task in pending:
            task.cancel()
        await asyncio.gather(*seats, return_exceptions=True)


def run_clients(port: int, slots: list[int], pace: Pace, start_at: float, ramp: float,
                echo_moves: int = 0) -> Tally:
    """The slots of one client process; slot starts spread evenly over `ramp` seconds."""
    import uvloop

    async def everything() -> Tally:
        tally = Tally()
        count = max(1, len(slots))
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        await asyncio.gather(*(play_slot(port, slot, MIX[slot % len(MIX)], pace, tally,
                                         ramp * n / count, echo_moves)
                               for n, slot in enumerate(slots)))
        return tally

    return uvloop.run(everything())


def fork_clients(workers: int, port: int, slots: int, pace: Pace, start_at: float,
                 ramp: float, echo_moves: int = 0) -> list[Clients]:
    """Fork `workers` client processes sharing `slots` game slots; they end with this one."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    started = []
    for w in range(workers):
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=ending_with_parent(_client_main), daemon=True, args=(
            send, port, list(range(w, slots, workers)), pace, start_at, ramp, echo_moves))
        process.start()
        send.close()
        started.append(Clients(process, receive))
    return started


@dataclass
class Clients:
    """A forked client process and the pipe its Tally comes back on."""

    process: Any
    receive: Any

    @property
    def pid(self) -> int:
        pid: int = self.process.pid
        return pid


def _client_main(send: Any, *args: Any) -> None:
    send.send(run_clients(*args))
    send.close()


def collect(clients: list[Clients]) -> Tally:
    """Every client process's Tally, merged, once they are done."""
    total = Tally()
    for client in clients:
        total.merge(client.receive.recv())
        client.process.join()
    return total


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100), nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]
