"""Every number a client sends is hostile: NaN, ±Infinity, 0, negative, huge (1e308, 10**30)
and true (a bool is no number), posted to every numeric field of every HTTP request and
socket message the server reads, and to a text field of every other request that reads a
body. Each is refused with one sentence (4xx `{error}`, or an `error` message) or, where the
value is legitimately taken, answered cleanly; never a 500, never a crash, and the server
goes on answering. NaN and ±Infinity in JSON are refused by the one parser every body and
message goes through, with its own sentence, before any field is read.

The table below is the list of fields: a reviewer reads it to see what is covered."""

from __future__ import annotations

import itertools
import json
import random
import warnings
from dataclasses import dataclass
from string import Template

import pytest
from lobby_helpers import Guest
from server_helpers import state_at
from sqlalchemy import func, select

from chuko.practice.daily import facts_for, today
from chuko.server import create_app
from chuko.server.shared.limits import Buckets, Limits, Rate
from chuko.server.shared.messages import NOT_FINITE
from chuko.server.store.database import Store
from chuko.server.store.schema import rooms
from club_seed import add_player

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

# The hostile numbers, as JSON text (and as a query's text).
VALUES = {"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity", "zero": "0",
          "negative": "-1", "1e308": "1e308", "10**30": str(10**30), "true": "true",
          "1e999": "1e999"}  # (past a float's range: Python's json reads it as Infinity)
NON_FINITE = ("NaN", "Infinity", "-Infinity", "1e999")
NUMBERS = tuple(name for name in VALUES if name != "true")
SAID = {"X-Chuko": "1"}  # a POST that says it comes from the app's pages
_PLAYERS = itertools.count()


@dataclass(frozen=True)
class Field:
    """One field a client sends: `kind` is "POST" (`address` and its JSON `body`), "GET"
    (the value in `address`'s query or path), "room" (a message on the finished room's
    socket) or "lobby" (a message on the lobby's socket); `$value` marks where the hostile
    number goes, `$finished`, `$playing`, `$invite` and `$line` what the world holds.
    `takes` names the values legitimately accepted (2xx, or the message's answer);
    `values` those sent (a boolean field's `true` is its own kind, not a hostile number)."""

    kind: str
    address: str
    body: str = ""
    takes: tuple[str, ...] = ()
    values: tuple[str, ...] = tuple(VALUES)

    def __str__(self) -> str:
        return f"{self.kind} {self.address} {self.body}".strip()


ROOMS = "/api/rooms"
CARAVAN_ME = '"seats": [{"kind": "me"}]'
DUEL_BOT = '"seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]'
FIELDS = [
    # A room's options (every int option of every game, a pack's card) and its clock.
    Field("POST", ROOMS, '{"game": "caravan", "options": {"bridges": $value}, '
          + CARAVAN_ME + "}", takes=("zero",)),
    Field("POST", ROOMS, '{"game": "chuko", "options": {"turn_limit": $value}, '
          + DUEL_BOT + "}", takes=("zero",)),
    Field("POST", ROOMS, '{"game": "chuko", "options": {"players": $value}, ' + DUEL_BOT + "}"),
    Field("POST", ROOMS, '{"game": "chuko", "options": {"pack": [$value]}, ' + DUEL_BOT + "}"),
    Field("POST", ROOMS, '{"game": "chuchula", "options": {"players": $value}, '
          + DUEL_BOT + "}"),
    Field("POST", ROOMS, '{"game": "chuchula", "options": {"length": $value}, '
          + DUEL_BOT + "}"),
    Field("POST", ROOMS, '{"game": "crossroads", "options": {"rounds": $value}, '
          + DUEL_BOT + "}"),
    Field("POST", ROOMS, '{"game": "crossroads", ' + DUEL_BOT
          + ', "clock": {"kind": "move", "seconds": $value}}'),
    Field("POST", ROOMS, '{"game": "crossroads", ' + DUEL_BOT
          + ', "clock": {"kind": "move", "seconds": 30, "reserve": $value}}', takes=("zero",)),
    Field("POST", ROOMS, '{"game": "crossroads", ' + DUEL_BOT
          + ', "clock": {"kind": "days", "days": $value}}'),
    # The daily's time is the server's: the page's `seconds` is ignored.
    Field("POST", "/api/daily/result", '{"moves": $line, "seconds": $value}',
          takes=("zero", "negative", "1e308", "10**30", "true")),
    # Text fields of every other request that reads a body: a number is no text.
    Field("POST", "/api/daily/play", '{"moves": $value}'),
    Field("POST", "/api/daily/play", '{"date": $value, "moves": []}'),
    Field("POST", "/api/rooms/$playing/join", '{"invite": $value}'),
    Field("POST", "/api/rooms/$playing/join", '{"invite": "$invite", "name": $value}'),
    Field("POST", "/api/rooms/$finished/rematch", '{"token": $value}'),
    Field("POST", "/api/rooms/$finished/follow", '{"token": $value}'),
    Field("POST", "/api/me/name", '{"name": $value}'),
    Field("POST", "/api/account/signup", '{"username": $value, "password": "a long secret"}'),
    Field("POST", "/api/puzzles/try", '{"id": $value, "move": "BR"}'),
    Field("POST", "/api/lessons/caravan/1", '{"move": $value}'),
    # A lesson's step in the address.
    Field("POST", "/api/lessons/caravan/$value", "{}"),
    # Pages of a room's history, of a leaderboard and of a player's games.
    Field("GET", "/api/rooms/$finished/replay?from=$value", takes=("zero", "10**30")),
    Field("GET", "/api/rooms/$finished/replay?count=$value", takes=("10**30",)),
    Field("GET", "/api/rooms/$finished/replay?captions=1&count=$value", takes=("10**30",)),
    Field("GET", "/api/rooms/$finished/log?before=$value", takes=("zero", "10**30")),
    Field("GET", "/api/rooms/$finished/log?count=$value", takes=("10**30",)),
    Field("GET", "/api/leaderboard/crossroads?count=$value", takes=("10**30",)),
    Field("GET", "/api/players/ann/games?count=$value", takes=("10**30",)),
    # A room's socket.
    Field("room", '{"type": "log", "before": $value}', takes=("zero", "10**30")),
    Field("room", '{"type": "log", "count": $value}', takes=("10**30",)),
    Field("room", '{"type": "move", "move": $value}'),
    Field("room", '{"type": "say", "phrase": $value}'),
    # The lobby's socket.
    Field("lobby", '{"type": "pool", "pool": "chuchula/four", "bots_after": $value}'),
    Field("lobby", '{"type": "seek", "game": "chuko", "range": [$value, 4000]}',
          takes=("zero",)),
    Field("lobby", '{"type": "seek", "game": "chuko", "range": [0, $value]}',
          takes=("zero",)),
    Field("lobby", '{"type": "seek", "game": "chuko", "options": {"turn_limit": $value}}',
          takes=("zero",)),
    Field("lobby", '{"type": "seek", "game": "chuko", "rated": $value}', values=NUMBERS),
    Field("lobby", '{"type": "seek", "game": "chuko", "clock": {"kind": "move", '
          '"seconds": $value, "reserve": 30}}'),
    Field("lobby", '{"type": "seek", "game": "chuko", "clock": {"kind": "move", '
          '"seconds": 10, "reserve": $value}}'),
    Field("lobby", '{"type": "seek", "game": "chuko", "clock": {"kind": "days", '
          '"days": $value}}'),
    Field("lobby", '{"type": "pool", "pool": "chuko/duel", "clock": {"kind": "move", '
          '"seconds": $value, "reserve": 30}}'),
    Field("lobby", '{"type": "seeks", "before": $value}'),  # a cursor is text
    Field("GET", "/api/lobby?before=$value"),
    Field("lobby", '{"type": "accept", "seek": $value}'),
    Field("lobby", '{"type": "cancel", "seek": $value}'),
]
# NaN at every field in make test-fast; every other value too in make test (seconds in all).
CASES = [pytest.param(field, name, id=f"{field} {name}",
                      marks=() if name == "NaN" else pytest.mark.slow)
         for field in FIELDS for name in field.values]

# Generous enough that no bucket refuses the table's requests in place of the field.
ROOMY = Limits(rooms=Rate(1000, 1000), seats=Rate(1000, 1000), guests=Rate(1000, 1000),
               connects=Rate(1000, 1000), replay_pages=Rate(1000, 1000),
               replay_pages_per_room=Rate(1000, 1000), log_pages=Rate(1000, 1000),
               log_pages_per_room=Rate(1000, 1000), signups=Rate(1000, 1000),
               open_rooms_per_address=1000)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A server with what the table's fields need: a finished room (a bot's Caravan), a room
    waiting for a friend (its invite), an account, and a session served today's daily (and
    the deal's winning line, to finish it)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hostile')}/chuko.db"
    store = Store(url)
    add_player(store.engine, "ann", "Ann")
    store.close()
    with TestClient(create_app(url, rng=random.Random(1), bot_delay=0, round_pause=0,
                               limits=ROOMY)) as client:
        client.headers.update(SAID)
        finished = client.post(ROOMS, json={"game": "caravan", "seats": [
            {"kind": "bot", "level": "random"}]}).json()["room"]
        with client.websocket_connect(f"/ws/{finished}") as ws:
            while state_at(ws, 0)["status"] != "over":
                pass
        playing = client.post(ROOMS, json={"game": "crossroads", "seats": [
            {"kind": "me"}, {"kind": "friend"}]}).json()
        client.post("/api/me", json={})
        client.get("/api/daily")  # the session is served today's deal: its time starts
        line = [str(move) for move in facts_for(today()).line]
        lobby = client.app.state.lobby.sockets
        lobby.identify = _player_of_header
        lobby.opened = Buckets(Rate(1000, 1000))
        yield client, {"finished": finished, "playing": playing["room"],
                       "invite": playing["invites"][0]["url"].rsplit("/", 1)[1],
                       "line": json.dumps(line)}


async def _player_of_header(scope):
    """The lobby's player named by a test header: a fresh one per case, with fresh buckets."""
    player = dict(scope["headers"]).get(b"x-test-player", b"").decode()
    return Guest(player, player.title()) if player else None


def _sentence(text: object) -> bool:
    return isinstance(text, str) and len(text) > 3 and text.rstrip().endswith((".", "!", "?"))


@pytest.mark.parametrize(("field", "name"), CASES)
def test_every_numeric_field_refuses_hostile_numbers_with_a_sentence(world, field, name):
    client, ids = world
    value = VALUES[name]
    if field.kind in ("POST", "GET"):
        stored = _rooms_stored(client)
        status, answer = _ask(client, field, ids, value)
        assert status != 500
        if name in field.takes:
            assert 200 <= status < 300, answer
        else:
            assert 400 <= status < 500 and _sentence(answer.get("error")), (status, answer)
            assert _rooms_stored(client) == stored  # refused: no room made
            if name in NON_FINITE and "$value" in field.body:
                assert answer["error"] == NOT_FINITE
    else:
        reply = _message(client, field, ids, value)
        if name in field.takes:
            assert reply["type"] != "error", reply
        else:
            assert reply["type"] == "error" and _sentence(reply["message"]), reply
            if name in NON_FINITE:
                assert reply["message"] == NOT_FINITE
    assert client.get("/api/games").status_code == 200  # the server goes on answering


def _rooms_stored(client) -> int:
    count = select(func.count()).select_from(rooms)
    return int(client.app.state.hub.store.read(lambda conn: conn.execute(count).scalar()))


def _ask(client, field: Field, ids: dict, value: str) -> tuple[int, dict]:
    address = Template(field.address).substitute(ids, value=value)
    if field.kind == "GET":
        response = client.get(address)
    else:
        body = Template(field.body).substitute(ids, value=value)
        response = client.post(address, content=body.encode(),
                               headers={"content-type": "application/json"})
    return response.status_code, response.json()


def _message(client, field: Field, ids: dict, value: str) -> dict:
    """The first answer to the field's message other than the lists and states every socket
    is sent (the socket then still answers a ping)."""
    text = Template(field.address).substitute(ids, value=value)
    if field.kind == "room":
        opened = client.websocket_connect(f"/ws/{ids['finished']}")
        first, passing = "state", ("state",)
    else:
        player = f"hostile{next(_PLAYERS)}"  # fresh buckets
        opened = client.websocket_connect("/lobby/ws", headers={"x-test-player": player})
        first, passing = "you", ("lobby", "update")
    with opened as ws:
        while ws.receive_json()["type"] != first:
            pass
        ws.send_text(text)
        ws.send_text('{"type": "ping"}')
        replies = [ws.receive_json()]
        while replies[-1]["type"] != "pong":
            replies.append(ws.receive_json())
    answers = [reply for reply in replies[:-1] if reply["type"] not in passing]
    return answers[0] if answers else {"type": "no answer"}
