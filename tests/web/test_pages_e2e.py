"""The home page lists every registered game with its form; each rules page brings its game
first."""

import pytest

from chuko.games import GAMES, game_module


def test_home_lists_every_game_with_options_and_seats(pages, shot):
    page = pages.new(390, 844)
    page.goto("/")
    page.locator(".game-panel").first.wait_for()
    assert sorted(page.locator(".game-panel").evaluate_all("els => els.map(e => e.dataset.game)")) \
        == sorted(GAMES)
    chuko = page.locator("#game-chuko")
    chuko.locator("[name='players']").fill("4")
    chuko.locator("[name='players']").dispatch_event("input")
    assert chuko.locator(".seat-row").count() == 4
    shot(page, "home-phone")


def test_home_shows_the_servers_refusal_of_bad_options(pages):
    page = pages.new()
    page.goto("/")
    panel = page.locator("#game-crossroads")
    panel.locator("[name='pack']").fill("2,3,4")
    panel.locator("button[type=submit]").click()
    error = page.locator("#notice.error")
    error.wait_for()
    assert "12" in error.inner_text()  # a layout game is dealt from exactly 12 cards (G3)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_shows_its_game_first(pages, shot, game):
    page = pages.new()
    page.goto(f"/rules/{game}")
    first = page.locator("main.rules > section").first
    first.locator("h2").wait_for()
    assert first.get_attribute("id") == game
    assert first.locator("h2").inner_text() == game_module(game).Game.title
    shot(page, f"rules-{game}")
