"""The daily Caravan over HTTP: the deal is the module's (and so the terminal's), moves are
judged by the engine and undone by sending fewer, a finished game is stored once for the
session's player, the leaderboard lists who reached par fastest, the streak counts won days
in a row, and the facts and share line come only after finishing."""

from __future__ import annotations

import datetime
import json

from sqlalchemy import insert

from chuko.practice.daily import deal_for, facts_for, today
from chuko.server.schema import daily_results
from chuko.server.store import Store
from club_seed import add_player

DAY = "2026-11-30"
SAID = {"X-Chuko": "1"}  # a session's POST says it comes from the page


def test_the_days_deal_is_the_modules_and_hides_the_facts_before_finishing(make_client):
    client = make_client()
    page = client.get(f"/api/daily/{DAY}").json()
    daily = deal_for(datetime.date(2026, 11, 30))
    assert (page["deal"], page["par"], page["bridges"]) == (daily.deal, daily.par, 2)
    assert page["view"]["deal"] == daily.deal and page["legal"] == ["A", "E", "I"]
    assert page["mine"] is None and "facts" not in page and "share" not in page
    assert client.get("/api/daily/2025-12-31").status_code == 400
    assert client.get("/api/daily").json()["date"] == today().isoformat()


def test_moves_are_judged_by_the_engine_and_an_undo_is_one_move_fewer(make_client):
    client = make_client()
    line = [str(move) for move in facts_for(datetime.date(2026, 11, 30)).line]
    after = client.post("/api/daily/play", json={"date": DAY, "moves": line[:2]}).json()
    assert after["version"] == 2 and len(after["view"]["caravan"]) == 2
    undone = client.post("/api/daily/play", json={"date": DAY, "moves": line[:1]}).json()
    assert undone["version"] == 1
    refused = client.post("/api/daily/play", json={"date": DAY, "moves": ["B"]})
    assert refused.status_code == 400 and "B is not available" in refused.json()["error"]


def test_future_and_bad_days_are_refused_in_one_sentence(make_client):
    client = make_client()
    assert "not out yet" in client.get("/api/daily/9999-01-01").json()["error"]
    assert client.get("/api/daily/tomorrow").status_code == 400
    early = client.post("/api/daily/result", json={"date": DAY, "moves": [], "seconds": 3})
    assert early.status_code == 400 and "not over" in early.json()["error"]


def test_a_finished_game_is_stored_once_with_its_share_line_and_facts(make_client):
    client = make_client()
    client.post("/api/me", json={})
    line = [str(move) for move in facts_for(datetime.date(2026, 11, 30)).line]
    par = deal_for(datetime.date(2026, 11, 30)).par
    done = client.post("/api/daily/result", json={"date": DAY, "moves": line, "seconds": 192},
                       headers=SAID)
    page = done.json()
    assert done.status_code == 200 and page["mine"]["won"] and page["mine"]["seconds"] == 192
    bridges = "1 bridge" if par else "0 bridges"
    assert page["share"] == (f"chuko daily Caravan {DAY}: won with {bridges} (par {par}) "
                             "in 3:12")
    assert page["facts"]["line"] == line and [row["seconds"] for row in page["board"]] == [192]
    again = client.post("/api/daily/result", json={"date": DAY, "moves": line, "seconds": 5},
                        headers=SAID)
    assert again.json()["mine"]["seconds"] == 192  # the first result counts


def test_the_board_lists_who_reached_par_fastest_first_and_the_streak_counts(db_url,
                                                                            make_client):
    client = make_client()
    client.post("/api/me", json={})
    line = [str(move) for move in facts_for(today()).line]
    store = Store(db_url)
    for name, seconds, won in (("Slow", 300.0, True), ("Fast", 60.0, True),
                               ("Lost", 1.0, False)):
        player = add_player(store.engine, name.lower(), name)
        with store.engine.begin() as conn:
            conn.execute(insert(daily_results).values(
                day=today().isoformat(), player=player, won=won, bridges=0, par=1,
                seconds=seconds, at=1.0))
    store.close()
    page = client.post("/api/daily/result", json={"date": today().isoformat(),
                                                 "moves": line, "seconds": 120},
                       headers=SAID).json()
    assert [row["seconds"] for row in page["board"]] == [60, 120, 300]
    assert page["streak"] == {"current": 1, "best": 1}


def test_the_api_and_the_command_line_give_the_same_deal_for_a_date(make_client, run_chuko):
    client = make_client()
    for day in ("2026-01-01", DAY, today().isoformat()):
        page = client.get(f"/api/daily/{day}").json()
        status, out, _ = run_chuko("daily", "--date", day, "--json")
        command = json.loads(out)
        assert status == 0
        assert (page["deal"], page["par"], page["game"]) == (command["deal"], command["par"],
                                                             command["game"])


def test_an_accounts_profile_shows_its_daily_streak(db_url, make_client):
    client = make_client()
    store = Store(db_url)
    player = add_player(store.engine, "ada", "Ada")
    with store.engine.begin() as conn:
        for back in (0, 1, 3, 4, 5):
            conn.execute(insert(daily_results).values(
                day=(today() - datetime.timedelta(days=back)).isoformat(), player=player,
                won=True, bridges=0, par=0, seconds=30.0, at=1.0))
    store.close()
    assert client.get("/api/players/ada").json()["daily"] == {"current": 2, "best": 3}
