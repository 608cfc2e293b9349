"""The leaderboard and profile pages in Chromium, on a database seeded with rated games of
two accounts (and a third still provisional), at desktop and phone sizes, with screenshots
(screenshots/web/club-*.png)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chuko.games import game_ids
from club_seed import DUELS

WEB = Path(__file__).resolve().parents[2] / "src" / "chuko" / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_leaderboard_lists_settled_players_best_first(pages, shot, club_url, size):
    viewport = DESKTOP if size == "desktop" else PHONE
    page = pages.new(**viewport, base_url=club_url)
    page.goto("/leaderboard/crossroads")
    rows = page.locator(".board-table tbody:not(.provisional-rows) tr")
    rows.first.wait_for()
    assert page.locator("h1").inner_text() == "Crossroads leaderboard"
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["Ann", "bob"]
    ratings = [int(text.split()[0]) for text in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    # Cy is provisional: below the two settled, unranked, said to be so and shown with ?.
    below = page.locator(".board-table tbody.provisional-rows")
    assert "Provisional" in below.locator("th").inner_text()
    (cy,) = below.locator("tr.provisional").all()
    assert cy.locator("td:nth-child(2)").inner_text() == "cy"
    assert cy.locator("td.rank").inner_text() == "–"
    assert cy.locator("td:nth-child(3) strong").inner_text().endswith("?")
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
    # Each rated game says the change it made: "+168", "−88" (a typographic minus).
    changes = page.locator(".game-item .game-side .change").all_inner_texts()
    assert len(changes) == 19 and all(re.fullmatch(r"[+\u2212±]\d+", c) for c in changes)
    assert first.locator(".change").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"club-profile-{size}")
    page.locator("#more").click()
    items.nth(DUELS + 1).wait_for()
    assert items.count() == DUELS + 2
    assert page.locator("#more").is_hidden()
    items.nth(1).locator("a.button").click()
    page.wait_for_url("**/replay/*")


def test_an_unknown_profile_answers_404_and_shows_only_its_sentence(pages, club_url, shot):
    for size, name in (((1280, 800), "profile-missing"), ((390, 844), "profile-missing-phone")):
        page = pages.new(*size, base_url=club_url)
        answer = page.goto("/@/nobody-here")
        assert answer.status == 404
        page.locator(".notice.error").wait_for()
        assert "Nobody plays here" in page.locator(".notice.error").inner_text()
        shown = page.locator("main h2, main h1").evaluate_all(
            "els => els.filter(el => el.getClientRects().length).map(el => el.textContent)")
        assert shown == []  # no empty "Ratings" nor "Finished games"
        shot(page, name)


@pytest.mark.parametrize("name", ["leaderboard.html", "profile.html", "club.css", "js/club.js",
                                  "js/leaderboard.js", "js/profile.js", "js/ratingplot.js"])
def test_the_club_pages_name_no_game(name):
    """Like the other generic pages, they learn every game from the API."""
    text = (WEB / name).read_text(encoding="utf-8")
    for game in game_ids():
        assert re.search(rf"(?<![\w.-]){re.escape(game)}(?![\w.-])", text) is None, (name, game)


def test_a_leaderboard_with_no_settled_rating_lists_the_provisional_ones(pages, shot,
                                                                          club_url):
    """One rated Chükö game of four: nobody is settled, so the board says so and lists the
    four below, provisional, best first."""
    page = pages.new(**PHONE, base_url=club_url)
    page.goto("/leaderboard/chuko?class=multi")
    page.locator(".board-table").wait_for()
    assert "No settled ratings yet" in page.locator(".board-table tbody").first.inner_text()
    below = page.locator(".board-table tbody.provisional-rows tr.provisional")
    assert sorted(below.locator("td:nth-child(2)").all_inner_texts()) == ["Ann", "bob", "cy",
                                                                           "dee"]
    assert below.first.locator("td:nth-child(2)").inner_text() == "Ann"  # the winner first
    assert "10 rated games" in page.locator(".provisional-head").inner_text()
    tabs = page.locator("#classes a")
    assert tabs.all_inner_texts() == ["Heads-up", "Multiplayer"]
    assert page.locator("#classes a.current").inner_text() == "Multiplayer"
    shot(page, "club-leaderboard-empty-phone")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_finished_rated_game_shows_each_seats_rating_and_change(pages, shot, club_url, size):
    """Ann and Bob's last duel, watched once over: each seat chip has its rating beside the
    name, and the end panel each seat's rating after the game and the change it made, the
    same changes as their profiles' game lists."""
    viewport = DESKTOP if size == "desktop" else PHONE
    page = pages.new(**viewport, base_url=club_url)
    games = page.request.get(f"{club_url}/api/players/ann/games").json()["games"]
    duel = next(game for game in games if game["game"] == "crossroads")
    page.goto(f"/watch/{duel['room']}")
    changes = page.locator("#status .rating-changes li")
    changes.first.wait_for()
    assert changes.count() == 2
    mine = {item.locator(".who").inner_text(): item.locator(".change").inner_text()
            for item in changes.all()}
    sign = "+" if duel["rating"]["change"] > 0 else "\u2212"
    assert mine["Ann Rivers"] == f"{sign}{abs(duel['rating']['change'])}"
    assert sorted(text[0] for text in mine.values()) == ["+", "\u2212"]
    chips = page.locator("#seats .seat-chip[data-seat] .seat-rating").all_inner_texts()
    assert str(duel["rating"]["rating"]) in chips and all(re.fullmatch(r"\d+\??", c)
                                                         for c in chips)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"club-rating-change-{size}", full_page=False)
