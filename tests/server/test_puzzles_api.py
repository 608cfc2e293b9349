"""Crossroads puzzles over HTTP: the next puzzle hides its answer, a try is judged by the
solver and moves the session's player's puzzle rating (stored), a puzzle rates a player
once, and bad requests get one sentence."""

from __future__ import annotations

from sqlalchemy import select

from chuko.practice.puzzles import by_id
from chuko.server.store.schema import puzzle_ratings, puzzle_tries, puzzles


def guest(make_client):
    client = make_client()
    assert client.post("/api/me", json={}).status_code == 200
    client.headers["x-chuko"] = "1"  # as the page's requests say (server/web/origin.py)
    return client


def wrong(ident: str) -> str:
    puzzle = by_id(ident)
    state = puzzle.state()
    return next(str(m) for m in state.legal_moves(state.to_move[0]) if str(m) != puzzle.answer)


def test_the_next_puzzle_is_near_a_newcomers_rating_and_hides_its_answer(make_client):
    got = guest(make_client).get("/api/puzzles/next").json()
    assert got["player"] == {"rating": 1500, "tries": 0, "provisional": True}
    shown = got["puzzle"]
    assert abs(shown["rating"] - 1500) <= 100 and shown["legal"]
    assert "answer" not in shown and "theme" not in shown
    assert shown["state"]["to_move"] == [shown["seat"]]


def test_a_solved_puzzle_raises_the_rating_once_and_is_stored(make_client):
    client = guest(make_client)
    ident = client.get("/api/puzzles/next").json()["puzzle"]["id"]
    answer = by_id(ident).answer
    got = client.post("/api/puzzles/try", json={"id": ident, "move": answer}).json()
    assert got["verdict"]["solved"] is True and got["verdict"]["sentence"]
    assert got["change"] > 0 and got["player"]["tries"] == 1
    assert got["player"]["rating"] == 1500 + got["change"]
    again = client.post("/api/puzzles/try", json={"id": ident, "move": answer}).json()
    assert again["change"] == 0 and again["player"] == got["player"]
    assert got["rated"] is True and again["rated"] is False
    assert client.get("/api/puzzles/next").json()["puzzle"]["id"] != ident
    engine = client.app.state.hub.store.engine
    with engine.connect() as conn:
        assert conn.execute(select(puzzle_tries.c.solved)).scalars().all() == [True]
        assert conn.execute(select(puzzle_ratings.c.tries)).scalars().all() == [1]
        assert conn.execute(select(puzzles.c.id)).scalars().all() == [ident]


def test_a_wrong_move_lowers_the_rating_and_names_the_answer(make_client):
    client = guest(make_client)
    got = client.post("/api/puzzles/try", json={"id": "5", "move": wrong("5")}).json()
    assert got["verdict"]["solved"] is False and got["verdict"]["answer"] == by_id("5").answer
    assert got["change"] < 0


def test_bad_tries_are_refused_with_one_sentence(make_client):
    client = guest(make_client)
    unknown = client.post("/api/puzzles/try", json={"id": "nope", "move": "A"})
    assert unknown.status_code == 400 and "no puzzle" in unknown.json()["error"]
    illegal = client.post("/api/puzzles/try", json={"id": "4", "move": "CR"})
    assert illegal.status_code == 400 and "not available" in illegal.json()["error"]
    shapeless = client.post("/api/puzzles/try", json={"id": 4})
    assert shapeless.status_code == 400 and "names the puzzle" in shapeless.json()["error"]
    assert client.get("/api/puzzles/nope").status_code == 400
    nobody = make_client().post("/api/puzzles/try", json={"id": "5", "move": wrong("5")})
    assert nobody.status_code == 400 and "guest" in nobody.json()["error"]


def test_one_puzzle_by_its_id_without_a_session(make_client):
    got = make_client().get("/api/puzzles/5").json()
    assert got["puzzle"]["id"] == "5" and got["puzzle"]["rating"] == by_id("5").rating
    assert got["player"] == {"rating": 1500, "tries": 0, "provisional": True}


def test_a_retry_after_a_miss_is_judged_but_unrated(make_client):
    client = guest(make_client)
    missed = client.post("/api/puzzles/try", json={"id": "5", "move": wrong("5")}).json()
    retry = client.post("/api/puzzles/try", json={"id": "5", "move": by_id("5").answer}).json()
    assert missed["rated"] is True and retry["rated"] is False
    assert retry["verdict"]["solved"] is True and retry["change"] == 0
    assert retry["player"] == missed["player"]


def test_themes_are_listed_and_a_chosen_one_gives_its_puzzles(make_client):
    client = guest(make_client)
    listed = client.get("/api/puzzles/themes").json()["themes"]
    assert {theme["id"] for theme in listed} >= {"quiet", "deny", "end"}
    assert all(theme["name"] and theme["count"] > 0 for theme in listed)
    for _ in range(5):
        ident = client.get("/api/puzzles/next?theme=deny").json()["puzzle"]["id"]
        assert by_id(ident).theme == "deny"
    refused = client.get("/api/puzzles/next?theme=%00nope")
    assert refused.status_code == 400 and "Choose a theme among quiet" in refused.json()["error"]


def test_a_streak_rises_in_difficulty_until_the_first_miss(make_client):
    client = guest(make_client)
    started = client.post("/api/puzzles/streak/start", json={}).json()
    assert started["streak"] == {"solved": 0, "best": 0, "over": False}
    ratings = [started["puzzle"]["rating"]]
    current = started["puzzle"]["id"]
    for solved in range(1, 4):
        got = client.post("/api/puzzles/streak/try",
                          json={"move": by_id(current).answer}).json()
        assert got["verdict"]["solved"] and got["streak"]["solved"] == solved
        current = got["puzzle"]["id"]
        ratings.append(got["puzzle"]["rating"])
    assert ratings[-1] > ratings[0]
    ended = client.post("/api/puzzles/streak/try", json={"move": wrong(current)}).json()
    assert ended["streak"] == {"solved": 3, "best": 3, "over": True} and ended["puzzle"] is None
    late = client.post("/api/puzzles/streak/try", json={"move": "A"})
    assert late.status_code == 400 and "Start a streak first" in late.json()["error"]
    again = client.post("/api/puzzles/streak/start", json={}).json()
    assert again["streak"] == {"solved": 0, "best": 3, "over": False}


def test_a_streak_refuses_shapeless_tries_and_nobody(make_client):
    client = guest(make_client)
    client.post("/api/puzzles/streak/start", json={})
    for body in ({}, {"move": 3}, {"move": None}):
        refused = client.post("/api/puzzles/streak/try", json=body)
        assert refused.status_code == 400 and "names the move" in refused.json()["error"]
    nobody = make_client().post("/api/puzzles/streak/start", json={})
    assert nobody.status_code == 400 and "guest" in nobody.json()["error"]
