"""Costly requests are budgeted, so moves are never starved: a replay page is cut from
chunks at fixed boundaries, each worked out once whatever `from` and `count` ask; replay
pages, log pages and hints are rate-limited per address and per room; hints and pages not
kept are worked out in a pool of their own whose full queue refuses with a sentence, while
moves go on. Rates are measured on a clock the tests hold still or move by hand."""

from __future__ import annotations

import asyncio
import threading

import pytest
from server_helpers import from_address, new_room, state_at
from test_abuse import Clock, answers, pong
from test_paging import long_game

import chuko.server.rooms.hints
from chuko.server.rooms import page_cache as pages
from chuko.server.shared.limits import Budget, Limits, Rate, TooMany
from chuko.server.shared.work import BUSY, Busy, Pool

BOTS = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]
WAIT = 10  # seconds a test waits for a thread at most before it fails


def seat_of(client, room: dict):
    return client.websocket_connect(f"/ws/{room['room']}?token={room['token']}")


def my_turn(ws) -> dict:
    """Read a socket on seat 0 until it is that seat's turn: the state then."""
    state = ws.receive_json()
    while not (state["type"] == "state" and 0 in state["view"]["to_move"]):
        state = ws.receive_json()
    return state


# -- pages cut from chunks ----------------------------------------------------------------------

def test_pages_inside_one_chunk_are_worked_out_once_whatever_their_from_and_count(
        make_client, monkeypatch):
    drawn: list[tuple[int, int]] = []
    real = pages.frames

    def counting(state, seat, start, count, lines):
        drawn.append((start, count))
        return real(state, seat, start, count, lines)

    monkeypatch.setattr(pages, "frames", counting)
    client = make_client()
    captions = long_game(client)
    for start, count in [(2000, 20), (2010, 40), (2049, 1), (2000, 50)]:
        page = client.get(f"/api/rooms/long/replay?from={start}&count={count}").json()
        assert page["from"] == start
        assert [f["caption"] for f in page["frames"]] == captions[start - 1:start - 1 + count]
    assert drawn == [(2000, pages.FRAMES_PAGE)]
    # A page across a boundary is cut from the chunk it needs next to the one kept.
    page = client.get("/api/rooms/long/replay?from=2030&count=40").json()
    assert [f["caption"] for f in page["frames"]] == captions[2029:2069]
    assert drawn == [(2000, pages.FRAMES_PAGE), (2050, pages.FRAMES_PAGE)]


def test_captions_pages_at_any_offset_are_cut_from_one_kept_chunk(make_client):
    client = make_client()
    captions = long_game(client)
    hub = client.app.state.hub
    client.get("/api/rooms/long/replay?captions=1&from=0")
    kept = len(hub.pages)
    for start, count in [(1, 999), (500, 3), (998, 2)]:
        page = client.get(f"/api/rooms/long/replay?captions=1&from={start}&count={count}")
        assert [f["caption"] for f in page.json()["frames"]] == \
            captions[start - 1:start - 1 + count]
    assert len(hub.pages) == kept  # no copy kept per offset or count


# -- rate limits --------------------------------------------------------------------------------

def test_replay_pages_over_the_addresss_bucket_get_429_with_a_sentence(make_client):
    clock = Clock()
    client = make_client(limits=Limits(replay_pages=Rate(1, 2)), clock=clock)
    long_game(client)
    asked = [client.get("/api/rooms/long/replay?from=0") for _ in range(3)]
    assert [r.status_code for r in asked] == [200, 200, 429]
    assert asked[2].json() == {"error": "Too many replay pages asked from your address: wait "
                                        "a moment and ask again."}
    clock.now += 1
    assert client.get("/api/rooms/long/replay?from=0").status_code == 200


def test_replay_pages_over_the_viewers_share_of_the_room_get_429_with_a_sentence(make_client):
    clock = Clock()
    client = make_client(limits=Limits(replay_pages_per_room=Rate(1, 2)), clock=clock)
    long_game(client)
    asked = [client.get("/api/rooms/long/replay?from=0") for _ in range(3)]
    assert [r.status_code for r in asked] == [200, 200, 429]
    assert asked[2].json() == {"error": "Too many replay pages asked from your address in this "
                                        "room, whose viewers share its budget: wait a moment "
                                        "and ask again."}
    assert asked[2].headers["retry-after"] == "1"


def test_one_viewers_flood_of_replay_pages_leaves_the_rooms_other_viewers_served(make_client):
    clock = Clock()
    client = make_client(limits=Limits(replay_pages=Rate(100, 1000)), clock=clock)
    long_game(client)
    room = Limits().replay_pages_per_room

    def flood(address: str) -> list[int]:
        from_address(client, address)
        return [client.get("/api/rooms/long/replay?from=0").status_code
                for _ in range(room.burst + 1)]

    # Alone in the room, a viewer may ask the room's whole burst; a second one half of it.
    assert flood("10.0.0.1") == [200] * room.burst + [429]
    assert flood("10.0.0.2") == [200] * (room.burst // 2) + [429] * (room.burst // 2 + 1)
    from_address(client, "10.0.0.3")  # a viewer come to watch the game is served
    assert [client.get(f"/api/rooms/long/replay?from={n * 50}").status_code
            for n in range(5)] == [200] * 5
    clock.now += 1  # the room's rate is shared out among its three viewers as it refills
    assert flood("10.0.0.1")[:4] == [200, 200, 429, 429]


def test_a_rooms_budget_is_shared_by_its_addresses_and_an_addresss_counts_every_room():
    clock = Clock()
    budget = Budget(Limits(log_pages=Rate(1, 3), log_pages_per_room=Rate(1, 4)), clock)
    for _ in range(3):
        budget.admit("log", "1.1.1.1", "a")  # alone in the room: the whole of its burst
    budget.admit("log", "2.2.2.2", "a")  # a second viewer: half of it
    budget.admit("log", "2.2.2.2", "a")
    with pytest.raises(TooMany, match="whose viewers share its budget"):
        budget.admit("log", "2.2.2.2", "a")
    with pytest.raises(TooMany, match="from your address: wait"):
        budget.admit("log", "1.1.1.1", "b")  # a fresh room, an address that asked too often
    budget.admit("hint", "1.1.1.1", "c")  # each kind has buckets of its own
    clock.now += 2  # each of the two viewers' shares refills at half the room's rate
    budget.admit("log", "2.2.2.2", "a")
    with pytest.raises(TooMany, match="whose viewers share its budget"):
        budget.admit("log", "2.2.2.2", "a")
    clock.now += 5  # quiet for longer than the room takes to refill: forgotten
    for _ in range(3):
        budget.admit("log", "1.1.1.1", "a")


def test_log_pages_over_their_bucket_are_refused_on_the_socket_and_over_http(make_client):
    clock = Clock()
    client = make_client(limits=Limits(log_pages=Rate(1, 2)), clock=clock)
    long_game(client)
    with client.websocket_connect("/ws/long") as ws:
        assert [ws.receive_json()["type"] for _ in range(2)] == ["log", "state"]
        for _ in range(3):
            ws.send_json({"type": "log", "before": 100})
        replies = [ws.receive_json() for _ in range(3)]
        assert [r["type"] for r in replies] == ["log", "log", "error"]
        assert replies[2]["message"] == ("Too many log pages asked from your address: wait a "
                                         "moment and ask again.")
        pong(ws)
    refused = client.get("/api/rooms/long/log")
    assert refused.status_code == 429 and "log pages" in refused.json()["error"]


def test_hints_over_their_bucket_get_an_error_and_the_socket_goes_on(make_client):
    clock = Clock()
    client = make_client(seed=11, limits=Limits(hints=Rate(1, 1)), clock=clock)
    room = new_room(client, "crossroads", BOTS, first="0")
    with seat_of(client, room) as ws:
        my_turn(ws)
        ws.send_json({"type": "hint"})
        ws.send_json({"type": "hint"})
        hint, refused = answers(ws, 2)
        assert hint["type"] == "hint"
        assert refused == {"type": "error", "message": "Too many hints asked from your "
                                                       "address: wait a moment and ask again."}
        pong(ws)
        clock.now += 1
        ws.send_json({"type": "hint"})
        assert answers(ws, 1)[0]["type"] == "hint"


# -- the pool for costly work -------------------------------------------------------------------

class Blocker:
    """A job that holds its worker until released, and says when it started and ended."""

    def __init__(self, done: list[str]) -> None:
        self.done = done
        self.started, self.release, self.ended = (threading.Event() for _ in range(3))

    def __call__(self) -> str:
        self.started.set()
        assert self.release.wait(WAIT)
        self.done.append("blocker")
        self.ended.set()
        return "blocker"

    async def running(self, pool: Pool) -> asyncio.Task:
        """The job's waiter, once the job holds its worker."""
        task = asyncio.create_task(pool.run(self))
        assert await asyncio.to_thread(self.started.wait, WAIT)
        return task


def test_the_pool_refuses_with_a_sentence_when_its_queue_is_full_then_does_every_job():
    async def run() -> None:
        pool, done = Pool(threads=1, waiting=2), []
        blocker = Blocker(done)
        jobs = [await blocker.running(pool)]
        jobs += [asyncio.create_task(pool.run(done.append, name)) for name in "ab"]
        await asyncio.sleep(0)  # the two are queued
        with pytest.raises(Busy, match=BUSY):
            await pool.run(done.append, "refused")
        blocker.release.set()
        assert await asyncio.gather(*jobs) == ["blocker", None, None]
        assert done == ["blocker", "a", "b"]
        assert await pool.run(len, "free again") == 10
        pool.close()

    asyncio.run(run())


def test_a_cancelled_job_that_waits_never_runs_and_frees_its_place():
    async def run() -> None:
        pool, done = Pool(threads=1, waiting=1), []
        blocker = Blocker(done)
        running = await blocker.running(pool)
        waiting = asyncio.create_task(pool.run(done.append, "cancelled"))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        after = asyncio.create_task(pool.run(done.append, "after"))  # its place is free
        blocker.release.set()
        await asyncio.gather(running, after)
        assert done == ["blocker", "after"]
        pool.close()

    asyncio.run(run())


def test_a_started_job_runs_to_its_end_when_its_waiter_is_cancelled_and_the_pool_closes():
    async def run() -> None:
        pool, done = Pool(threads=1, waiting=1), []
        blocker = Blocker(done)
        running = await blocker.running(pool)
        running.cancel()
        pool.close()  # returns at once: nothing waits for the running job
        blocker.release.set()
        assert await asyncio.to_thread(blocker.ended.wait, WAIT)
        assert done == ["blocker"]

    asyncio.run(run())


def test_moves_go_through_while_hints_fill_the_pool(make_client, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real = chuko.server.rooms.hints.make_adviser

    def slow_adviser(game):
        started.set()
        assert release.wait(WAIT)
        return real(game)

    monkeypatch.setattr(chuko.server.rooms.hints, "make_adviser", slow_adviser)
    client = make_client(seed=11, limits=Limits(workers=1, waiting_jobs=0))
    hinted, playing = (new_room(client, "crossroads", BOTS, first="0") for _ in range(2))
    with seat_of(client, hinted) as ws_hint, seat_of(client, playing) as ws_play:
        my_turn(ws_hint)
        state = my_turn(ws_play)
        ws_hint.send_json({"type": "hint"})
        assert started.wait(WAIT)  # the pool's one thread is taken, and nothing may wait
        ws_play.send_json({"type": "hint"})
        assert answers(ws_play, 1) == [{"type": "error", "message": BUSY}]
        ws_play.send_json({"type": "move", "move": state["legal"][0]})
        assert state_at(ws_play, state["version"] + 1)["last"] is not None
        release.set()
        assert answers(ws_hint, 1)[0]["type"] == "hint"
