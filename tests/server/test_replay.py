"""Replays of finished games: every frame in full (all hands, now that the game is over), the
seats with their names, and the game's review of each move where it has one; a page at a
time, each page worked out in one pass and kept, in a cache whose memory is bounded."""

from __future__ import annotations

import pytest
from server_helpers import new_room, play_out, random_chooser, stored_record, whole_replay

import chuko.bots
import chuko.games
import chuko.server.rooms.history


def finished(client, game: str, seats: list, **options) -> dict:
    room = new_room(client, game, seats, **options)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        assert play_out(ws, random_chooser(6))[-1]["status"] == "over"
    return room


@pytest.mark.parametrize("game", ["crossroads", "caravan"])
def test_a_layout_games_replay_reviews_each_move_and_marks_the_mistakes(make_client, game):
    client = make_client(seed=9)
    seats = [{"kind": "me", "name": "Ann"}] + (
        [{"kind": "bot", "level": "perfect"}] if game == "crossroads" else [])
    room = finished(client, game, seats)
    replay = whole_replay(client, room["room"], room["token"])
    assert replay["reviewed"] and replay["frames"][0]["verdict"] is None  # the deal
    assert replay["seats"][0] == {"seat": 0, "kind": "human", "level": None, "name": "Ann"}
    review = [frame["verdict"] for frame in replay["frames"][1:]]  # one verdict per move
    # A mistake names the better move, for the board to mark.
    assert all(set(verdict) == {"text", "mistake", *(["better"] if verdict["mistake"] else [])}
               and verdict["text"] for verdict in review)
    assert any(verdict["mistake"] for verdict in review)  # random play slips somewhere
    first = next(k for k, verdict in enumerate(review, 1) if verdict["mistake"])
    assert replay["first_mistake"] == first


def test_a_game_without_a_review_says_null(make_client):
    client = make_client(seed=9)  # take-away, a plug-in game from tests/plugins
    room = finished(client, "takeaway", [{"kind": "me"}, {"kind": "bot", "level": "random"}])
    replay = whole_replay(client, room["room"])
    assert not replay["reviewed"] and replay["first_mistake"] is None
    assert all(frame["verdict"] is None for frame in replay["frames"])


@pytest.mark.parametrize(("game", "options"), [("chuko", {"turn_limit": 60}),
                                               ("chuchula", {"players": 2, "length": 2})])
def test_chuko_and_chuchula_replays_carry_the_bots_opinion_of_each_move(make_client, game,
                                                                        options):
    client = make_client(seed=5)
    room = finished(client, game, [{"kind": "me"}, {"kind": "bot", "level": "hard"}],
                    **options)
    replay = whole_replay(client, room["room"], room["token"])
    assert replay["reviewed"] and replay["frames"][0]["verdict"] is None  # the deal
    review = [frame["verdict"] for frame in replay["frames"][1:]]  # one verdict per move
    record = stored_record(client, room["room"])  # the server reviews the game it stored
    assert review == chuko.bots.review(chuko.games.game_class(game).replay(record).game,
                                       record)
    assert all(set(verdict) == {"text", "mistake", "opinion"} and verdict["opinion"] is True
               and verdict["text"] for verdict in review)
    first = next((k for k, verdict in enumerate(review, 1) if verdict["mistake"]), None)
    assert replay["first_mistake"] == first


@pytest.mark.parametrize("reader", ["seat", "spectator"])
def test_every_frame_shows_every_hand_once_the_game_is_over(make_client, reader):
    client = make_client(seed=4)
    room = finished(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"},
                                      {"kind": "bot", "level": "random"}],
                    players=3, turn_limit=60)
    query = f"?token={room['token']}" if reader == "seat" else ""
    frames = client.get(f"/api/rooms/{room['room']}/replay{query}").json()["frames"]
    record = client.app.state.hub.store.load(room["room"]).record  # the deal
    assert frames[0]["view"]["hands"] == [sorted(hand) for hand in record["deal"]["hands"]]
    assert all(len(frame["view"]["hands"]) == 3 for frame in frames)


def test_a_chuchula_replay_draws_every_hand_and_grouping_at_each_step(make_client):
    client = make_client(seed=4)
    room = finished(client, "chuchula", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                    players=2, length=2)
    frames = client.get(f"/api/rooms/{room['room']}/replay").json()["frames"]
    assert all(len(frame["view"]["hands"]) == 2 for frame in frames)
    committed = [frame["view"]["groupings"] for frame in frames]
    assert committed[0] == [None, None]
    assert any(all(grouping for grouping in step) for step in committed[1:])


def test_the_review_is_worked_out_once_per_room(make_client, monkeypatch):
    calls = []
    real = chuko.server.rooms.history.review

    def counting(game, record):
        calls.append(record)
        return real(game, record)

    monkeypatch.setattr(chuko.server.rooms.history, "review", counting)
    client = make_client(seed=2)
    room = finished(client, "caravan", [{"kind": "me"}], bridges=0, pack="primes")
    with client.websocket_connect(f"/ws/{room['room']}"):  # the room stays in memory
        first = whole_replay(client, room["room"])
        second = whole_replay(client, room["room"], room["token"])
    assert [f["verdict"] for f in first["frames"]] == [f["verdict"] for f in second["frames"]]
    assert len(calls) == 1
