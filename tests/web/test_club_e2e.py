"""The leaderboard and profile pages in Chromium, on a database seeded with rated games of
two accounts (and a third still provisional), at desktop and phone sizes, with screenshots
(screenshots/web/club-*.png)."""

from __future__ import annotations

import re
import socket
import threading
import time
from pathlib import Path

import pytest

from chuko.games import game_ids
from chuko.server import create_app
from chuko.server.store import Store
from club_seed import add_player, add_room

WEB = Path(__file__).resolve().parents[2] / "src" / "chuko" / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}
DUELS = 24  # enough for both heads-up ratings to settle, and for a second page of games


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def club_url(tmp_path_factory):
    """The app on a database where Ann and Bob played DUELS rated Crossroads games, Cy three
    (still provisional), and Ann a rated four-player Chükö game and a casual one."""
    db = tmp_path_factory.mktemp("club") / "chuko.db"
    store = Store(f"sqlite:///{db}")
    engine = store.engine
    ann, bob = add_player(engine, "Ann", "Ann Rivers"), add_player(engine, "bob", "Bobby")
    cy, dee = add_player(engine, "cy", "Cy"), add_player(engine, "dee", "Dee")
    start = 1_760_000_000.0
    for k in range(DUELS):
        seats = [ann, bob] if k % 2 else [bob, ann]
        names = ["Ann Rivers", "Bobby"] if k % 2 else ["Bobby", "Ann Rivers"]
        add_room(engine, "crossroads", seats, seed=k + 1, ended=start + 86_400 * k, names=names)
    for k in range(3):
        add_room(engine, "crossroads", [cy, bob], seed=k + 20, ended=start + 3600 * k,
                 names=["Cy", "Bobby"])
    add_room(engine, "chuko", [ann, bob, cy, dee], seed=4, ended=start + 86_400 * DUELS,
             names=["Ann Rivers", "Bobby", "Cy", "Dee"])
    add_room(engine, "chuko", [ann, None], seed=1, rated=False, names=["Ann Rivers", "Guesty"],
             ended=start + 86_400 * (DUELS + 1))
    store.close()
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{db}", bot_delay=0.05),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_leaderboard_lists_settled_players_best_first(pages, shot, club_url, size):
    viewport = DESKTOP if size == "desktop" else PHONE
    page = pages.new(**viewport, base_url=club_url)
    page.goto("/leaderboard/crossroads")
    rows = page.locator(".board-table tbody tr")
    rows.first.wait_for()
    assert page.locator("h1").inner_text() == "Crossroads leaderboard"
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["Ann", "bob"]  # Cy is provisional: not listed
    ratings = [int(text.split()[0]) for text in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    assert page.locator("#board-nav a.current").inner_text() == "Crossroads"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"club-leaderboard-{size}")
    rows.first.locator("a").click()
    page.wait_for_url("**/@/*")
    page.locator(".rating-card").first.wait_for()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_profile_shows_ratings_a_history_plot_and_pages_through_games(pages, shot, club_url,
                                                                        size):
    viewport = DESKTOP if size == "desktop" else PHONE
    page = pages.new(**viewport, base_url=club_url)
    page.goto("/@/ann")  # any case finds Ann
    cards = page.locator(".rating-card")
    cards.first.wait_for()
    assert page.locator("h1").inner_text() == "Ann"
    assert cards.evaluate_all("els => els.map(e => e.dataset.game + '/' + e.dataset.class)") == [
        "chuko/multi", "crossroads/duel"]
    duel = page.locator(".rating-card[data-game='crossroads']")
    assert duel.locator(".history-plot circle").count() == DUELS
    assert "Rated games" in duel.locator(".history-plot").inner_html()
    assert "?" in page.locator(".rating-card[data-game='chuko'] .rating").inner_text()
    items = page.locator(".game-item")
    assert items.count() == 20
    first = items.first
    assert "casual" in first.inner_text() and "Guesty" in first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"club-profile-{size}")
    page.locator("#more").click()
    items.nth(DUELS + 1).wait_for()
    assert items.count() == DUELS + 2
    assert page.locator("#more").is_hidden()
    items.nth(1).locator("a.button").click()
    page.wait_for_url("**/replay/*")


def test_an_unknown_profile_says_so(pages, club_url):
    page = pages.new(base_url=club_url)
    page.goto("/@/nobody-here")
    page.locator(".notice.error").wait_for()
    assert "Nobody plays here" in page.locator(".notice.error").inner_text()


@pytest.mark.parametrize("name", ["leaderboard.html", "profile.html", "club.css", "js/club.js",
                                  "js/leaderboard.js", "js/profile.js", "js/ratingplot.js"])
def test_the_club_pages_name_no_game(name):
    """Like the other generic pages, they learn every game from the API."""
    text = (WEB / name).read_text(encoding="utf-8")
    for game in game_ids():
        assert re.search(rf"(?<![\w.-]){re.escape(game)}(?![\w.-])", text) is None, (name, game)


def test_a_leaderboard_with_no_settled_rating_says_how_to_get_on_it(pages, shot, club_url):
    page = pages.new(**PHONE, base_url=club_url)
    page.goto("/leaderboard/chuko?class=multi")
    page.locator(".empty").wait_for()
    assert "after 10" in page.locator(".empty").inner_text()
    tabs = page.locator("#classes a")
    assert tabs.all_inner_texts() == ["Heads-up", "Multiplayer"]
    assert page.locator("#classes a.current").inner_text() == "Multiplayer"
    shot(page, "club-leaderboard-empty-phone")
