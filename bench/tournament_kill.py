"""`python -m bench tournament_kill`: Swiss tournaments played on two `chuko serve` workers
sharing a PostgreSQL of the bench's own and a Redis, the worker holding the cluster's lease
(the one pairing the rounds) killed with SIGKILL once in every round, then every game
counted from the database.

Each trial is a Swiss of a few rounds made by an account over the API, entered by guests
(each named, from a loopback address of its own), started by its start time. Every player
is a thread that reads the tournament's page with its session, opens its game's socket when
the page names one, makes legal moves from the states it receives, and, in each game, one of
the two seats resigns after a few moves (the games end quickly, always with a result). A
socket closed under it (its worker killed) is opened again and play goes on from the state.

In round r the bench kills the lease holder (its pid read from the lease in Redis) at one of
the moments a leader is in the middle of a round, chosen in turn: the round just recorded
(its number moved on), its rooms being made (the first exists), a game of it ended, or every
game of it ended (the next round is due). uvicorn starts a new worker in the killed one's
place; the other takes the lease. At the end, from the database: every recorded game has its
room and no room is two games', no player sits twice in a round, each room seats the
recorded players in the recorded order and no other room seats them, every game ended, the
tournament is over after its rounds, and the standings the API gives (points and each
game's points, by player) equal those worked out here from the rooms' stored ends: every
game counted once.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from bench.postgres_process import PostgresProcess, binaries
from bench.redis_process import redis_server
from bench.server_process import Server
from bench.serverload import SESSION_COOKIE, address
from bench.soak_cluster import workers

MOMENTS = ("recorded", "making", "a game ended", "every game ended")
CLOCK = {"kind": "move", "seconds": 60, "reserve": 120}
LEASE_KEY = "chuko-server:lease"  # the cluster's default name (`cluster/workers.py`)
WAIT_SECONDS = 120.0  # a moment, a new lease holder or a tournament's end not come by then
POLL_SECONDS = 0.003  # how often the database is read while a moment is awaited
RESIGN_AFTER = (1, 3)  # a game's loser resigns once it has made this many moves, at random:
# soon, so no game ends by its play (a hand emptied), whose places the check cannot work out


class Stuck(RuntimeError):
    """Something awaited did not come in time."""


# -- the players ----------------------------------------------------------------------------

@dataclass
class Player:
    """A guest in a tournament, played by a thread: its HTTP session and the rooms played."""

    name: str
    client: httpx.Client
    port: int
    tournament: str
    rng: random.Random
    rooms: list[str] = field(default_factory=list)
    reconnects: int = 0
    refusals: list[str] = field(default_factory=list)  # the server's error sentences
    seen: dict[str, str] = field(default_factory=dict)  # by room: the latest state, in short
    error: str | None = None

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                page = _retrying(lambda: self.client.get(f"/api/tournaments/{self.tournament}"))
                if page.get("final"):
                    return
                room = (page.get("you") or {}).get("room")
                if room is not None and room not in self.rooms:
                    self.rooms.append(room)
                    self.play(room, stop)
                else:
                    time.sleep(0.2)
        except Exception as error:  # the trial reports it
            self.error = f"{self.name}: {error!r}"

    def play(self, room: str, stop: threading.Event) -> None:
        """Play the room to its end, its socket opened again whenever it closes."""
        url = f"ws://127.0.0.1:{self.port}/ws/{room}"
        cookie = f"{SESSION_COOKIE}={self.client.cookies[SESSION_COOKIE]}"
        game = Game(resigner=int(hashlib.sha256(room.encode()).digest()[0]) % 2,
                    resign_after=self.rng.randint(*RESIGN_AFTER))
        deadline = time.monotonic() + WAIT_SECONDS
        while not stop.is_set():
            if time.monotonic() > deadline:
                raise Stuck(f"room {room} did not end")
            try:
                with connect(url, additional_headers={"Cookie": cookie}) as ws:
                    game.answered = -1  # a move sent before a kill may be lost: answer again
                    while True:
                        message = json.loads(ws.recv(timeout=WAIT_SECONDS))
                        if message["type"] == "error":
                            self.refusals.append(f"{room}: {message.get('message')}")
                        if message["type"] != "state":
                            continue
                        self.seen[room] = (f"v{message['version']} {message['status']} seat "
                                           f"{message.get('seat')} legal "
                                           f"{len(message.get('legal') or [])} moved "
                                           f"{game.moved}")
                        if message["status"] == "over":
                            return
                        reply = game.answer(message, self.rng)
                        if reply is not None:
                            ws.send(json.dumps(reply))
            except (OSError, TimeoutError, WebSocketException):
                self.reconnects += 1
                time.sleep(0.2)


@dataclass
class Game:
    """One seat's play in a game: legal moves until the seat to lose (`resigner`) has made
    `resign_after`, then its resignation. Answers each state once (by its version)."""

    resigner: int
    resign_after: int
    moved: int = 0
    answered: int = -1

    def answer(self, state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        seat, version = state.get("seat"), state["version"]
        if seat is None or version <= self.answered:
            return None
        if seat == self.resigner and self.moved >= self.resign_after:
            self.answered = version
            return {"type": "resign"}
        if state.get("legal"):
            self.answered = version
            self.moved += 1
            return {"type": "move", "move": rng.choice(state["legal"])}
        return None


def _retrying(request: Callable[[], httpx.Response]) -> dict[str, Any]:
    """A request's JSON, tried again while the worker answering it is being replaced."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            response = request()
            if response.status_code < 500:
                response.raise_for_status()
                found: dict[str, Any] = response.json()
                return found
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise Stuck(f"no answer to {request}")
        time.sleep(0.2)


def _client(port: int, slot: int) -> httpx.Client:
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"X-Chuko": "1"},
                        transport=httpx.HTTPTransport(local_address=address(slot, 0)),
                        timeout=30)


# -- a trial --------------------------------------------------------------------------------

def new_tournament(port: int, trial: int, players: int, rounds: int,
                   rng: random.Random) -> tuple[str, list[Player]]:
    """A Swiss made by a new account, starting in a few seconds, and its guests entered."""
    stamp = f"{time.time_ns() % 10**8:08d}"
    maker = _client(port, 1000 + trial)
    _retrying(lambda: maker.post("/api/account/signup", json={
        "username": f"tk{stamp}", "password": "a long password"}))
    made = _retrying(lambda: maker.post("/api/tournaments", json={
        "name": f"Kill trial {trial + 1}", "system": "swiss", "game": "chuko",
        "options": {"players": 2}, "clock": CLOCK, "rated": False, "rounds": rounds,
        "starts_at": time.time() + 4}))
    maker.close()
    entered = []
    for n in range(players):
        client = _client(port, 2000 + trial * 50 + n)
        name = f"p{stamp[-4:]}x{n}"
        _retrying(lambda c=client, name=name: c.post("/api/me/name", json={"name": name}))
        _retrying(lambda c=client: c.post(f"/api/tournaments/{made['id']}/join", json={}))
        entered.append(Player(name, client, port, made["id"], random.Random(rng.random())))
    return made["id"], entered


def leader_pid(lease: redis.Redis) -> int | None:
    """The pid of the worker holding the lease (its value is `host:pid:token`), if any."""
    holder = lease.get(LEASE_KEY)
    return None if holder is None else int(holder.decode().rsplit(":", 2)[1])


def kill_leader(lease: redis.Redis, server: Server) -> int:
    """SIGKILL to the lease holder; its pid. Waits for a live holder first (after a kill,
    the lease names the dead worker until it runs out)."""
    pid = _until(lambda: _live_leader(lease, server), "a worker holding the lease")
    os.kill(pid, signal.SIGKILL)
    return pid


def _live_leader(lease: redis.Redis, server: Server) -> int | None:
    pid = leader_pid(lease)
    return pid if pid is not None and pid in workers(server.pid) else None


def _until(found: Callable[[], Any], what: str, poll: float = POLL_SECONDS) -> Any:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(poll)
    raise Stuck(f"waited {WAIT_SECONDS:g} s for {what}")


@dataclass(frozen=True)
class RoundState:
    """How far a round is: recorded, and of its games how many have rooms and are over."""

    recorded: bool
    games: int
    made: int
    over: int

    def at(self, moment: str) -> bool:
        """Whether the round is at `moment` or past it."""
        if not self.recorded or moment == "recorded":
            return self.recorded
        if moment == "making":
            return self.made > 0 or not self.games
        if moment == "a game ended":
            return self.over > 0 or not self.games
        return self.over == self.games

    def __str__(self) -> str:
        return f"{self.made}/{self.games} rooms made, {self.over} over"


def round_state(engine: Engine, tournament: str, round_: int) -> RoundState:
    with engine.connect() as conn:
        recorded = conn.execute(text("SELECT round FROM tournaments WHERE id = :t"),
                                {"t": tournament}).scalar_one() >= round_
        states = conn.execute(text(
            "SELECT r.status FROM tournament_games g LEFT JOIN rooms r ON r.id = g.room_id "
            "WHERE g.tournament = :t AND g.round = :r AND g.room_id IS NOT NULL"),
            {"t": tournament, "r": round_}).scalars().all()
    return RoundState(recorded, len(states), sum(s is not None for s in states),
                      sum(s == "over" for s in states))


def reached_at(engine: Engine, tournament: str, round_: int, moment: str) -> RoundState | None:
    """The round's state once it is at `moment`, else None."""
    state = round_state(engine, tournament, round_)
    return state if state.at(moment) else None


@dataclass
class Trial:
    """What one trial did and found."""

    tournament: str
    players: int
    kills: list[str]
    games: int = 0
    byes: int = 0
    reconnects: int = 0
    seconds: float = 0.0
    wrong: list[str] = field(default_factory=list)


def run_trial(server: Server, engine: Engine, lease: redis.Redis, trial: int, players: int,
              rounds: int, rng: random.Random) -> Trial:
    began = time.monotonic()
    tournament, entered = new_tournament(server.port, trial, players, rounds, rng)
    stop = threading.Event()
    threads = [threading.Thread(target=p.run, args=(stop,), daemon=True) for p in entered]
    for thread in threads:
        thread.start()
    done = Trial(tournament, players, [])
    try:
        for round_ in range(1, rounds + 1):
            moment = MOMENTS[(trial * rounds + round_ - 1) % len(MOMENTS)]
            reached = _until(lambda r=round_, m=moment: reached_at(engine, tournament, r, m),
                             f"round {round_} {moment}")
            kill_leader(lease, server)
            done.kills.append(f"r{round_} {moment} ({reached})")
        _until(lambda: all(not t.is_alive() for t in threads), "the tournament's end", 0.2)
    except Stuck as error:
        refused = [r for p in entered for r in p.refusals]
        seen = {p.name: p.seen.get(p.rooms[-1]) if p.rooms else None for p in entered}
        done.wrong.append(f"{error}: {describe(engine, tournament)}; refused: {refused}; "
                          f"the players' latest states: {seen}")
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)
    done.wrong += [p.error for p in entered if p.error]
    done.reconnects = sum(p.reconnects for p in entered)
    page = _retrying(lambda: entered[0].client.get(f"/api/tournaments/{tournament}"))
    for player in entered:
        player.client.close()
    found = stored(engine, tournament)
    done.games = sum(room is not None for _, room, _ in found.games)
    done.byes = len(found.games) - done.games
    done.wrong += check(found, rounds, page)
    done.seconds = round(time.monotonic() - began, 1)
    return done


def describe(engine: Engine, tournament: str) -> str:
    """The tournament's round and each game's room and status, for a trial that stuck."""
    with engine.connect() as conn:
        status, round_ = conn.execute(text(
            "SELECT status, round FROM tournaments WHERE id = :t"), {"t": tournament}).one()
        games = conn.execute(text(
            "SELECT g.round, g.room_id, g.players, r.status FROM tournament_games g "
            "LEFT JOIN rooms r ON r.id = g.room_id WHERE g.tournament = :t "
            "ORDER BY g.round, g.slot"), {"t": tournament}).all()
    return f"tournament {status} at round {round_}, games {[tuple(g) for g in games]}"


# -- the checks -----------------------------------------------------------------------------

LOST_BY_SEAT = {"resigned", "timeout", "left", "aborted"}  # an aborted game: its aborter's


@dataclass(frozen=True)
class Stored:
    """A tournament as the database holds it: its status and round, its games (round, room
    or None for a bye, players by seat), its players' names, each game's room (status and
    stored end) and the rooms seating its players (seat → player)."""

    status: str
    round: int
    games: list[tuple[int, str | None, list[str]]]
    names: dict[str, str]
    ends: dict[str, tuple[str, dict[str, Any]]]
    seated: dict[str, dict[int, str]]


def stored(engine: Engine, tournament: str) -> Stored:
    with engine.connect() as conn:
        status, round_ = conn.execute(text(
            "SELECT status, round FROM tournaments WHERE id = :t"), {"t": tournament}).one()
        games = [(g.round, g.room_id, json.loads(g.players)) for g in conn.execute(text(
            "SELECT round, room_id, players FROM tournament_games WHERE tournament = :t "
            "ORDER BY round, slot"), {"t": tournament})]
        names = dict(conn.execute(text(
            "SELECT player, name FROM tournament_players WHERE tournament = :t"),
            {"t": tournament}).all())
        ends = {row.id: (row.status, json.loads(row.result or "{}")) for row in conn.execute(
            text("SELECT id, status, result FROM rooms WHERE id = ANY(:ids)"),
            {"ids": [room for _, room, _ in games if room is not None]})}
        seated: dict[str, dict[int, str]] = {}
        for room, seat, player in conn.execute(text(
                "SELECT room, seat, player FROM seats WHERE player = ANY(:p)"),
                {"p": list(names)}):
            seated.setdefault(room, {})[seat] = player
    return Stored(status, round_, games, names, ends, seated)


def check(found: Stored, rounds: int, page: dict[str, Any]) -> list[str]:
    """Every invariant of the tournament's rows, and its standings against the rooms'
    stored ends: a sentence for each one broken."""
    wrong = []
    if found.status != "over" or found.round != rounds:
        wrong.append(f"the tournament is {found.status} at round {found.round} of {rounds}")
    room_ids = [room for _, room, _ in found.games if room is not None]
    if len(set(room_ids)) != len(room_ids):
        wrong.append("a room belongs to two games")
    for round_ in range(1, rounds + 1):
        paired = [p for r, _, players in found.games if r == round_ for p in players]
        if len(paired) != len(set(paired)):
            wrong.append(f"a player is paired twice in round {round_}")
        if not paired:
            wrong.append(f"round {round_} has no pairing")
    others = set(found.seated) - set(room_ids)
    if others:
        wrong.append(f"rooms seating the tournament's players outside its games: {others}")
    expected = {name: (sum(sheet), sheet) for name, sheet in sheets(found, wrong).items()}
    given = {line["name"]: (line["points"], line["sheet"]) for line in page["standings"]}
    if given != expected:
        wrong.append(f"the standings {given} are not those of the rooms' ends {expected}")
    return wrong


def sheets(found: Stored, wrong: list[str]) -> dict[str, list[float]]:
    """Each player's points game by game, worked out from the rooms' stored ends (a bye
    scores 1); a game whose room is missing, seats others, or has no end it can be read
    from is a sentence in `wrong`."""
    worked: dict[str, list[float]] = {name: [] for name in found.names.values()}
    for round_, room, players in found.games:
        if room is None:
            worked[found.names[players[0]]].append(1.0)
            continue
        if room not in found.ends:
            wrong.append(f"round {round_}'s game {room} has no room")
            continue
        if found.seated.get(room) != dict(enumerate(players)):
            wrong.append(f"room {room} seats {found.seated.get(room)}, not {players}")
        status, result = found.ends[room]
        if status != "over":
            wrong.append(f"round {round_}'s game {room} is {status}")
        elif result.get("kind") not in LOST_BY_SEAT:
            wrong.append(f"room {room} ended as {result}: not worked out here")
        else:
            for seat, player in enumerate(players):
                worked[found.names[player]].append(0.0 if seat == int(result["seat"]) else 1.0)
    return worked


# -- the run --------------------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench tournament_kill", description=__doc__)
    p.add_argument("--times", type=int, default=8, help="tournaments (trials)")
    p.add_argument("--players", type=int, default=5,
                   help="players in the first trial, one more in the next, and so on in turn")
    p.add_argument("--rounds", type=int, default=3, help="rounds of each, one kill each")
    p.add_argument("--seed", type=int, default=None, help="the players' moves' seed")
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    return p


@contextlib.contextmanager
def cluster(directory: Path) -> Iterator[tuple[Server, Engine, redis.Redis]]:
    """Two workers on a PostgreSQL of the bench's own (CHUKO_TEST_POSTGRES where PostgreSQL's
    binaries are not installed: its tournaments are led too) and a Redis of its own; an
    engine on the database and a client of the Redis."""
    with contextlib.ExitStack() as stack:
        if binaries() is not None:
            postgres = PostgresProcess()
            stack.callback(postgres.close)
            postgres.start()
            url = postgres.url
        else:
            url = os.environ.get("CHUKO_TEST_POSTGRES", "")
            if not url:
                raise RuntimeError("PostgreSQL is not installed and CHUKO_TEST_POSTGRES is "
                                   "not set: the bench's two workers need one.")
        redis_url = stack.enter_context(redis_server(directory))
        server = Server.chuko(directory, db=url, redis=redis_url, workers=2)
        engine = create_engine(url.replace("postgresql:", "postgresql+psycopg:"))
        lease = redis.Redis.from_url(redis_url)
        stack.callback(engine.dispose)
        stack.callback(lease.close)
        stack.callback(server.stop)
        server.start()
        yield server, engine, lease


def run(args: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    rng = random.Random(args.seed)
    began = time.monotonic()
    trials = []
    with tempfile.TemporaryDirectory() as tmp, cluster(Path(tmp)) as (server, engine, lease):
        for n in range(args.times):
            players = args.players + n % 2  # a bye a round in every other trial
            done = run_trial(server, engine, lease, n, players, args.rounds, rng)
            trials.append(done)
            say(f"trial {n + 1}: {done.players} players, {done.games} games and {done.byes} "
                f"byes in {args.rounds} rounds, leader killed at {', '.join(done.kills)}; "
                f"{done.reconnects} sockets reopened, {done.seconds} s: "
                + ("every game counted once" if not done.wrong else "; ".join(done.wrong)))
    return {"trials": len(trials), "kills": sum(len(t.kills) for t in trials),
            "games": sum(t.games for t in trials), "byes": sum(t.byes for t in trials),
            "failed_trials": sum(bool(t.wrong) for t in trials),
            "wrong": [w for t in trials for w in t.wrong],
            "reconnects": sum(t.reconnects for t in trials),
            "seconds": round(time.monotonic() - began, 1),
            "load": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str]) -> None:
    args = parser().parse_args(argv)
    if args.times < 1 or args.players < 2 or not 2 <= args.rounds <= 15 \
            or args.rounds >= args.players + args.players % 2:
        parser().error("1 trial or more, 2 players or more, 2 to 15 rounds, fewer rounds "
                       "than a Swiss without repeated opponents allows.")
    figures = run(args, (lambda _: None) if args.json else lambda line: print(line, flush=True))
    print(json.dumps(figures), flush=True)
    if not args.json:
        print(f"{figures['trials']} Swiss tournaments on two workers, the lease holder killed "
              f"{figures['kills']} times mid-round: {figures['games']} games and "
              f"{figures['byes']} byes; trials with a game miscounted or a rule broken: "
              f"{figures['failed_trials']}", flush=True)
