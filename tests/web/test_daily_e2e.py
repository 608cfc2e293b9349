"""The daily Caravan in the browser at desktop and phone sizes, in both colour schemes: a
past day's deal played to its end on the Caravan table with the solver's winning line (an
undo on the way), then the share line, the solver's facts and the day's leaderboard."""

import datetime
import random
import re

import pytest
from contrast import low_contrast, scheme_shown

from chuko.practice.daily import deal_for, facts_for, today

DAY = "2026-11-29"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def place(page, move: str) -> None:
    """Tap the move's card, then its end ("start" for the first card; "R*" a bridge), and
    wait for the position after it (its version counts the moves)."""
    after = int(page.locator("#board").get_attribute("data-version")) + 1
    page.locator(f".layout .card[data-pos='{move[0]}']").click()
    page.locator(f".end-zone[data-end='{move[1:] or 'start'}']").click()
    page.locator(f"#board[data-version='{after}']").wait_for()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_a_days_deal_played_to_its_end_shows_the_share_line(pages, shot, size, scheme):
    width, height = SIZES[size]
    page = pages.new(width, height)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/daily/{DAY}")
    page.locator("#board[data-version='0'] .layout").wait_for()
    day = datetime.date.fromisoformat(DAY)
    par, line = deal_for(day).par, [str(move) for move in facts_for(day).line]
    assert f"Par {par}" in page.locator("#lead").inner_text()
    assert page.locator("#result").is_hidden()

    place(page, line[0])
    place(page, line[1])
    shot(page, f"daily-playing-{size}-{scheme}", full_page=False)
    page.locator("#undo").click()  # free: back to one card
    page.locator("#board[data-version='1']").wait_for()
    for move in line[1:]:
        place(page, move)
    page.locator("body[data-finished='true']").wait_for()

    share = page.locator("#share").inner_text()
    bridges = "1 bridge" if par else "0 bridges"
    assert re.fullmatch(rf"chuko daily Caravan {DAY}: won with {bridges} \(par {par}\) "
                        r"in \d+:\d\d", share)
    assert " ".join(line) in page.locator("#facts").inner_text()
    assert "A past day's deal counts for no streak." in page.locator("#streak").inner_text()
    assert page.locator("#leaders li").count() >= 1
    assert page.locator("#copy").is_visible()
    assert scheme_shown(page) == scheme and low_contrast(page) == []
    page.locator("#result").scroll_into_view_if_needed()
    shot(page, f"daily-result-{size}-{scheme}")


def losing_line(day: datetime.date) -> list[str]:
    """A game on the day's deal that ends stuck: the first seeded playout that loses."""
    rng = random.Random(1)
    while True:
        state = deal_for(day).start()
        while state.outcome is None:
            state.play(0, rng.choice(state.legal_moves(0)))
        if not state.outcome.winners:
            return [str(move) for move in state.moves]


def test_a_stuck_game_waits_for_an_undo_or_finish_and_then_says_not_won(pages, shot):
    day = datetime.date.fromisoformat(DAY)
    line = losing_line(day)
    page = pages.new(390, 844)
    page.goto(f"/daily/{DAY}")
    page.locator("#board[data-version='0'] .layout").wait_for()
    for move in line:
        place(page, move)
    assert "No card can go on" in page.locator("#notice").inner_text()
    page.locator("#undo").click()  # still free once stuck
    page.locator(f"#board[data-version='{len(line) - 1}']").wait_for()
    assert page.locator("#finish").count() == 0
    place(page, line[-1])
    page.locator("#finish").click()
    page.locator("body[data-finished='true']").wait_for()
    assert ": not won (par " in page.locator("#share").inner_text()
    assert low_contrast(page) == []
    shot(page, "daily-lost-phone")


def test_a_day_to_come_is_refused_in_a_sentence(pages):
    page = pages.new(390, 844)
    page.goto("/daily/9999-01-01")
    assert "not out yet" in page.locator("#notice.error").inner_text()


def test_a_profile_shows_the_daily_streak_after_todays_win(pages, shot):
    page = pages.new(390, 844)
    page.goto("/daily")
    page.locator("#board[data-version='0'] .layout").wait_for()
    made = page.request.post("/api/account/signup", data={"username": "dailyada",
                                                           "password": "a long passphrase"})
    assert made.ok, made.text()
    for move in facts_for(today()).line:
        place(page, str(move))
    page.locator("body[data-finished='true']").wait_for()
    assert "Streak: 1 day in a row won" in page.locator("#streak").inner_text()
    page.goto("/@/dailyada")
    streak = page.locator(".daily-streak")
    assert streak.inner_text() == "Daily Caravan streak: 1 won in a row (best 1)."
    shot(page, "daily-profile-streak-phone")


def test_the_home_page_leads_to_every_practice(pages, shot):
    """The home page's practice line links the lessons, the daily and the puzzles, each a
    page that answers; the daily's link opens today's deal."""
    page = pages.new(390, 844)
    page.goto("/")
    practice = page.locator("p.practice")
    assert [a.get_attribute("href") for a in practice.locator("a").all()] == [
        "/learn", "/daily", "/puzzles"]
    for path in ("/learn", "/puzzles"):
        assert page.request.get(path).status == 200
    practice.scroll_into_view_if_needed()
    shot(page, "home-practice-phone", full_page=False)
    practice.locator("a[href='/daily']").click()
    page.locator("#board[data-version='0'] .layout").wait_for()
    day = today()  # written as the page's language writes a date (English: "Dec 7, 2026")
    title = page.locator("#day-title").inner_text()
    assert title == f"Daily Caravan, {day:%b} {day.day}, {day.year}"
