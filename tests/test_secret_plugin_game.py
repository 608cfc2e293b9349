"""A plug-in game with a secret simultaneous move: Goofspiel in tests/plugins, registered only
through its `chuko.games` entry point. Its bids stay secret until both are in, on the engine,
over the socket and in the generic terminal screen; its seats are named on the generic
screens; and a finished game's replay and log name every bid."""

import random
import warnings

from chuko.games import descriptor, game_class, game_ids
from chuko.server import create_app

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

GAME = "goofspiel"
NAMES = ["Ann", "Bob"]


def test_the_plugin_is_registered_through_its_entry_point():
    assert GAME in game_ids()
    assert game_class(GAME).__module__ == "chuko_goofspiel.game"
    assert descriptor(GAME).traits.simultaneous and descriptor(GAME).integrations.screen is None


def test_a_secret_bid_is_null_for_everyone_but_its_bidder_until_the_other_bid():
    state = game_class(GAME).from_options({"cards": 3}).new(seed=2)
    assert state.to_move == (0, 1)
    state.play(0, "2")
    assert state.view(0)["bids"] == [2, None]
    assert state.view(1)["bids"] == state.view(None)["bids"] == [None, None]
    assert state.view(1)["committed"] == [True, False]
    assert state.full_view(1)["bids"] == [2, None]
    assert state.view(1)["hands"] == [[1, 2, 3], [1, 2, 3]]  # a hand gives no bid away
    assert state.describe(0, 2, NAMES, 1) == "Ann bid a card in secret."
    assert state.describe(0, 2, NAMES, 0) == "You bid 2."
    assert state.describe_revealed(0, 2, NAMES, 1) == "Ann bid 2 in secret."
    prize = state.view(None)["prize"]
    state.play(1, "3")
    assert state.view(0)["rounds"] == [{"prize": prize, "bids": [2, 3], "points": [0, prize]}]
    assert state.view(0)["bids"] == [None, None]
    assert state.describe(1, 3, NAMES, 0) == f"Bob bid 3 against your 2: Bob takes the {prize}."


def test_frames_of_a_revealed_replay_name_the_bid_the_live_frames_kept_secret():
    rules = game_class(GAME)
    state = rules.from_options({"cards": 2}).new(seed=1)
    for seat, card in ((1, "1"), (0, "2"), (0, "1"), (1, "2")):
        state.play(seat, card)
    record = state.record()
    live = [f["caption"] for f in rules.frames(record, NAMES, 0)]
    revealed = [f["caption"] for f in rules.frames(record, NAMES, 0, reveal=True)]
    assert live[1] == "Bob bid a card in secret." and revealed[1] == "Bob bid 1 in secret."
    assert [k for k, (a, b) in enumerate(zip(live, revealed, strict=True)) if a != b] == [1]
    assert live[2].startswith("You bid 2 against Bob's 1") and live[3] == "You bid 1."


def test_the_generic_terminal_screen_names_the_seats_of_each_list_per_seat(run_chuko):
    status, out, err = run_chuko("play", GAME, "--cards", "2", "--vs", "random", "--seed", "4",
                                 stdin="a\n1\n")  # labels: letters, then a number
    assert status == 0, err
    shown = " ".join(out.split())
    assert "Hands You 1 2; Random bot 1 2" in shown and "Scores You 0; Random bot 0" in shown
    assert "Random bot bid" in out and ("won" in out or "Draw" in out)
    assert "seat" not in out.lower()


def _client(tmp_path):
    app = create_app(f"sqlite:///{tmp_path}/chuko.db", rng=random.Random(3), bot_delay=0)
    return TestClient(app)


def _room_of_two(client):
    """A room of Ann and Bob (joined by invite): (room id, Ann's token, Bob's token)."""
    made = client.post("/api/rooms", json={
        "game": GAME, "options": {"cards": "3"},
        "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend"}]}).json()
    code = made["invites"][0]["url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/rooms/{made['room']}/join",
                         json={"invite": code, "name": "Bob"}).json()
    return made["room"], made["token"], joined["token"]


def _state(ws, version):
    """The next state message of at least `version`."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "state" and message["version"] >= version:
            return message


def test_over_the_socket_a_bid_stays_secret_until_both_are_in_and_the_replay_names_it(tmp_path):
    with _client(tmp_path) as client:
        room, ann, bob = _room_of_two(client)
        with client.websocket_connect(f"/ws/{room}?token={ann}") as ann_ws, \
                client.websocket_connect(f"/ws/{room}?token={bob}") as bob_ws, \
                client.websocket_connect(f"/ws/{room}") as watcher:
            version, bids = 0, []
            for ann_bid, bob_bid in ((3, 1), (1, 2), (2, 3)):
                ann_ws.send_json({"type": "move", "move": str(ann_bid)})
                version += 1
                for ws in (bob_ws, watcher):  # Ann's bid is in, Bob's is not: hers is secret
                    seen = _state(ws, version)
                    assert seen["view"]["bids"] == [None, None]
                    assert seen["view"]["committed"] == [True, False]
                    assert seen["last"] == "Ann bid a card in secret."
                assert _state(ann_ws, version)["view"]["bids"] == [ann_bid, None]
                bob_ws.send_json({"type": "move", "move": str(bob_bid)})
                version += 1
                bids.append([ann_bid, bob_bid])
                final = _state(bob_ws, version)
                assert [r["bids"] for r in final["view"]["rounds"]] == bids
        assert final["status"] == "over" and final["last"].endswith(final["result"])
        replay = client.get(f"/api/rooms/{room}/replay?token={bob}").json()
        captions = [frame["caption"] for frame in replay["frames"]]
        assert captions[1] == "Ann bid 3 in secret."
        assert replay["frames"][1]["view"]["bids"] == [3, None]
        with client.websocket_connect(f"/ws/{room}?token={bob}") as again:
            assert again.receive_json()["lines"] == captions[1:]


def test_the_server_lists_the_plugins_lists_per_seat(tmp_path):
    with _client(tmp_path) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[GAME]["seat_lists"] == ["hands", "bids", "committed", "scores", "points"]
    assert games[GAME]["simultaneous"] is True
