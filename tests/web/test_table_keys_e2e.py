"""The table by keyboard and at a glance: Esc puts back a card picked up (on every table
that picks one), Tab stays inside a window over the table (the question before leaving, the
pause between rounds), a hint's losing moves are coloured apart from its winning ones, and
no table tells a mouse to "tap"."""

from __future__ import annotations

import json
import re

import pytest
from contrast import in_both_schemes
from play_helpers import create_room, play_out, snapshot, wait_turn_or_over

DESKTOP, PHONE = (1280, 800), (390, 844)
TAP = re.compile(r"\btap\b", re.IGNORECASE)


def table(pages, game: str, size=DESKTOP, route=None):
    """A room of `game` against a bot (or alone), its player to move."""
    page = pages.new(*size)
    if route is not None:
        page.route_web_socket(re.compile(r".*/ws/.*"), route)
    if game == "chuchula":
        create_room(page, game, options={"players": 2, "mode": "rounds", "length": 1},
                    seats=[("me",), ("bot", "easy")])
    elif game == "crossroads":
        create_room(page, game, options={"first": "0"}, seats=[("me",), ("bot", "easy")])
    else:
        create_room(page, game)
    page.wait_for_url("**/room/**#token=*")
    if game == "chuchula":
        page.locator(".hand.loose .card").first.wait_for()
        page.locator("#log .log-line", has_text="committed a grouping").first.wait_for()
    else:
        page.locator("#status.my-turn").wait_for()
    return page


def pick_a_card(page, game: str):
    """Pick up a card as a player does; the card picked."""
    card = page.locator(".hand.loose .card" if game == "chuchula" else ".layout .card.playable")
    card.first.click()
    picked = page.locator(".board [aria-pressed='true']")
    picked.wait_for()
    return picked


@pytest.mark.parametrize("game", ["crossroads", "caravan", "chuchula"])
def test_escape_puts_back_the_card_picked_up(pages, game):
    page = table(pages, game)
    # Esc on the card itself.
    pick_a_card(page, game)
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector(\".board [aria-pressed='true']\")")
    assert page.locator(".end-zone.ready").count() == 0
    # And with the focus elsewhere on the page (after a click beside the table).
    pick_a_card(page, game)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector(\".board [aria-pressed='true']\")")
    assert page.locator(".end-zone.ready").count() == 0


def focus_inside(page, selector: str) -> bool:
    return page.evaluate("sel => Boolean(document.activeElement.closest(sel))", selector)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_tab_stays_inside_the_question_before_leaving(pages, shot, size):
    page = table(pages, "crossroads", size)
    page.locator("header.top a.brand").click()
    dialog = page.locator("dialog.ask")
    dialog.wait_for()
    assert focus_inside(page, "dialog.ask")
    for key in ["Tab"] * 5 + ["Shift+Tab"] * 5:
        page.keyboard.press(key)
        assert focus_inside(page, "dialog.ask"), key
    in_both_schemes(page, shot, f"table-leave-question-{'desktop' if size == DESKTOP else 'phone'}")
    dialog.locator("button.stay").click()
    dialog.wait_for(state="detached")


def test_tab_stays_inside_the_pause_between_rounds(pages, paused_url):
    page = pages.new(*DESKTOP, base_url=paused_url)
    # The bot starts round one, so you start round two: the pause waits for you.
    create_room(page, "crossroads", options={"rounds": 2, "first": "1"},
                seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.playing, #status.my-turn").first.wait_for()
    play_out(page, until=lambda state: state.get("round_ended"))
    page.locator("#pause .pause-card button.next-round").wait_for()
    page.wait_for_function("() => document.activeElement.classList.contains('next-round')")
    for key in ["Tab"] * 3 + ["Shift+Tab"] * 3:
        page.keyboard.press(key)
        assert focus_inside(page, ".pause-card"), key
    page.keyboard.press("Enter")
    page.locator("#pause .pause-card").wait_for(state="detached")


OUTLOOKS = [("win", "wins by 1 point"), ("draw", "draws"), ("loss", "loses by 1 point")]


def graded_hints(ws):
    """The server's hint with each move's outlook set in turn to a win, a draw and a loss,
    so the screen has every kind to colour (the labels agreeing)."""
    server = ws.connect_to_server()

    def from_server(text):
        msg = json.loads(text)
        if msg.get("type") == "hint":
            moves = sorted(msg["values"])
            kinds = [OUTLOOKS[i % 3] for i in range(len(moves))]
            msg["values"] = {move: label for move, (_, label) in zip(moves, kinds, strict=True)}
            msg["outlook"] = {move: kind for move, (kind, _) in zip(moves, kinds, strict=True)}
        ws.send(json.dumps(msg))

    server.on_message(from_server)


def looks(row) -> tuple[str, ...]:
    return tuple(row.evaluate("""row => {
      const label = row.querySelector('.hint-label');
      return [getComputedStyle(row).borderLeftColor, getComputedStyle(label).backgroundColor,
              getComputedStyle(label).color];
    }"""))


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_losing_hint_rows_are_coloured_apart_from_winning_ones(pages, shot, size):
    page = table(pages, "crossroads", size, route=graded_hints)
    # After a first card each, so the hint lists both ends of each card.
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone.ready").first.click()
    assert wait_turn_or_over(page) is not None
    page.locator("button.hint").click()
    rows = page.locator(".hint-row")
    rows.first.wait_for()
    page.mouse.move(0, 0)  # no row under the pointer (a hovered row is edged darker)
    outlook = {move: kind for move, kind in zip(
        sorted(snapshot(page)["legal"]), [k for k, _ in OUTLOOKS] * 4, strict=False)}
    by_kind: dict[str, set] = {"win": set(), "draw": set(), "loss": set()}
    for i in range(rows.count()):
        row = rows.nth(i)
        by_kind[outlook[row.get_attribute("data-move")]].add(looks(row))
    # One look per kind, and a loss never looks like a win.
    assert all(len(seen) == 1 for seen in by_kind.values()), by_kind
    assert by_kind["loss"] != by_kind["win"] and by_kind["loss"] != by_kind["draw"]
    page.locator(".hint-list").scroll_into_view_if_needed()
    in_both_schemes(page, shot, f"table-hint-outlook-{'desktop' if size == DESKTOP else 'phone'}")


@pytest.mark.parametrize("game", ["crossroads", "caravan", "chuchula"])
def test_no_table_tells_a_mouse_to_tap(pages, shot, game):
    page = table(pages, game)
    assert not TAP.search(page.locator("#board").inner_text())
    pick_a_card(page, game)
    assert not TAP.search(page.locator("#board").inner_text())
    in_both_schemes(page, shot, f"table-guide-{game}-desktop", selector=".guide")
