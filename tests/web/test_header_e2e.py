"""The header on every page, measured in the browser: on a phone (390×844) one line of at
most 56 px, the club's links folded behind a Menu button that opens and closes them by
keyboard and says so to a screen reader (aria-expanded); on a desktop one line with every
link in sight. Both with room to spare for a language switch in the links."""

import pytest
from play_helpers import create_room

PHONE, DESKTOP = (390, 844), (1280, 800)
HEADER_MAX_PX = 56
SHOTS = "/tmp/chuko-shots"
# Every page shares the header's markup; these are those that add to it (the lobby's
# connection pill, the daily's and the puzzles' badges) and two plain ones.
PAGES = ("/", "/lobby", "/daily", "/puzzles", "/account", "/tournaments")

def header_height(page) -> float:
    return page.evaluate("document.querySelector('header.top').getBoundingClientRect().height")


def links_in_sight(page) -> list[bool]:
    """For each of the header's links, whether its box is drawn inside the window."""
    return page.locator("header.top nav.site a").evaluate_all("""els => els.map((a) => {
        const box = a.getBoundingClientRect();
        return box.width > 0 && box.left >= 0 && box.right <= innerWidth && box.top >= 0;
    })""")


def my_caravan_room(page) -> None:
    """A solo Caravan, its player to move: the room's header with the title, the connection
    and the "your turn" badge."""
    create_room(page, "caravan")
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    page.locator("header.top a.turn-badge").wait_for()


@pytest.mark.parametrize("path", [*PAGES, "room"])
def test_the_phone_header_is_one_line_its_links_behind_a_menu(pages, path):
    page = pages.new(*PHONE)
    if path == "room":
        my_caravan_room(page)
    else:
        page.goto(path)
    page.locator("header.top select.theme").wait_for(state="attached")
    page.locator("header.top select.language").wait_for(state="attached")
    name = path.strip("/").replace("/", "-") or "home"
    page.screenshot(path=f"{SHOTS}/header-{name}-phone.png")
    assert header_height(page) <= HEADER_MAX_PX
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    button = page.get_by_role("button", name="Menu")
    assert button.get_attribute("aria-expanded") == "false"
    assert not any(links_in_sight(page))

    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-expanded") == "true"
    assert all(links_in_sight(page))
    assert page.locator("header.top nav.site select.language").is_visible()
    assert header_height(page) <= HEADER_MAX_PX  # the links open over the page
    page.screenshot(path=f"{SHOTS}/header-{name}-phone-open.png")
    page.keyboard.press("Tab")  # into the links, in the page's order
    assert page.evaluate("document.activeElement.closest('nav.site') !== null")
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('menu-button')")
    assert not any(links_in_sight(page))


@pytest.mark.parametrize("path", ["/", "/puzzles", "room"])
def test_the_desktop_header_shows_every_link_on_one_line(pages, path):
    page = pages.new(*DESKTOP)
    if path == "room":
        my_caravan_room(page)
    else:
        page.goto(path)
    page.locator("header.top select.theme").wait_for(state="attached")
    page.locator("header.top select.language").wait_for(state="attached")
    assert not page.locator("header.top .menu-button").is_visible()
    assert all(links_in_sight(page))
    page.screenshot(path=f"{SHOTS}/header-{path.strip('/') or 'home'}-desktop.png")
    assert header_height(page) <= HEADER_MAX_PX
