"""Driving the browser app like a player: the home form, waiting for snapshots."""

from __future__ import annotations

import time
from urllib.parse import unquote, urlparse

TURN_TIMEOUT_S = 15


def create_room(page, game: str, options: dict | None = None, seats: list | None = None,
                name: str | None = None) -> None:
    """Fill game's form on the home page (options by name; seats as ("me"|"bot"|"friend",
    level); your display name) and press Create room."""
    page.goto("/")
    panel = page.locator(f"#game-{game}")
    panel.locator("form").wait_for()
    if name is not None:
        page.locator("#player-name").fill(name)
    for name, value in (options or {}).items():
        field = panel.locator(f"[name='{name}']")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
            field.dispatch_event("input")
    for index, (kind, *level) in enumerate(seats or []):
        row = panel.locator(".seat-row").nth(index)
        row.locator("select").first.select_option(kind)
        if level:
            row.locator("select").nth(1).select_option(level[0])
    panel.locator("button[type=submit]").click()


def room_and_token(page) -> tuple[str, str]:
    """The room id and seat token of a room page: from its #token=… fragment, or where the
    page found it without one, the browser's storage."""
    url = urlparse(page.url)
    room = unquote(url.path.split("/")[2])
    token = unquote(url.fragment.removeprefix("token="))
    if not token:
        token = page.evaluate(
            "room => (JSON.parse(localStorage.getItem('chuko.rooms') || '{}')[room] || {}).token",
            room) or ""
    return room, token


def snapshot(page) -> dict:
    """The room's state as the page's seat gets it, from the JSON API."""
    room, token = room_and_token(page)
    return page.request.get(f"/api/rooms/{room}?token={token}").json()


def assert_shows_the_result(page) -> str:
    """The finished game's status line is the engine's sentence for this seat; returned."""
    page.locator("#status.over").wait_for()
    result = snapshot(page)["result"]
    assert result and page.locator("#status > span").inner_text() == result
    assert "Seat" not in result  # players see names, never seat numbers
    return result


def version(page) -> int:
    text = page.locator("#board").get_attribute("data-version")
    return int(text) if text else -1


def wait_for_new_version(page, before: int) -> None:
    page.wait_for_function(
        "v => Number(document.getElementById('board').dataset.version) > v", arg=before
    )


def wait_turn_or_over(*pages):
    """The first page whose player must move, or None once the game is over everywhere."""
    deadline = time.monotonic() + TURN_TIMEOUT_S
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#status.my-turn").count():
                return page
        if all(page.locator("#status.over").count() for page in pages):
            return None
        pages[0].wait_for_timeout(40)
    raise AssertionError("nobody got the turn and the game did not end")


def join_invite(page, url: str, name: str | None = None) -> None:
    """Open an invite link, give a name where the page asks for one, take the seat."""
    page.goto(url)
    form = page.locator("#join")
    form.wait_for()
    if name is not None:
        form.locator("#join-name").fill(name)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/room/**#token=*")


def chips(page) -> list[str]:
    """The seat chips' names as the page shows them ("You", "Bea", "Hard bot")."""
    return page.locator("#seats .seat-chip[data-seat] .name").all_inner_texts()
