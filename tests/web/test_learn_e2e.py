"""Lessons in the browser: the Chükö and Caravan lessons completed by clicking on the games'
own tables, at desktop and phone sizes, a wrong move answered with the engine's sentence,
progress remembered, and the last step opening a real game."""

import pytest

from chuko.practice.lessons import lesson

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _wait_right(page, number: int) -> None:
    page.locator("#verdict.good").wait_for()
    assert page.locator(f".step-dot.done >> text='{number}'").count() == 1


def _next(page, number: int) -> None:
    page.locator("#next").click()
    page.locator(f"#step-title:has-text('Step {number + 1} of')").wait_for()


def _chuko_move(page, move: str) -> None:
    if move == "reset":
        page.locator("button.reset").click()
    else:
        page.locator(f".hand .card[data-card='{move}']").click()


def _caravan_move(page, move: str) -> None:
    letter, end = move[0], move[1:] or "start"
    card = page.locator(f".layout .card[data-pos='{letter}']")
    if "selected" not in (card.get_attribute("class") or ""):
        card.click()
    page.locator(f".end-zone[data-end='{end}']").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_chuko_lesson_completed_by_clicking(pages, shot, size):
    page = pages.new(*SIZES[size])
    page.goto("/")
    page.locator("#learn-offer a").wait_for()
    shot(page, f"learn-offer-home-{size}", full_page=False)
    page.locator("#learn-offer a").click()  # a first visitor is offered the lessons
    page.locator(".lesson-link[href='/learn/chuko']").click()
    page.locator("#step-title:has-text('Step 1 of')").wait_for()
    # A wrong card first: the engine refuses it, and the sentence says why with the factors.
    page.locator(".hand .card[data-card='21']").click()
    error = page.locator("#verdict.error")
    error.wait_for()
    assert "21 and 10 share no prime factor: 21 is 3 × 7, 10 is 2 × 5" in error.inner_text()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"learn-chuko-wrong-{size}-{scheme}")
    page.emulate_media(color_scheme="light")
    steps = lesson("chuko")
    for found in steps[:-1]:
        _chuko_move(page, found.expect[0])
        _wait_right(page, found.number)
        if found.number == 1:
            shot(page, f"learn-chuko-right-{size}")
        _next(page, found.number)
    assert page.locator("#play").is_visible() and page.locator("#board").is_hidden()
    shot(page, f"learn-chuko-last-{size}")
    # Progress is the session's: the list says the lesson is done but for its game.
    page.goto("/learn")
    page.locator(".lesson-link").first.wait_for()
    shot(page, f"learn-list-{size}")
    assert f"{len(steps) - 1} of {len(steps)} steps done" in page.locator(
        ".lesson-link[href='/learn/chuko']").inner_text()
    page.goto("/learn/chuko")
    page.locator(f"#step-title:has-text('Step {len(steps)} of')").wait_for()
    page.locator("#play").click()
    page.wait_for_url("**/room/**#token=*")
    page.locator(".hand .card").first.wait_for()


@pytest.mark.parametrize("size", SIZES)
def test_the_caravan_lesson_completed_by_clicking(pages, shot, size):
    page = pages.new(*SIZES[size])
    page.goto("/rules/caravan")
    page.locator(".learn-link a").click()  # each rules page links to its lesson
    page.locator("#step-title:has-text('Step 1 of')").wait_for()
    steps = lesson("caravan")
    for found in steps[:-1]:
        if found.number == 3:  # a legal move that is not the one asked for
            _caravan_move(page, "DL")
            page.locator("#verdict.error").wait_for()
            assert "lay 7 (I) face down as a bridge" in page.locator("#verdict").inner_text()
        _caravan_move(page, found.expect[0])
        _wait_right(page, found.number)
        if found.number == 3:
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                shot(page, f"learn-caravan-bridge-{size}-{scheme}")
            page.emulate_media(color_scheme="light")
        _next(page, found.number)
    page.locator("#play").click()
    page.wait_for_url("**/room/**#token=*")
    page.locator(".layout .card").first.wait_for()


def test_the_crossroads_and_chuchula_lessons_draw_on_their_tables(pages, shot):
    page = pages.new(*SIZES["phone"])
    page.goto("/learn/crossroads")
    _caravan_move(page, "A")  # the layout games share their taps
    page.locator("#verdict.good").wait_for()
    shot(page, "learn-crossroads-phone")
    page.goto("/learn/chuchula")
    page.locator(".board [data-card]").first.wait_for()
    assert "strongest first" in page.locator("#step-title").inner_text()
    shot(page, "learn-chuchula-phone")
