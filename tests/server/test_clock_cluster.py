"""Clocks with several workers: a clock run out is the lease holder's to act on, whichever
worker made the room and holds the players' sockets, and every worker's sockets learn of
the end (real `chuko serve` processes sharing PostgreSQL and Redis, as in test_cluster.py).
"""

from __future__ import annotations

import pytest
from test_cluster import URL, workers  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")]


def test_a_clock_run_out_ends_the_game_on_every_worker(workers):  # noqa: F811
    a, b = workers(2)
    room = a.post("/api/rooms", {"game": "crossroads", "options": {"first": "0"},
                                 "clock": {"kind": "move", "seconds": 5, "reserve": 0},
                                 "seats": [{"kind": "me"}, {"kind": "friend"}]})
    code = room["invites"][0]["url"].rsplit("/", 1)[1]
    friend = b.post(f"/api/rooms/{room['room']}/join", {"invite": code, "name": "Bea"})
    sockets = [a.socket(room["room"], room["token"]), b.socket(room["room"], friend["token"])]
    try:
        finals = []
        for ws in sockets:  # seat 0 never moves: its 5 s run out, which aborts the game
            state = ws.receive_json()
            while state.get("status") != "over":
                state = ws.receive_json()
            finals.append(state)
    finally:
        for ws in sockets:
            ws.close()
    assert finals[0]["result"] == "Game aborted: you did not make a first move in time."
    assert finals[1]["result"] == "Game aborted: Host did not make a first move in time."
    assert [s["running"] for s in finals[1]["clock"]["seats"]] == [False, False]
