"""The lobby in the browser: two people, one on a phone and one on a desktop, click Chükö
heads-up and land in the same game within 3 s; a seek posted on one shows on the other and
is joined with one click. Guests come from the session (the page makes one), and the waves
from the pairing's algorithm: both must be in the tree."""

from __future__ import annotations

import time

from play_helpers import lobby


def test_two_guests_click_heads_up_and_land_in_the_same_game_within_3_s(pages, shot):
    phone, desktop = lobby(pages, 390, 844), lobby(pages, 1280, 800)
    phone.click("button.pool[data-pool='chuko/duel'][data-clock='30+60']")
    phone.locator("button.pool.waiting[data-pool='chuko/duel'][data-clock='30+60']").wait_for()
    shot(phone, "lobby-phone-waiting")
    started = time.monotonic()
    desktop.click("button.pool[data-pool='chuko/duel'][data-clock='30+60']")
    phone.wait_for_url("**/room/**", timeout=3000)
    desktop.wait_for_url("**/room/**", timeout=3000)
    assert time.monotonic() - started < 3
    assert phone.url.split("/room/")[1] == desktop.url.split("/room/")[1]


def test_a_seek_posted_on_one_page_is_joined_with_one_click_on_another(pages, shot):
    host, guest = lobby(pages, 1280, 800), lobby(pages, 390, 844)
    host.select_option("#seek-game", "crossroads")
    host.click("#seek-form button[type=submit]")
    row = guest.locator("li.seek", has_text="Crossroads")
    row.wait_for()
    shot(host, "lobby-desktop-seek")
    row.locator("button", has_text="Join").click()
    host.wait_for_url("**/room/**")
    guest.wait_for_url("**/room/**")
    assert host.url.split("/room/")[1] == guest.url.split("/room/")[1]


def test_a_guest_waiting_with_days_a_move_may_close_the_page_and_finds_the_game_at_home(
        pages, shot):
    """Days a move need no presence: the first guest waits, reads that they may close the
    page and does; the second clicks the same clock later and lands in the game; the first
    finds it on their home page, their turn or not, with days to move."""
    first, second = lobby(pages, 1280, 800), lobby(pages, 390, 844)
    daily = "button.pool[data-pool='crossroads/match'][data-clock='1d']"
    first.locator(f"{daily} span", has_text="casual · 1 day").wait_for()
    first.click(daily)
    waiting = first.locator(f"{daily}.waiting")
    waiting.wait_for()
    assert "you may close the page" in waiting.inner_text()
    shot(first, "lobby-desktop-days-waiting", full_page=False)
    context = first.context
    first.close()
    second.click(daily)
    second.wait_for_url("**/room/**", timeout=6000)
    room = second.url.split("/room/")[1].split("#")[0]
    home = context.new_page()
    home.goto("/")
    row = home.locator(f"#your-games .in-play .your-game[data-room='{room}']")
    row.wait_for()
    row.locator("a.continue").click()
    home.wait_for_url(f"**/room/{room}")
    home.locator("#status.playing").wait_for()
    assert home.locator("#seats .seat-chip.me").count() == 1
