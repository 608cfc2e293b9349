"""Lessons over HTTP: the steps with their positions, the engine's judgement of a try, and
the session's player's progress kept in the database (a guest's too)."""

from __future__ import annotations

from chuko.practice.lessons import lesson


def test_the_index_lists_every_game_with_a_lesson_and_nothing_done_for_a_new_visitor(make_client):
    client = make_client()
    found = client.get("/api/lessons").json()["lessons"]
    games = [entry["game"] for entry in found]
    assert games[:4] == ["chuko", "crossroads", "caravan", "chuchula"]
    assert "takeaway" in games  # a plug-in game's own lesson
    assert all(entry["done"] == 0 and entry["steps"] >= 2 for entry in found)


def test_a_course_gives_each_steps_view_and_legal_moves_for_the_games_screen(make_client):
    course = make_client().get("/api/lessons/caravan").json()
    first = course["steps"][0]
    assert first["view"]["layout"] and sorted(first["legal"]) == ["A", "E", "I"]
    assert course["steps"][-1]["play"] == {"options": {"bridges": 2}}


def test_a_wrong_try_gets_its_sentence_and_a_right_one_is_remembered_for_the_guest(make_client):
    client = make_client()
    client.headers["X-Chuko"] = "1"  # as the app's pages send it, with a session
    wrong = client.post("/api/lessons/chuko/1", json={"move": "21"}).json()
    assert wrong["kind"] == "illegal" and wrong["sentence"].startswith(
        "21 and 10 share no prime factor: 21 is 3 × 7, 10 is 2 × 5")
    right = client.post("/api/lessons/chuko/1", json={"move": "15"}).json()
    assert right["right"] and right["done"] == 1
    client.post("/api/lessons/chuko/2", json={"move": "14"})
    assert client.get("/api/lessons/chuko").json()["done"] == 2
    again = client.post("/api/lessons/chuko/1", json={"move": "22"}).json()
    assert again["done"] == 2  # going back over a step keeps the furthest one
    index = {e["game"]: e["done"] for e in client.get("/api/lessons").json()["lessons"]}
    assert index["chuko"] == 2 and index["caravan"] == index["chuchula"] == 0


def test_bad_tries_and_missing_steps_are_one_sentence(make_client):
    client = make_client()
    client.headers["X-Chuko"] = "1"
    assert client.post("/api/lessons/chuko/1", json={"move": "banana"}).status_code == 400
    assert client.post("/api/lessons/chuko/1", content=b"not json").status_code == 400
    missing = client.post("/api/lessons/chuko/99", json={"move": "15"})
    assert missing.status_code == 404 and "steps 1 to" in missing.json()["error"]
    assert client.get("/api/lessons/nogame").status_code == 404
    last = len(lesson("caravan"))
    assert client.post(f"/api/lessons/caravan/{last}", json={}).json()["done"] == last


def test_the_learn_pages_are_served(make_client):
    client = make_client()
    assert client.get("/learn").status_code == 200
    assert client.get("/learn/chuko").status_code == 200
    assert client.get("/learn/nogame").status_code == 404
