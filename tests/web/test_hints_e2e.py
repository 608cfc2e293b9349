"""A hint that takes a while says so: "thinking…" shows once a hint has been awaited for
300 ms, and goes when it comes; a quick hint never shows it. The page's socket is routed
through the test, which holds the server's hint until it lets it go, and the page's clock
is the test's, so nothing here waits on real time."""

from __future__ import annotations

import json
import re

import pytest
from contrast import low_contrast

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class HeldHints:
    """Routes a page's room socket through the test: the server's hint messages wait in
    `held` until `let_go`; everything else passes at once."""

    def __init__(self, page) -> None:
        self.held: list[str] = []
        self.client = None
        page.route_web_socket(re.compile(r".*/ws/.*"), self.route)

    def route(self, ws) -> None:
        self.client = ws
        server = ws.connect_to_server()

        def from_server(text) -> None:
            if json.loads(text).get("type") == "hint":
                self.held.append(text)
            else:
                ws.send(text)

        server.on_message(from_server)

    def let_go(self) -> None:
        while self.held:
            self.client.send(self.held.pop(0))


def my_crossroads_turn(page) -> None:
    """A Crossroads room of the page's player against an easy bot, the player to move."""
    page.goto("/")
    made = page.request.post("/api/rooms", data={
        "game": "crossroads", "options": {"first": "0"},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    assert made.ok, made.text()
    room = made.json()
    page.goto(f"/room/{room['room']}#token={room['token']}")
    page.locator("#status.my-turn").wait_for()
    page.locator("button.hint").wait_for()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_thinking_shows_for_a_slow_hint_and_never_for_a_quick_one(pages, shot, size):
    page = pages.new(*SIZES[size])
    page.clock.install()
    hints = HeldHints(page)
    my_crossroads_turn(page)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    thinking = page.locator("#tools .thinking")

    # A quick hint: it comes within 300 ms, and nothing more shows after.
    page.locator("button.hint").click()
    wait_until_held(page, hints)
    page.clock.run_for(250)
    assert thinking.count() == 0
    hints.let_go()
    page.locator(".hint-row").first.wait_for()
    page.clock.run_for(2000)
    assert thinking.count() == 0

    # A slow one: "thinking…" from 300 ms on, until the hint comes.
    page.locator("button.hint").click()
    wait_until_held(page, hints)
    page.clock.run_for(299)
    assert thinking.count() == 0
    page.clock.run_for(2)
    thinking.wait_for()
    assert thinking.inner_text() == "thinking…"
    assert thinking.get_attribute("role") == "status"
    assert low_contrast(page, "#tools *") == []
    shot(page, f"hint-thinking-{size}", full_page=False)
    page.emulate_media(color_scheme="dark")
    assert low_contrast(page, "#tools *") == []
    shot(page, f"hint-thinking-{size}-dark", full_page=False)
    page.emulate_media(color_scheme="light")
    hints.let_go()
    thinking.wait_for(state="detached")
    page.locator(".hint-note", has_text="your best move").wait_for()
    shot(page, f"hint-after-thinking-{size}", full_page=False)


def wait_until_held(page, hints: HeldHints) -> None:
    """Until the server's answer to the hint just asked is held by the test."""
    for _ in range(600):
        if hints.held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the server's hint never came")
