"""The layout games by touch and keyboard: tap a raised card, then the end it goes to
(Caravan: face up, or the bridge place under it); or type the move's notation. "Available"
and "just placed" look different, cards have names a screen reader says, and hints read as
words, never as bare notation."""

import re

import pytest
from contrast import in_both_schemes
from play_helpers import (
    create_room,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)

from conftest import TIMEOUT_MS

SIZES = {"desktop": (1100, 900), "phone": (390, 844)}
NOTATION = re.compile(r"\b[A-L][LR]?\*?\s+(win|lose|[+-]?\d)\b")


def touch_page(pages, width: int, height: int):
    """A page on a touch screen (a phone): taps are touches, as a finger makes them."""
    context = pages.browser.new_context(base_url=pages.base_url, has_touch=True, is_mobile=True,
                                        viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    pages.contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda error: pages.errors.append(str(error)))
    return page


def start(pages, game: str, size: str, **options):
    page = touch_page(pages, *SIZES[size]) if size == "phone" else pages.new(*SIZES[size])
    seats = [("me",), ("bot", "easy")] if game == "crossroads" else None
    create_room(page, game, options=options, seats=seats)
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    return page


def press(page, selector: str, size: str) -> None:
    """A click on a desktop, a tap on a phone."""
    if size == "phone":
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


def typed(page, move: str) -> None:
    before = version(page)
    page.locator("input.typed-move").fill(move)
    page.locator("form.typed button").click()
    wait_for_new_version(page, before)


def ring(page, selector: str) -> str:
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).boxShadow")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_crossroads_tap_card_then_end_and_typed_notation(pages, shot, size):
    page = start(pages, "crossroads", size, first="0")
    mine = ".player-area[data-seat='0']"
    card = page.locator(".layout .card.playable").first
    letter = card.get_attribute("data-pos")
    name = card.get_attribute("aria-label")
    assert name.startswith(f"{letter}: ") and name.endswith("available")
    assert re.search(r"\d+, (a prime|prime factors? [\d, and]+|no prime factors)", name)
    press(page, f".layout .card[data-pos='{letter}']", size)
    assert card.get_attribute("aria-pressed") == "true"
    shot(page, f"layout-crossroads-selected-{size}")
    before = version(page)
    press(page, ".end-zone[data-end='start']", size)
    wait_for_new_version(page, before)
    assert page.locator(f"{mine} .line-cards .card").count() == 1
    page.locator("#status.my-turn").wait_for()  # the bot has answered

    # Just placed (the bot's card, and after the next move ours) and available differ.
    fresh = ring(page, ".line-cards .card.fresh")
    playable = ring(page, ".layout .card.playable")
    assert fresh != playable
    placed = page.locator(".line-cards .card.fresh").get_attribute("aria-label")
    assert placed.endswith(", just placed")

    move = next(m for m in snapshot(page)["legal"] if m.endswith("L"))
    before = version(page)
    typed(page, move.lower())  # typed in any case
    assert page.locator(f"{mine} .line-cards .card").count() == 2
    # Our card is marked just placed until the bot's answer is drawn; then the bot's is. Read
    # the mark and the version drawn at once, since the bot may answer at any moment.
    mark, drawn = page.evaluate(
        "sel => [document.querySelector(sel).className,"
        " Number(document.getElementById('board').dataset.version)]",
        f"{mine} .line-cards .card")
    if drawn == before + 1:
        assert "fresh" in mark
    else:
        assert "fresh" not in mark and page.locator(".line-cards .card.fresh").count() == 1

    page.locator("#status.my-turn").wait_for()
    page.locator("input.typed-move").fill("ZZ")
    page.locator("input.typed-move").press("Enter")
    page.locator("#notice.error").wait_for()
    assert page.locator(f"{mine} .line-cards .card").count() == 2

    # The keyboard: Enter on a card picks it, Enter on an end plays it.
    before = version(page)
    page.locator(".layout .card.playable").first.focus()
    page.keyboard.press("Enter")
    page.locator(".end-zone.ready").first.focus()
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)
    assert page.locator(f"{mine} .line-cards .card").count() == 3
    shot(page, f"layout-crossroads-3-placed-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_caravan_tap_face_up_or_bridge_and_hints_in_words(pages, shot, size):
    page = start(pages, "caravan", size, bridges=2)
    first = page.locator(".layout .card.playable").first.get_attribute("data-pos")
    press(page, f".layout .card[data-pos='{first}']", size)
    assert page.locator(".end-zone[data-end='start'].ready").count() == 1
    press(page, ".end-zone[data-end='start']", size)
    page.locator(".line-cards .card").first.wait_for()

    # Once a card lies, each end offers face up and, under it, a bridge.
    letter = page.locator(".layout .card.playable").first.get_attribute("data-pos")
    press(page, f".layout .card[data-pos='{letter}']", size)
    assert page.locator(".end-column .end-zone").count() == 4
    zone = page.locator(".end-zone[data-end='R*']")
    assert zone.get_attribute("aria-label") == f"put {letter} at the right end, face down (bridge)"
    shot(page, f"layout-caravan-bridge-choice-{size}")
    before = version(page)
    press(page, ".end-zone[data-end='R*']", size)
    wait_for_new_version(page, before)
    assert page.locator(".line-cards .card.back").count() == 1

    page.locator("button.hint").click()
    page.locator(".hint-row").first.wait_for()
    rows = page.locator(".hint-row").all_inner_texts()
    assert rows and not any(NOTATION.search(row) for row in rows)
    assert all(re.search(r"\d+ (at the (left|right) end|to start)", row) for row in rows)
    shot(page, f"layout-caravan-hint-{size}")
    # A hint row picks its card; the typed notation plays a face-down move too.
    row = page.locator(".hint-row").first
    move = row.get_attribute("data-move")
    row.click()
    picked = page.locator(f".layout .card[data-pos='{move[0]}']")
    assert picked.get_attribute("aria-pressed") == "true"
    legal = snapshot(page)["legal"]
    bridge = next((m for m in legal if m.endswith("*")), None)
    if bridge:
        placed = page.locator(".line-cards .card").count()
        typed(page, bridge)
        assert page.locator(".line-cards .card").count() == placed + 1


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", ["crossroads", "caravan"])
def test_the_typed_move_box_shows_a_legal_example(pages, shot, game, size):
    """The example in the typed-move box is always a move that may be played now: never a
    card that is not available, nor an end before the line has a card."""
    page = start(pages, game, size, **({"first": "0"} if game == "crossroads" else {}))
    if size == "desktop":
        page.set_viewport_size({"width": 1280, "height": 800})
    box = page.locator("input.typed-move")
    for turn in range(3):
        if wait_turn_or_over(page) is None:
            break  # a caravan may be stuck early
        legal = snapshot(page)["legal"]
        example = box.get_attribute("placeholder")
        assert example in legal, (turn, example, legal)
        if turn == 1:
            box.scroll_into_view_if_needed()
            in_both_schemes(page, shot, f"layout-{game}-typed-example-{size}")
        before = version(page)
        press(page, f".layout .card[data-pos='{legal[-1][0]}']", size)
        press(page, ".end-zone.ready >> nth=-1", size)
        wait_for_new_version(page, before)
