"""Whole games over the WebSocket: each of the four games against the server's bots, two
friends joined by an invite, spectators, a game of bots alone, hints and replays."""

from __future__ import annotations

import pytest
from server_helpers import new_room, play_out, random_chooser, state_at, whole_replay

from chuko.core.conformance import reveals

WHOLE_GAMES = [
    ("crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}], {"rounds": 2}),
    ("caravan", [{"kind": "me"}], {"bridges": 3}),
    ("chuko", [{"kind": "me"}, {"kind": "bot", "level": "random"},
               {"kind": "bot", "level": "hard"}], {"players": 3, "turn_limit": 300}),
    ("chuchula", [{"kind": "me"}, {"kind": "bot", "level": "easy"},
                  {"kind": "bot", "level": "hard"}], {"players": 3, "length": 2}),
]


@pytest.mark.parametrize(("game", "seats", "options"), WHOLE_GAMES, ids=[g[0] for g in WHOLE_GAMES])
def test_whole_game_against_server_bots_ends_and_replays(make_client, game, seats, options):
    client = make_client(seed=len(game))
    room = new_room(client, game, seats, **options)
    assert room["seat"] == 0 and room["invites"] == []
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        received = play_out(ws, random_chooser(7))
    final = received[-1]
    assert final["view"]["outcome"] is not None
    assert final["legal" if game != "chuchula" else "status"] in ([], "over")
    # The seat saw the bots move: versions advanced past its own moves.
    versions = [m["version"] for m in received if m["type"] == "state"]
    assert versions == sorted(versions) and versions[-1] >= 2
    assert final["result"] and final["last"].endswith(final["result"])
    replay = whole_replay(client, room["room"], room["token"])
    assert replay["game"] == game and replay["seats"][0]["name"] == "Host"
    assert len(replay["frames"]) == final["version"] + 1
    # The last caption words the last move as the finished game reveals it (a secret move
    # named), and ends, like the last sentence sent live, with the result.
    assert replay["frames"][-1]["caption"].endswith(final["result"])
    assert reveals(replay["frames"][-1]["view"], final["view"])
    assert replay["frames"][0]["caption"] == "The deal."


def test_two_friends_play_crossroads_through_an_invite(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}], first="0")
    (invite,) = room["invites"]
    assert invite["seat"] == 1 and invite["url"].startswith(f"/join/{room['room']}/")
    code = invite["url"].rsplit("/", 1)[1]
    waiting = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert waiting["status"] == "waiting" and not waiting["seats"][1]["joined"]
    assert waiting["hintable"] is False
    joined = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code}).json()
    assert joined["seat"] == 1 and joined["token"] != room["token"]
    tokens = {0: room["token"], 1: joined["token"]}
    choose = random_chooser(3)
    with client.websocket_connect(f"/ws/{room['room']}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/{room['room']}?token={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/{room['room']}") as watcher:
        sockets = {0: ws0, 1: ws1}
        version = 0
        while True:
            states = {seat: state_at(ws, version) for seat, ws in sockets.items()}
            state = states[0]
            if state["status"] == "over":
                break
            assert state["status"] == "playing"
            mover = state["view"]["to_move"][0]
            assert states[mover]["seat"] == mover and states[mover]["legal"]
            assert states[1 - mover]["legal"] == []  # not its turn
            sockets[mover].send_json({"type": "move", "move": choose(states[mover])})
            version += 1
        final_spectator = state_at(watcher, version)
        assert final_spectator["seat"] is None and final_spectator["view"]["seat"] is None
        assert "legal" in final_spectator and final_spectator["legal"] == []
    assert version == 12
    assert state["view"]["outcome"] is not None


def test_a_game_of_bots_alone_plays_itself_and_can_be_watched(make_client):
    client = make_client()
    room = new_room(client, "chuko", [{"kind": "bot", "level": "easy"},
                                      {"kind": "bot", "level": "random"}])
    assert room["seat"] is None and room["token"] is None
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        while True:
            state = watcher.receive_json()
            if state["type"] == "state" and state["status"] == "over":
                break
    assert state["seat"] is None and state["view"]["hand"] is None
    # K8: with no human the game has the bot-game turn limit.
    assert state["view"]["turn_limit"] == 1000


def test_state_snapshots_carry_the_protocol_fields_and_nothing_else(make_client):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "random"}])
    state = client.get(f"/api/rooms/{room['room']}?token={room['token']}").json()
    assert set(state) == {"type", "room", "game", "title", "seat", "spectator", "status", "seats",
                          "version", "view", "legal", "last", "result", "round_ended",
                          "bots_wait", "rematch", "simultaneous", "hints", "hintable",
                          "rated", "unrated", "clock", "claimable", "watchers"}
    assert state["spectator"] is False and state["round_ended"] is False
    assert state["unrated"] is None
    assert state["rated"] is False and state["clock"] is None and state["claimable"] == []
    assert state["bots_wait"] is None and state["rematch"] is None
    assert state["seats"][1] == {"seat": 1, "kind": "bot", "level": "random",
                                 "name": "Random bot", "connected": True, "joined": True,
                                 "gone": None, "rating": None}  # a casual room: no ratings
    assert state["seats"][0]["name"] == "Host"
    assert state["seats"][0]["connected"] is False  # no socket open yet
    assert state["title"] == "Crossroads" and state["simultaneous"] is False
    assert state["hints"] is True and state["hintable"] is True
    assert state["last"] is None and state["result"] is None  # nothing played yet


@pytest.mark.parametrize("game", ["crossroads", "caravan", "chuko", "chuchula"])
def test_hint_on_your_turn(make_client, game):
    client = make_client(seed=11)
    seats = [{"kind": "me"}] + ([{"kind": "bot", "level": "easy"}] if game != "caravan" else [])
    options = {"first": "0"} if game == "crossroads" else {}
    if game in ("chuko", "chuchula"):
        options["players"] = 2
    room = new_room(client, game, seats, **options)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = ws.receive_json()
        while not (state["type"] == "state" and 0 in state["view"]["to_move"]):
            state = ws.receive_json()
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        while hint["type"] == "state":
            hint = ws.receive_json()
    assert hint["type"] == "hint" and hint["note"]
    if game == "chuchula":
        ((grouping, label),) = hint["values"].items()
        assert grouping.count("|") == 3 and "points expected" in label
    else:
        assert set(hint["values"]) <= set(state["legal"]) and hint["values"]
    if game == "crossroads":  # how the game ends for the mover, in words
        from chuko.bots.crossroads import ending

        assert set(hint["values"].values()) <= {ending(v) for v in range(-11, 12)}
    if game == "caravan":
        from chuko.bots.caravan import LOST

        assert set(hint["values"].values()) <= {"keeps the deal winnable", "wins the deal",
                                                "loses the deal", LOST}


def test_hint_from_the_crossroads_solver_is_the_perfect_bots_value(make_client):
    """The hint's values are the solver's (ruling C4): the best value from the deal equals
    the first player's value of the fresh layout, in words."""
    from chuko.bots.crossroads import ending
    from chuko.solvers.crossroads import solve_layout

    client = make_client(seed=5)
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "perfect"}],
                    first="0")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 0)
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        while hint["type"] != "hint":
            hint = ws.receive_json()
    best = ending(solve_layout(tuple(state["view"]["layout"])))
    assert best in hint["values"].values() and hint["note"].endswith(f"your best move {best}.")
