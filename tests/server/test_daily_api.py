"""The daily Caravan over HTTP: the deal is the module's (and so the terminal's), moves are
judged by the engine and undone by sending fewer, a finished game is stored once for the
session's player, timed by the server from when the deal was first served to them, the
leaderboard lists the winners at par first, then the fastest, the streak counts days won
on their day in a row, and the facts and share line come only after finishing."""

from __future__ import annotations

import datetime
import json
import time
import warnings

from sqlalchemy import insert

from chuko.practice.daily import deal_for, facts_for, today
from chuko.server import create_app
from chuko.server.practice.daily import streak
from chuko.server.store.database import Store
from chuko.server.store.schema import daily_results
from club_seed import add_player, postgres_schema

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

DAY = "2026-11-30"
SAID = {"X-Chuko": "1"}  # a session's POST says it comes from the page


class Wall:
    """A wall clock that stands still until a test moves it (the daily's `clock`)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def timed(client, now: float | None = None) -> Wall:
    """The daily's clock of `client`'s app, standing at `now` (the present by default)."""
    wall = Wall(time.time() if now is None else now)
    client.app.state.daily.clock = wall
    return wall


def noon(day: datetime.date) -> float:
    return datetime.datetime(day.year, day.month, day.day, 12, tzinfo=datetime.UTC).timestamp()


def winning_line(day: datetime.date) -> list[str]:
    return [str(move) for move in facts_for(day).line]


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
    line = winning_line(datetime.date(2026, 11, 30))
    after = client.post("/api/daily/play", json={"date": DAY, "moves": line[:2]}).json()
    assert after["version"] == 2 and len(after["view"]["caravan"]) == 2
    undone = client.post("/api/daily/play", json={"date": DAY, "moves": line[:1]},
                         headers=SAID).json()
    assert undone["version"] == 1
    refused = client.post("/api/daily/play", json={"date": DAY, "moves": ["B"]},
                          headers=SAID)
    assert refused.status_code == 400 and "B is not available" in refused.json()["error"]


def test_future_and_bad_days_are_refused_in_one_sentence(make_client):
    client = make_client()
    assert "not out yet" in client.get("/api/daily/9999-01-01").json()["error"]
    assert client.get("/api/daily/tomorrow").status_code == 400
    early = client.post("/api/daily/result", json={"date": DAY, "moves": [], "seconds": 3})
    assert early.status_code == 400 and "not over" in early.json()["error"]


def test_a_finished_game_is_stored_once_with_its_share_line_and_facts(make_client):
    client = make_client()
    wall = timed(client)
    client.post("/api/me", json={})
    assert client.get(f"/api/daily/{DAY}").json()["elapsed"] == 0  # served: its time starts
    line = winning_line(datetime.date(2026, 11, 30))
    par = deal_for(datetime.date(2026, 11, 30)).par
    wall.now += 192
    done = client.post("/api/daily/result", json={"date": DAY, "moves": line}, headers=SAID)
    page = done.json()
    assert done.status_code == 200 and page["mine"]["won"] and page["mine"]["seconds"] == 192
    bridges = "1 bridge" if par else "0 bridges"
    assert page["share"] == (f"chuko daily Caravan {DAY}: won with {bridges} (par {par}) "
                             "in 3:12")
    assert page["facts"]["line"] == line and [row["seconds"] for row in page["board"]] == [192]
    wall.now += 100
    again = client.post("/api/daily/result", json={"date": DAY, "moves": line}, headers=SAID)
    assert again.json()["mine"]["seconds"] == 192  # the first result counts


def test_a_results_time_is_the_servers_from_first_serving_whatever_the_page_says(
        make_client):
    client = make_client()
    wall = timed(client)
    client.post("/api/me", json={})
    line = winning_line(today())
    client.get("/api/daily")
    wall.now += 40
    first = client.post("/api/daily/play", json={"moves": line[:1]}, headers=SAID).json()
    assert first["elapsed"] == 40  # the first move does not restart the time
    wall.now += 60
    page = client.post("/api/daily/result", json={"moves": line, "seconds": 1},
                       headers=SAID).json()
    assert page["mine"]["seconds"] == 100 and page["board"][0]["seconds"] == 100
    assert page["elapsed"] is None  # finished: the page shows the result's time


def test_a_visitor_is_timed_from_their_first_move_and_made_a_guest_by_it(make_client):
    client = make_client()
    wall = timed(client)
    line = winning_line(today())
    page = client.get("/api/daily").json()
    assert page["elapsed"] is None and page["mine"] is None  # nobody to time yet
    wall.now += 500
    assert "elapsed" not in client.post("/api/daily/play", json={"moves": []}).json()
    assert client.get("/api/me").json()["player"] is None  # looking makes nobody a guest
    assert client.post("/api/daily/play", json={"moves": line[:1]}).json()["elapsed"] == 0
    assert client.get("/api/me").json()["player"] is not None
    wall.now += 30
    done = client.post("/api/daily/result", json={"moves": line}, headers=SAID).json()
    assert done["mine"]["seconds"] == 30


def test_a_result_for_a_deal_never_served_is_refused_and_stores_nothing(make_client):
    client = make_client()
    client.post("/api/me", json={})
    line = winning_line(today())
    refused = client.post("/api/daily/result", json={"moves": line}, headers=SAID)
    assert refused.status_code == 400 and "your time starts" in refused.json()["error"]
    stranger = make_client()  # no session at all
    refused = stranger.post("/api/daily/result", json={"moves": line})
    assert refused.status_code == 400 and stranger.get("/api/me").json()["player"] is None
    page = client.get("/api/daily").json()
    assert page["mine"] is None and page["board"] == []


def test_the_board_ranks_par_first_then_the_servers_time(db_url, make_client):
    client = make_client()
    wall = timed(client)
    client.post("/api/me", json={})
    client.get("/api/daily")
    line = winning_line(today())
    par = deal_for(today()).par
    store = Store(db_url)
    for name, bridges, seconds, won in (("Slow", par, 300.0, True), ("Fast", par, 60.0, True),
                                        ("Over", par + 1, 5.0, True),
                                        ("Lost", par, 1.0, False)):
        player = add_player(store.engine, name.lower(), name)
        with store.engine.begin() as conn:
            conn.execute(insert(daily_results).values(
                day=today().isoformat(), player=player, won=won, bridges=bridges, par=par,
                seconds=seconds, at=1.0))
    store.close()
    wall.now += 120
    page = client.post("/api/daily/result", json={"moves": line, "seconds": 0},
                       headers=SAID).json()
    assert [(row["name"], row["seconds"]) for row in page["board"]] == [
        ("Fast", 60), (page["board"][1]["name"], 120), ("Slow", 300), ("Over", 5)]
    assert page["streak"] == {"current": 1, "best": 1}


def test_the_streak_counts_only_days_won_on_their_day(make_client):
    """Yesterday's deal won today (from the archive) starts no streak; days won on their
    day run on, and an archive day between them breaks the run."""
    client = make_client()
    now = noon(today())
    wall = timed(client, now)
    client.post("/api/me", json={})
    yesterday = today() - datetime.timedelta(days=1)
    client.get(f"/api/daily/{yesterday}")
    page = client.post("/api/daily/result", json={
        "date": yesterday.isoformat(), "moves": winning_line(yesterday)}, headers=SAID).json()
    assert page["mine"]["won"] and page["streak"] == {"current": 0, "best": 0}
    client.get("/api/daily")
    wall.now += 60
    page = client.post("/api/daily/result", json={"moves": winning_line(today())},
                       headers=SAID).json()
    assert page["streak"] == {"current": 1, "best": 1}


def test_a_stored_time_that_is_no_number_shows_no_time_and_ranks_last():
    """An older server stored the page's count, NaN included (PostgreSQL keeps it; SQLite
    stores no NaN): the day's page still answers, shows no time for that result and ranks
    it after the timed ones."""
    par = deal_for(today()).par
    with postgres_schema("daily-nan") as url:
        store = Store(url)
        for name, seconds in (("Broken", float("nan")), ("Timed", 90.0)):
            player = add_player(store.engine, name.lower(), name)
            with store.engine.begin() as conn:
                conn.execute(insert(daily_results).values(
                    day=today().isoformat(), player=player, won=True, bridges=par, par=par,
                    seconds=seconds, at=1.0))
        store.close()
        with TestClient(create_app(url)) as client:
            for address in ("/api/daily", f"/api/daily/{today()}"):
                answer = client.get(address)
                assert answer.status_code == 200
                assert [(row["name"], row["seconds"]) for row in answer.json()["board"]] == [
                    ("Timed", 90), ("Broken", None)]


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
            day = today() - datetime.timedelta(days=back)
            conn.execute(insert(daily_results).values(
                day=day.isoformat(), player=player, won=True, bridges=0, par=0,
                seconds=30.0, at=noon(day)))
        # A day won from the archive, later than its day, counts for no streak.
        conn.execute(insert(daily_results).values(
            day=(today() - datetime.timedelta(days=2)).isoformat(), player=player, won=True,
            bridges=0, par=0, seconds=30.0, at=noon(today())))
    store.close()
    assert client.get("/api/players/ada").json()["daily"] == {"current": 2, "best": 3}


def test_a_streak_is_the_run_of_days_won_on_their_day_that_ends_today_or_yesterday():
    def won(*days: str) -> list[tuple[str, float]]:  # newest first, each stored at noon UTC
        return [(day, datetime.datetime.fromisoformat(f"{day}T12:00:00+00:00").timestamp())
                for day in days]

    on = datetime.date.fromisoformat
    run = won("2026-12-07", "2026-12-06", "2026-12-04", "2026-12-03", "2026-12-02")
    assert streak(run, on("2026-12-07")) == {"current": 2, "best": 3}
    assert streak(run, on("2026-12-08")) == {"current": 2, "best": 3}  # yesterday's still runs
    assert streak(run, on("2026-12-09")) == {"current": 0, "best": 3}
    late = [("2026-12-06", won("2026-12-07")[0][1])]  # won from the archive a day late
    assert streak(late, on("2026-12-07")) == {"current": 0, "best": 0}
