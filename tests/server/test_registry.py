"""The server knows no game by name: every game comes from the registry and its descriptor —
the list the home page reads, the rules, the rooms' options, seats and bot levels, the
sentences about moves and results, and the replays. Checked over every registered game
(the toy plug-in included), and by reading the server's source."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from server_helpers import (
    new_room,
    play_out,
    random_chooser,
    state_at,
    stored_record,
    whole_replay,
)

import chuko.server
from chuko.core.conformance import reveals
from chuko.games import descriptor, descriptors, game_class, game_ids

SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


def test_the_server_source_names_no_game():
    """No string literal in chuko/server (docstrings included) is a registered game's id,
    so no branch there can depend on which game a room plays."""
    ids = set(game_ids())
    found = []
    for path in sorted(Path(chuko.server.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ids:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []


def test_games_lists_every_registered_game_as_its_descriptor_says(make_client):
    games = make_client().get("/api/games").json()
    assert [g["id"] for g in games] == game_ids()
    assert games == [described.to_json() for described in descriptors()]
    for game in games:
        described = descriptor(game["id"])
        assert game["levels"] == list(described.levels) and game["levels"]
        assert [o["name"] for o in game["options"]] == [o.name for o in described.options]
        assert game["title"] and game["summary"]


def test_games_give_each_option_what_a_form_needs(make_client):
    games = {g["id"]: g for g in make_client().get("/api/games").json()}
    caravan = {o["name"]: o for o in games["caravan"]["options"]}
    assert {k: caravan["bridges"][k] for k in ("label", "kind", "default", "min", "max")} == {
        "label": "Bridges", "kind": "int", "default": 2, "min": 0, "max": 11}
    assert caravan["pack"]["kind"] == "pack" and "standard" in caravan["pack"]["choices"]
    assert games["crossroads"]["levels"] == ["random", "easy", "hard", "perfect"]
    assert games["chuchula"]["simultaneous"] is True
    assert games["chuchula"]["lists_moves"] is False


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_of_every_game_are_served_as_markdown(make_client, game_id):
    client = make_client()
    rules = client.get(f"/api/games/{game_id}/rules")
    assert rules.status_code == 200, rules.text
    body = rules.json()
    assert set(body) == {"id", "title", "markdown"}
    assert body["id"] == game_id and body["title"] == descriptor(game_id).title
    assert body["markdown"].startswith("#")


def test_rules_of_an_unknown_or_unreadable_game_are_a_sentence(make_client, monkeypatch):
    client = make_client()
    unknown = client.get("/api/games/poker/rules")
    assert unknown.status_code == 404
    assert unknown.json()["error"].startswith("There is no game 'poker'")

    def missing(game_id, lang=None):
        raise FileNotFoundError(game_id)

    monkeypatch.setattr("chuko.server.web.rooms_api.rules_text", missing)
    gone = client.get("/api/games/caravan/rules")
    assert gone.status_code == 404
    assert gone.json() == {"error": "The rules of Caravan are missing from this installation."}


def test_the_rules_page_is_served_for_registered_games_only(tmp_path, make_client):
    (tmp_path / "rules.html").write_text("<!doctype html><title>rules</title>")
    client = make_client(static_dir=tmp_path)
    for game_id in game_ids():
        page = client.get(f"/rules/{game_id}")
        assert page.status_code == 200 and "<title>rules</title>" in page.text
    assert client.get("/rules/poker").status_code == 404


def first_int_option(game_id: str):
    return next((o for o in descriptor(game_id).options if o.kind == "int"), None)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_rooms_bad_options_are_refused_in_one_sentence(make_client, game_id):
    client = make_client()
    seats = [{"kind": "me"}]
    refusals = [client.post("/api/rooms", json={
        "game": game_id, "options": {"colour": "red"}, "seats": seats})]
    option = first_int_option(game_id)
    if option is not None:
        refusals.append(client.post("/api/rooms", json={
            "game": game_id, "options": {option.name: "two"}, "seats": seats}))
    for refusal in refusals:
        assert refusal.status_code == 400
        sentence = refusal.json()["error"]
        assert sentence.endswith(".") and "\n" not in sentence
        assert sentence.count(". ") == 0, sentence  # one sentence
    assert "no option 'colour'" in refusals[0].json()["error"]
    if option is not None:
        refused = refusals[1].json()["error"]
        assert refused.startswith(f"{option.label} must be a whole number") and "'two'" in refused


def test_a_room_needs_as_many_seats_as_its_game_has_players(make_client):
    refusal = make_client().post("/api/rooms", json={
        "game": "chuko", "options": {"players": 3},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    assert refusal.json() == {"error": "This Chükö game has 3 seats, but 2 were given."}


def test_seats_are_named_host_friend_and_bots_and_told_apart(make_client):
    client = make_client()
    room = new_room(client, "chuko", [
        {"kind": "bot", "level": "easy"}, {"kind": "me"}, {"kind": "friend"},
        {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}], players=5)
    state = client.get(f"/api/rooms/{room['room']}").json()
    assert [s["name"] for s in state["seats"]] == [
        "Easy bot 1", "Host", "Friend", "Easy bot 2", "Hard bot"]
    assert state["title"] == "Chükö" and state["hints"] is True
    assert state["hintable"] is False  # a second human plays


def play_as(seats: dict[int, object], until: int = 5_000) -> dict[int, list[dict]]:
    """Drive every socket in `seats` (seat → socket) to the end; all the state messages
    each received, per seat."""
    seen: dict[int, list[dict]] = {seat: [] for seat in seats}
    for version in range(until):
        states = {seat: state_at(socket, version) for seat, socket in seats.items()}
        for seat, state in states.items():
            seen[seat].append(state)
        if states[0]["status"] == "over":
            return seen
        mover = states[0]["view"]["to_move"][0]
        seats[mover].send_json({"type": "move", "move": states[mover]["legal"][0]})
    raise AssertionError("The game did not end.")


def test_last_and_result_say_you_to_the_mover_and_a_name_to_others(make_client):
    client = make_client(seed=3)
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "friend"}], first="0")
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    friend = client.post(f"/api/rooms/{room['room']}/join", json={"invite": code}).json()
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={room['token']}") as host, \
            client.websocket_connect(f"{base}?token={friend['token']}") as guest, \
            client.websocket_connect(base) as watcher:
        seen = play_as({0: host, 1: guest})
        watched = state_at(watcher, seen[0][-1]["version"])
    names = {0: "Host", 1: "Friend"}
    for seat, states in seen.items():
        assert states[0]["last"] is None and states[0]["result"] is None
        for before, state in zip(states, states[1:], strict=False):
            mover = before["view"]["to_move"][0]
            assert state["last"].startswith("You" if mover == seat else names[mover])
            assert not SEAT_NUMBER.search(state["last"])
    finals = {seat: states[-1] for seat, states in seen.items()}
    winners = finals[0]["view"]["outcome"]["winners"]
    for seat, final in finals.items():
        assert final["result"] and not SEAT_NUMBER.search(final["result"])
        assert final["last"].endswith(final["result"])  # the last move's sentence ends the game
        if winners:
            (winner,) = winners
            assert final["result"].startswith("You won" if winner == seat else names[winner])
    assert watched["result"] and "You" not in watched["result"] + watched["last"]


def test_a_bot_is_named_by_its_level_in_every_sentence(make_client):
    client = make_client(seed=2)
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                    first="1")
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 1)
    assert state["last"].startswith("Easy bot")


@pytest.mark.parametrize("game_id", game_ids())
def test_replay_frames_are_the_views_and_sentences_each_seat_saw(make_client, game_id):
    """Every registered game, its first example configuration, one person (playing as that
    game's weakest bot would) against its weakest bots: the replay shows the person and a
    spectator the views they were sent live, with every hidden card added now that the game
    is over, and the engine's sentences with every secret move named; the `last` sentences
    sent live were the engine's sentences of the same moves as the seat knew them."""
    described = descriptor(game_id)
    options = dict(described.examples[0])
    players = game_class(game_id).from_options(options).players
    if "turn_limit" in {o.name for o in described.options}:
        options["turn_limit"] = 200  # a short game, whatever the example's limit
    level = described.levels[0]
    client = make_client(seed=6)
    room = new_room(client, game_id, [{"kind": "me"}]
                    + [{"kind": "bot", "level": level}] * (players - 1), **options)
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={room['token']}") as ws, \
            client.websocket_connect(base) as watcher:
        played = [m for m in play_out(ws, random_chooser(1, level)) if m["type"] == "state"]
        final = played[-1]
        watched = [state_at(watcher, 0)]
        while watched[-1]["version"] < final["version"]:
            watched.append(state_at(watcher, 0))
    assert final["status"] == "over" and final["result"]
    record, names = stored_record(client, room["room"]), [s["name"] for s in final["seats"]]
    for token, states in ((room["token"], played), (None, watched)):
        seat = states[0]["seat"]
        known = [f["caption"] for f in game_class(game_id).frames(record, names, seat)]
        revealed = [f["caption"] for f in
                    game_class(game_id).frames(record, names, seat, reveal=True)]
        replay = whole_replay(client, room["room"], token)
        assert set(replay) == {"game", "title", "seats", "total", "from", "frames", "reviewed",
                               "first_mistake"}
        assert replay["game"] == game_id and replay["title"] == described.title
        assert [s["name"] for s in replay["seats"]] == [s["name"] for s in final["seats"]]
        frames = replay["frames"]
        assert len(frames) == final["version"] + 1 and frames[0]["caption"] == "The deal."
        assert [frame["caption"] for frame in frames] == revealed
        for message in states:
            version = message["version"]
            assert reveals(frames[version]["view"], message["view"]), version
            if version:
                assert known[version] == message["last"], version


def test_a_game_without_hints_says_so_and_is_not_hintable(make_client, monkeypatch):
    from dataclasses import replace

    rules = game_class("caravan")
    monkeypatch.setattr(rules, "descriptor", replace(
        rules.descriptor, integrations=replace(rules.descriptor.integrations, hints=None)))
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "me"}])
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        state = state_at(ws, 0)
        assert state["hints"] is False and state["hintable"] is False
        ws.send_json({"type": "hint"})
        while (answer := ws.receive_json())["type"] == "state":
            pass
    assert answer == {"type": "error", "message": "Caravan gives no hints."}
