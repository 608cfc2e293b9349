"""Playing a seat over the WebSocket, for the server tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from chuko.core.deck52 import parse_cards
from chuko.games.chuchula import random_grouping


def new_room(client, game: str, seats: list, **options) -> dict:
    response = client.post("/api/rooms", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def random_chooser(seed: int) -> Callable[[dict], str]:
    """A seat's player: any legal move; in Chuchula a random valid grouping of the hand."""
    rng = random.Random(seed)

    def choose(state: dict) -> str:
        if state["game"] == "chuchula":
            return str(random_grouping(parse_cards(" ".join(state["view"]["hand"])), rng))
        return rng.choice(state["legal"])

    return choose


def my_turn(state: dict) -> bool:
    return state["status"] == "playing" and state["seat"] in state["view"]["to_move"]


def turn_key(state: dict) -> int:
    """What changes once the seat's move is in: the version in turn-based games; in Chuchula
    the round (other seats' commits raise the version while ours is on its way)."""
    return state["view"]["round"] if state["game"] == "chuchula" else state["version"]


def play_out(ws, choose: Callable[[dict], str], limit: int = 20_000) -> list[dict]:
    """Play one seat to the end of the game; every message received, in order. Fails on an
    error message."""
    received: list[dict] = []
    moved_at = None
    for _ in range(limit):
        message = ws.receive_json()
        received.append(message)
        assert message["type"] != "error", message
        if message["type"] != "state":
            continue
        if message["status"] == "over":
            return received
        if my_turn(message) and turn_key(message) != moved_at:
            moved_at = turn_key(message)
            ws.send_json({"type": "move", "move": choose(message)})
    raise AssertionError("The game did not end.")


def state_at(ws, version: int) -> dict:
    """Read until a state message of at least `version` arrives."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "state" and message["version"] >= version:
            return message
