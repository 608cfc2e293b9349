"""History a page at a time: on a 4,000-move Chükö game, a connecting
client gets the last 50 lines of the log and asks for older ones; a replay page is small,
costs one pass through the game and views only for the chunk of frames it is cut from, and
asking again costs nothing; the cache that keeps chunks stays within its bytes."""

from __future__ import annotations

import json
import random

import pytest
from server_helpers import first_message

from chuko.games import game_class
from chuko.server.rooms import page_cache as pages
from chuko.server.shared.limits import Limits, Rate
from chuko.server.store import database as db

NAMES = ["Easy bot 1", "Easy bot 2", "Easy bot 3", "Easy bot 4"]
# A whole 4,000-move game's pages at once, faster than anyone pages by hand.
PAGING = Limits(replay_pages=Rate(1, 1000), replay_pages_per_room=Rate(1, 1000),
                log_pages=Rate(1, 1000), log_pages_per_room=Rate(1, 1000))


def long_game(client, room_id: str = "long") -> list[str]:
    """A finished 4-player Chükö game of 4,000 moves (every seat resets whenever it may, so
    the turn limit of 2,000 cards ends it), stored as the server stores one; its captions
    for a spectator."""
    rules = game_class("chuko")
    options = rules.descriptor.read_options({"players": 4, "turn_limit": 2000})
    state = rules.from_options(options).new(7)
    dealt = state.record()
    state.reseed(11)
    store = client.app.state.hub.store
    seats = [db.SeatRow(s, "bot", "easy", None, None, True) for s in range(4)]
    row = db.RoomRow(room_id, "chuko", options, "playing", 0, dealt, seats, seed=11)
    with store.engine.begin() as conn:
        db.insert_room(row)(conn)
        number = 0
        while state.outcome is None:
            seat = state.to_move[0]
            legal = state.legal_moves(seat)
            move = next((m for m in legal if str(m) == "reset"), legal[0])
            state.play(seat, move)
            number += 1
            status = "over" if state.outcome else "playing"
            db.append_move(room_id, number, seat, str(move), status)(conn)
    return pages.captions(state, NAMES, None)


@pytest.fixture
def counted(monkeypatch):
    """Counts of the engine's work: passes through a record and full views drawn."""
    rules = game_class("chuko")
    work = {"replays": 0, "views": 0}
    state_class = type(rules.from_options({}).new(1))
    replay, full_view = rules.replay.__func__, state_class.full_view

    def counting_replay(cls, record, observe=None):
        work["replays"] += 1
        return replay(cls, record, observe)

    def counting_view(self, seat):
        work["views"] += 1
        return full_view(self, seat)

    monkeypatch.setattr(rules, "replay", classmethod(counting_replay))
    monkeypatch.setattr(state_class, "full_view", counting_view)
    return work


def test_a_replay_page_of_a_long_game_is_small_one_pass_and_kept(make_client, counted):
    client = make_client()
    captions = long_game(client)
    assert len(captions) == 4000
    counted.update(replays=0, views=0)
    response = client.get("/api/rooms/long/replay?from=2000&count=20")
    page = response.json()
    assert page["total"] == 4001 and page["from"] == 2000 and len(page["frames"]) == 20
    assert [frame["caption"] for frame in page["frames"]] == captions[1999:2019]
    # One pass to rebuild the room, one for its captions, one for the bots' review (kept
    # with the captions), one for the chunk of frames 2000 … 2049 the page is cut from:
    # 50 views.
    assert counted == {"replays": 4, "views": pages.FRAMES_PAGE}
    assert len(response.content) < 64_000
    # Asked again, by anyone: served from the cache, no engine work at all.
    again = client.get("/api/rooms/long/replay?from=2000&count=20")
    assert again.content == response.content
    assert counted == {"replays": 4, "views": pages.FRAMES_PAGE}
    # The move list: every caption in 4 cheap pages, without a single view.
    listed = [client.get(f"/api/rooms/long/replay?captions=1&from={start}").json()
              for start in range(0, 4001, pages.CAPTIONS_PAGE_MAX)]
    assert [f["caption"] for page in listed for f in page["frames"]] == ["The deal.", *captions]
    assert all("view" not in frame for page in listed for frame in page["frames"])
    assert counted["views"] == pages.FRAMES_PAGE
    # However many frames are asked for, a page stays bounded.
    huge = client.get("/api/rooms/long/replay?from=0&count=100000")
    assert len(huge.json()["frames"]) == pages.FRAMES_PAGE_MAX
    assert len(huge.content) < pages.PAGE_BYTES + 16_000


@pytest.mark.slow
def test_the_cache_of_pages_stays_within_its_bytes(make_client):
    client = make_client(limits=PAGING)
    long_game(client)
    hub = client.app.state.hub
    hub.pages = pages.Lru(max_bytes=300_000)
    first = client.get("/api/rooms/long/replay?from=0&count=50").content
    for start in range(50, 4000, 50):
        client.get(f"/api/rooms/long/replay?from={start}&count=50")
        assert hub.pages.bytes <= 300_000
    assert len(hub.pages) < 80  # older pages were dropped…
    misses = hub.pages.misses
    assert client.get("/api/rooms/long/replay?from=0&count=50").content == first
    assert hub.pages.misses > misses  # …and are worked out again when asked for


def test_the_lru_drops_the_least_recently_used_and_refuses_what_cannot_fit():
    cache = pages.Lru(max_bytes=100, max_entries=3)
    for key in "abc":
        cache.put(key, key, 30)
    assert cache.get("a") == "a"  # now the most recent
    cache.put("d", "d", 30)
    assert cache.get("b") is None and cache.get("a") == "a" and len(cache) == 3
    cache.put("big", "big", 101)
    assert cache.get("big") is None and cache.bytes == 90


def test_a_client_gets_the_last_page_of_the_log_and_pages_back(make_client):
    client = make_client()
    captions = long_game(client)
    with client.websocket_connect("/ws/long") as ws:
        log = first_message(ws)
        assert log == {"type": "log", "lines": captions[-50:], "first": 3950, "total": 4000}
        assert len(json.dumps(log)) < 8_000
        ws.receive_json()  # the state
        lines, before = log["lines"], log["first"]
        while before > 0:
            ws.send_json({"type": "log", "before": before, "count": pages.LOG_PAGE_MAX})
            page = ws.receive_json()
            assert page["type"] == "log" and page["before"] == before
            lines, before = page["lines"] + lines, page["first"]
        assert lines == captions
        ws.send_json({"type": "log", "before": "yesterday"})
        assert ws.receive_json() == {
            "type": "error", "message": "A log page's `before` must be a whole number from 0 up."}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # still open
    page = client.get("/api/rooms/long/log?before=320&count=1000").json()
    assert page["first"] == 320 - pages.LOG_PAGE_MAX and page["total"] == 4000
    assert page["lines"] == captions[320 - pages.LOG_PAGE_MAX:320]


@pytest.mark.parametrize(("query", "sentence"), [
    ("from=-1", "A replay page's `from` must be a whole number from 0 up."),
    ("count=0", "A replay page's `count` must be a whole number from 1 up."),
    ("count=many", "A replay page's `count` must be a whole number from 1 up."),
])
def test_a_bad_replay_page_gets_a_sentence(make_client, query, sentence):
    client = make_client()
    long_game(client, "short")
    response = client.get(f"/api/rooms/short/replay?{query}")
    assert response.status_code == 400 and response.json() == {"error": sentence}


def test_a_random_page_is_the_same_frames_as_the_whole_game(make_client):
    client = make_client()
    long_game(client)
    start = random.Random(3).randrange(3900)
    page = client.get(f"/api/rooms/long/replay?from={start}&count=30").json()["frames"]
    record = client.app.state.hub.rooms["long"].state.record()
    frames = game_class("chuko").frames(record, NAMES, None, reveal=True)[start:start + 30]
    assert [{"view": f["view"], "caption": f["caption"]} for f in page] == frames
