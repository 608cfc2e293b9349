"""Chuchula in the browser from one round to the next: the window at the end of a round fits
the screen with every player's column, its button focused, and closes with Esc or a tap
beside it; the reveal keeps the seats' order in every round; a group put below a stronger
one is refused as soon as both are complete, by the engine's measure of the groups."""

import json
import random

import pytest
from play_helpers import create_room, seat_socket, snapshot

from chuko.core.deck52 import parse_cards
from chuko.games.chuchula import group_strength, random_grouping

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def start(pages, size: str, players: int = 2, length: int = 2):
    """A room of `players` seats (you and random bots), your hand on the table."""
    page = pages.new(*SIZES[size])
    create_room(page, "chuchula", options={"players": players, "mode": "rounds", "length": length},
                seats=[("me",), *[("bot", "random")] * (players - 1)])
    page.wait_for_url("**/room/**#token=*")
    page.locator(".hand.loose .card").first.wait_for()
    return page


def commit_any_grouping(page, seed: int = 1) -> None:
    """Commit a valid grouping of your hand through the seat's own socket, as a second tab
    would, and wait until the room has taken it."""
    state = snapshot(page)
    move = random_grouping(parse_cards(" ".join(state["view"]["hand"])), random.Random(seed))
    with seat_socket(page) as ws:
        ws.send(json.dumps({"type": "move", "move": str(move)}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] != "error", msg
            if msg["type"] == "state" and msg["version"] > state["version"]:
                return


def inside_viewport(page, locator) -> bool:
    """The element's whole box lies in the window and nothing covers its middle."""
    return locator.evaluate("""el => {
        const box = el.getBoundingClientRect();
        if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
            return false;
        }
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return el.contains(hit);
    }""")


def seen_after_scrolling(page, locator) -> bool:
    """The element can be brought into view by scrolling what holds it (the window's own
    scrolling areas: the page behind stays put under a fixed window)."""
    locator.evaluate("el => el.scrollIntoView({block: 'nearest', inline: 'nearest'})")
    return inside_viewport(page, locator)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_end_of_round_window_fits_the_screen_with_every_column(pages, shot, size, players):
    page = start(pages, size, players)
    commit_any_grouping(page)
    pause = page.locator("#pause .pause-card")
    pause.wait_for()
    # The table's own reveal of the round redraws the room four times; the window stays.
    page.locator("#board .reveal[data-step='4']").wait_for()
    page.wait_for_timeout(300)
    button = pause.locator("button.next-round")
    seats = pause.locator(".reveal-seat")
    assert seats.count() == players
    shot(page, f"chuchula-round-window-{players}p-{size}", full_page=False)
    wrong = []  # every fault at once, so that a failure names them all
    if not page.evaluate("document.activeElement.classList.contains('next-round')"):
        wrong.append("the Next round button does not have the focus")
    if not inside_viewport(page, button):
        wrong.append("the Next round button is off the screen")
    if not inside_viewport(page, pause.locator("h2")):
        wrong.append("the window's heading is cut")
    for cell in [*seats.all(), *pause.locator(".reveal-cell").all()]:
        if not seen_after_scrolling(page, cell):
            wrong.append(f"{cell.inner_text()!r} cannot be seen")
    shot(page, f"chuchula-round-window-{players}p-{size}-scrolled", full_page=False)
    # Scrolling inside the window never moves its button off the screen.
    if not inside_viewport(page, button):
        wrong.append("the Next round button is off the screen after scrolling")
    assert not wrong, wrong
    button.click()
    pause.wait_for(state="detached")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_escape_or_a_tap_beside_the_window_closes_it(pages, size):
    page = start(pages, size, players=3, length=3)
    pause = page.locator("#pause .pause-card")
    commit_any_grouping(page, seed=1)
    pause.wait_for()
    pause.locator("h2").click()  # a tap inside the window leaves it open
    assert pause.is_visible()
    page.keyboard.press("Escape")
    pause.wait_for(state="detached")
    page.locator(".hand.loose .card").first.wait_for()  # round 2 is on the table
    commit_any_grouping(page, seed=2)
    pause.wait_for()
    # A tap on the dimmed table around the window, at the screen's top left corner.
    page.mouse.click(3, 3)
    pause.wait_for(state="detached")


# What of a round's reveal does not fit its box (the table's reveal, or the window's summary
# that scrolls): the grid wider than the box, or a card or a cell reaching past what holds it.
REVEAL_OVERFLOWS = """box => {
  const edges = (el) => el.getBoundingClientRect();
  const outside = (inner, outer) => inner.left < outer.left - 1 || inner.right > outer.right + 1;
  const wrong = [];
  if (box.scrollWidth > box.clientWidth) {
    wrong.push(`the grid is ${box.scrollWidth} px wide in ${box.clientWidth} px`);
  }
  for (const cell of box.querySelectorAll('.reveal-seat, .reveal-cell')) {
    if (outside(edges(cell), edges(box))) wrong.push(`${cell.innerText} is cut`);
    for (const part of cell.querySelectorAll('.card, .group-type')) {
      if (outside(edges(part), edges(cell))) wrong.push(`${part.innerText} leaves its cell`);
    }
  }
  return wrong;
}"""


@pytest.mark.parametrize("where", ["table", "window"])
def test_four_players_columns_fit_a_rounds_reveal_on_a_phone(pages, where):
    """After the match's last round the table shows the reveal; between rounds, the window."""
    page = start(pages, "phone", players=4, length=1 if where == "table" else 2)
    commit_any_grouping(page)
    box = page.locator("#board .reveal[data-step='4']" if where == "table"
                       else "#pause .pause-card > .round-summary")
    box.wait_for()
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    page.screenshot(path=f"/tmp/chuko-shots/chuchula-reveal-4p-{where}-phone.png")
    assert box.locator(".reveal-seat").count() == 4
    assert box.evaluate(REVEAL_OVERFLOWS) == []


def reveal_columns(page, where: str) -> list[str]:
    return page.locator(f"{where} .reveal-seat").all_inner_texts()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_reveal_keeps_the_seats_order_in_every_round(pages, shot, size):
    page = start(pages, size, players=3, length=3)
    seats = page.locator("#seats .seat-chip[data-seat] .name").all_inner_texts()
    orders = []
    for round_number in (1, 2):
        commit_any_grouping(page, seed=round_number)
        pause = page.locator("#pause .pause-card")
        pause.wait_for()
        assert f"round {round_number}:" in pause.locator(".reveal .label").inner_text().lower()
        orders.append(reveal_columns(page, "#pause"))
        shot(page, f"chuchula-reveal-order-round-{round_number}-{size}", full_page=False)
        # Closed by script: the window's own reach is the test above.
        page.evaluate("document.querySelector('#pause button.next-round').click()")
        pause.wait_for(state="detached")
        page.locator(".hand.loose .card").first.wait_for()
    assert orders[0] == orders[1] == seats


def weaker_and_stronger(hand: list[str]) -> tuple[list[str], list[str]]:
    """Two groups of three from the hand, the second stronger than the first (the engine's
    measure)."""
    cards = parse_cards(" ".join(hand))
    weak, strong = list(cards[:3]), list(cards[3:6])
    if group_strength(weak) > group_strength(strong):
        weak, strong = strong, weak
    if group_strength(weak) == group_strength(strong):  # equal groups: try the next three
        strong = list(cards[6:9])
        if group_strength(weak) > group_strength(strong):
            weak, strong = strong, weak
    assert group_strength(weak) < group_strength(strong)
    return [str(c) for c in weak], [str(c) for c in strong]


def place(page, cards: list[str], slot: int) -> None:
    for card in cards:
        page.locator(f".hand.loose [data-card='{card}']").click()
        page.locator(f".group-slot[data-slot='{slot}']").click()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_group_stronger_than_one_above_it_is_refused_once_both_are_complete(
        pages, shot, size):
    page = start(pages, size, players=2, length=1)
    weak, strong = weaker_and_stronger(snapshot(page)["view"]["hand"])
    check = page.locator(".order-check")
    commit = page.locator("button.commit")
    # Group 1 weaker than group 3, group 2 still empty: no group 2 can mend that.
    place(page, weak, 0)
    assert "bad" not in check.get_attribute("class")
    place(page, strong[:2], 2)
    assert "bad" not in check.get_attribute("class")  # group 3 is not complete yet
    place(page, strong[2:], 2)
    assert "bad" in check.get_attribute("class")
    assert "Group 3" in check.inner_text() and "group 1" in check.inner_text()
    assert "strongest first" in check.inner_text()
    assert page.locator("button.order").is_visible() and commit.is_disabled()
    shot(page, f"chuchula-order-refused-early-{size}", full_page=False)
    # Swapped by "Order strongest first": the stronger group goes up, the message goes.
    page.locator("button.order").click()
    assert sorted(page.locator(".group-slot[data-slot='0'] .card[data-card]").evaluate_all(
        "cards => cards.map((c) => c.dataset.card)")) == sorted(strong)
    assert "bad" not in check.get_attribute("class")
    assert "Place 6 more cards" in check.inner_text()
