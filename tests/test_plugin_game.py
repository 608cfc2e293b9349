"""The proof that a fifth game is one package: the toy take-away game in tests/plugins is
registered only through the `chuko.games` entry point (tests/conftest.py puts it on the
path, as `pip install` would), and it appears in every front end with no change to them."""

import json
import random
import warnings

from chuko.games import descriptor, game_class, game_ids
from chuko.server import create_app

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TOY = "takeaway"


def test_the_plugin_is_registered_through_its_entry_point():
    assert TOY in game_ids()
    assert game_class(TOY).__module__ == "chuko_takeaway.game"
    assert descriptor(TOY).title == "Take-away"


def test_help_lists_the_plugin_game(run_chuko):
    for verb in ("play", "simulate", "rules"):
        status, out, _ = run_chuko(verb, "--help")
        words = " ".join(out.split())  # argparse wraps the summary
        assert status == 0 and TOY in words and "whoever takes the last stone wins" in words, verb


def test_the_menu_offers_the_plugin_game_and_plays_it(run_chuko):
    number = game_ids().index(TOY) + 1
    status, out, err = run_chuko("play", stdin=f"{number}\nquit\nquit\n")
    assert status == 0, err
    menu, _, game = out.partition("Pick a game")
    assert "Take-away" in menu and "stones" in game


def test_play_the_plugin_game_to_its_end_against_its_perfect_bot(run_chuko):
    status, out, err = run_chuko("play", TOY, "--stones", "5", "--vs", "perfect", "--seed", "2",
                                 stdin="9\nthree\n1\n1\n1\n1\n1\n")
    assert status == 0, err
    assert "You took 1 stone" in out
    assert "Perfect bot took" in out
    assert "won" in out


def test_simulate_the_plugin_game(run_chuko, tmp_path):
    records = tmp_path / "games.jsonl"
    status, out, err = run_chuko("simulate", TOY, "--bots", "perfect,random", "--games", "40",
                                 "--seed", "1", "--json", "--jsonl", str(records))
    assert status == 0, err
    summary = json.loads(out)
    assert summary["games"] == 40
    lines = records.read_text().splitlines()
    assert len(lines) == 40
    for line in lines:
        game_class(TOY).replay(json.loads(line))


def test_rules_of_the_plugin_game_come_from_its_package(run_chuko):
    status, out, err = run_chuko("rules", TOY, "--json")
    assert status == 0, err
    assert json.loads(out)["markdown"].startswith("# Take-away")


def _client(tmp_path):
    app = create_app(f"sqlite:///{tmp_path}/chuko.db", rng=random.Random(4), bot_delay=0)
    return TestClient(app)


def test_the_server_lists_the_plugin_game_with_its_options(tmp_path):
    with _client(tmp_path) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games[TOY]["options"][0]["name"] == "stones"
        assert games[TOY]["levels"] == ["random", "perfect"]
        page = client.get(f"/rules/{TOY}")
        assert page.status_code == 200


def test_a_whole_plugin_game_over_the_socket_against_a_bot_then_its_replay(tmp_path):
    with _client(tmp_path) as client:
        created = client.post("/api/rooms", json={
            "game": TOY, "options": {"stones": "9"},
            "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}).json()
        room, token = created["room"], created["token"]
        seen = []
        with client.websocket_connect(f"/ws/{room}?token={token}") as ws:
            for _ in range(200):
                message = ws.receive_json()
                assert message["type"] != "error", message
                if message["type"] != "state":
                    continue
                seen.append(message)
                if message["status"] == "over":
                    break
                if message["seat"] in message["view"]["to_move"]:
                    ws.send_json({"type": "move", "move": message["legal"][0]})
        final = seen[-1]
        assert final["status"] == "over" and final["result"]
        assert "Seat" not in final["result"] and "seat" not in (final["last"] or "")
        replay = client.get(f"/api/rooms/{room}/replay?token={token}").json()
        assert replay["frames"][0]["caption"] == "The deal."
        assert replay["frames"][-1]["view"] == final["view"]
        assert len(replay["frames"]) == len(final["view"]["moves"]) + 1
