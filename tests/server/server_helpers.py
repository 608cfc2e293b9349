"""Playing a seat over the WebSocket, for the server tests. Nothing here knows a game: a seat
plays as its game's random bot would, from the view and the legal moves it was sent."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chuko.bots import make_bot
from chuko.games import game_class


def from_address(client, host: str) -> None:
    """Make the client's next requests come from `host` (the address the server counts)."""
    client._transport.client = (host, 50000)


def new_room(client, game: str, seats: list, **options) -> dict:
    response = client.post("/api/rooms", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def random_chooser(seed: int, level: str = "random") -> Callable[[dict], str]:
    """A seat's player: the move its game's bot of `level` picks from the seat's snapshot
    (a random legal move, or one built from the view where the game lists none)."""
    rng = random.Random(seed)
    bots: dict[str, object] = {}

    def choose(state: dict) -> str:
        game = state["game"]
        bot = bots.setdefault(game, make_bot(game, level, rng))
        legal = [game_class(game).parse_move(text) for text in state.get("legal", [])]
        return str(bot.choose(state["view"], legal))

    return choose


def my_turn(state: dict) -> bool:
    return state["status"] == "playing" and state["seat"] in state["view"]["to_move"]


def play_out(ws, choose: Callable[[dict], str], limit: int = 20_000,
             until: Callable[[dict], bool] | None = None) -> list[dict]:
    """Play one seat to the end of the game (or until `until(state)` holds for a state with
    no move of the seat's on its way); every message received, in order. Fails on an error
    message.

    After each move the seat sends a ping and waits for the pong: the server answers in
    order, so the last state before the pong already holds the move, and a snapshot sent
    while the move was on its way (others moving meanwhile) never makes the seat move twice.
    """
    received: list[dict] = []
    latest: dict | None = None
    waiting = False
    for _ in range(limit):
        message = ws.receive_json()
        received.append(message)
        assert message["type"] != "error", message
        if message["type"] == "pong":
            waiting = False
        elif message["type"] == "state":
            latest = message
        if latest is None:
            continue
        if latest["status"] == "over" or (until and not waiting and until(latest)):
            return received
        if not waiting and my_turn(latest):
            ws.send_json({"type": "move", "move": choose(latest)})
            ws.send_json({"type": "ping"})
            waiting = True
    raise AssertionError("The game did not end.")


def state_at(ws, version: int) -> dict:
    """Read until a state message of at least `version` arrives."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "state" and message["version"] >= version:
            return message


def join(client, room: dict, index: int = 0, **body) -> dict:
    """Take the room's `index`th invited seat (with `body`, e.g. a name): {seat, token}."""
    code = room["invites"][index]["url"].rsplit("/", 1)[1]
    response = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code, **body})
    assert response.status_code == 200, response.text
    return response.json()


def first_message(ws) -> dict:
    """The first message of a fresh connection: the move log."""
    message = ws.receive_json()
    assert message["type"] == "log", message
    return message


def drive(sockets: dict, choose: Callable[[dict], str]) -> dict[int, dict]:
    """Play every seat in `sockets` (seat → socket; all seats people, none read from yet)
    to the end; each seat's last state."""
    version = 0
    while True:
        states = {seat: state_at(ws, version) for seat, ws in sockets.items()}
        state = next(iter(states.values()))
        if state["status"] == "over":
            return states
        mover = state["view"]["to_move"][0]
        sockets[mover].send_json({"type": "move", "move": choose(states[mover])})
        version = state["version"] + 1


def whole_replay(client, room_id: str, token: str | None = None) -> dict:
    """A finished game's replay with every frame, read page by page as a browser would."""
    query = f"&token={token}" if token else ""
    pages = [client.get(f"/api/rooms/{room_id}/replay?from=0&count=100{query}").json()]
    assert "error" not in pages[0], pages[0]
    while (got := sum(len(page["frames"]) for page in pages)) < pages[0]["total"]:
        pages.append(client.get(f"/api/rooms/{room_id}/replay?from={got}&count=100{query}")
                     .json())
        assert pages[-1]["frames"], "a page came back empty"
    return {**pages[0], "frames": [frame for page in pages for frame in page["frames"]]}


def stored_record(client, room_id: str) -> dict:
    """The game's whole record as the database keeps it: rebuilt from the room's header
    (its deal and seed) and its move log."""
    from chuko.server.rooms.lifecycle import rebuild

    state, _ = rebuild(client.app.state.hub.store.load(room_id))
    return state.record()


def start_serve(args: list[str], log: Path) -> tuple[int, subprocess.Popen]:
    """`chuko serve ARGS` on a free port, its output in `log`: the port and the process, once
    it answers (AssertionError with its log if it does not within a minute). It ends with
    the test's process, however that ends (`bench/children.py`)."""
    import httpx
    from bench.children import popen
    from bench.postgres_process import free_port

    port = free_port()
    with log.open("ab") as out:
        process = popen([sys.executable, "-m", "chuko.cli.main", "serve", "--port", str(port),
                         *args], stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200:
                return port, process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"The server did not start:\n{log.read_text()}")
