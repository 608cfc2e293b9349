"""The proof that a fifth game is one package: the toy take-away game in tests/plugins is
registered only through the `chuko.games` entry point (tests/conftest.py puts it on the
path, as `pip install` would), and it appears in every front end with no change to them."""

import json
import random
import warnings

from chuko.games import descriptor, game_class, game_ids
from chuko.server import create_app
from chuko.server.practice import facts

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


def study_of_the_plugin(run_chuko, *flags):
    status, out, err = run_chuko("study", TOY, "--games", "20", "--seed", "1", "--json", *flags)
    assert status == 0, err
    return json.loads(out)


def test_the_generic_study_of_the_plugin_varies_the_options_its_descriptor_names(run_chuko):
    study = study_of_the_plugin(run_chuko)
    (table,) = study["tables"]
    assert table["columns"][:3] == ["Stones", "Most taken at once", "Bots"]
    assert "Pack" not in table["columns"]
    cells = study["data"]["cells"]
    assert [(c["options"]["stones"], c["options"]["most"], c["bots"]) for c in cells] == [
        (stones, most, bots) for stones in (12, 15, 20) for most in (2, 3)
        for bots in ("random,random", "perfect,perfect")]
    # The options reach the games: between perfect players the first wins exactly when
    # the stones are not a multiple of most + 1.
    for c in cells:
        if c["bots"] == "perfect,perfect":
            wins = c["options"]["stones"] % (c["options"]["most"] + 1) != 0
            assert c["first_player"]["estimate"] == float(wins), c["options"]
    assert {p["title"] for p in study["plots"]} == {
        "First player's win rate by stones", "First player's win rate by most taken at once"}


def test_the_plugins_study_takes_other_values_from_the_options_flags(run_chuko):
    study = study_of_the_plugin(run_chuko, "--stones", "8,9", "--most", "3", "--bots", "perfect")
    assert [(c["options"], c["bots"]) for c in study["data"]["cells"]] == [
        ({"stones": 8, "most": 3}, "perfect,perfect"),
        ({"stones": 9, "most": 3}, "perfect,perfect")]
    assert [row[:2] for row in study["tables"][0]["rows"]] == [["8", "3"], ["9", "3"]]


def test_a_bad_value_for_the_plugins_study_is_one_sentence(run_chuko):
    status, out, err = run_chuko("study", TOY, "--stones", "many", "--games", "5")
    assert status == 2 and out == ""
    assert err == "chuko: Stones must be a whole number, not 'many'.\n"


def test_the_facts_the_plugin_ships_reach_the_lab(tmp_path):
    shipped = {g["id"]: g for g in facts.shipped_facts(tmp_path / "no built-in facts")["games"]}
    (study,) = shipped[TOY]["studies"]
    assert study["game"] == TOY and study["title"] == "Take-away: bots at the table"
    assert study["tables"][0]["columns"][:2] == ["Stones", "Most taken at once"]
    with _client(tmp_path) as client:
        served = {g["id"]: g for g in client.get("/api/facts").json()["games"]}
        assert served[TOY]["studies"] == [study]


def test_rules_of_the_plugin_game_come_from_its_package(run_chuko):
    status, out, err = run_chuko("rules", TOY, "--json")
    assert status == 0, err
    assert json.loads(out)["markdown"].startswith("# Take-away")


def test_the_plugin_ships_its_own_lesson_taught_on_the_generic_screen(run_chuko):
    status, out, err = run_chuko("learn", TOY, stdin="3\n1\nquit\n")
    assert status == 0, err
    assert "That leaves two stones, and your opponent takes both." in out
    assert "Yes: four left, and the last stone is yours." in out
    assert "Step 2 of 2: Your first game" in out


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
