"""Driving the browser app like a player: the home form, the lobby, the account page,
waiting for snapshots, and moves sent through a seat's own socket."""

from __future__ import annotations

import contextlib
import json
import random
import time
from urllib.parse import unquote, urlparse

import websockets.sync.client

from chuko.bots import make_bot
from chuko.games import game_class

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
    """The room's state as the page's seat gets it, from the JSON API (by the session's
    cookie where the page holds no token: a room the lobby made)."""
    room, token = room_and_token(page)
    return page.request.get(f"/api/rooms/{room}" + (f"?token={token}" if token else "")).json()


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


def lobby(pages, width: int, height: int):
    """A new person's page on the lobby, its socket open and its guest known."""
    page = pages.new(width, height)
    page.goto("/lobby")
    page.locator("#conn.open").wait_for()
    page.locator("#me", has_text="You play as").wait_for()
    return page


def account_form(page, title: str, fields: dict[str, str], button: str) -> None:
    """Fill the account page's panel titled `title` (fields by label) and press `button`."""
    panel = page.locator("section.game-panel", has=page.get_by_role("heading", name=title))
    for label, value in fields.items():
        panel.get_by_label(label, exact=True).fill(value)
    panel.get_by_role("button", name=button).click()


def sign_up(page, username: str, password: str = "correct horse") -> None:
    """The page's visitor (a guest, or nobody yet) signs up on /account as `username`."""
    page.goto("/account")
    page.locator("#forms form").first.wait_for()
    account_form(page, "Sign up", {"Username": username, "Password": password}, "Sign up")
    page.locator("#who", has_text=f"You are logged in as {username}").wait_for()


def seat_socket(page):
    """A socket on the room of `page` as its seat (to use in a `with`): by the seat's token
    where the page has one, else by the session's cookie (a room the lobby made), as another
    tab would."""
    room, token = room_and_token(page)
    url = page.url.split("/room/")[0].replace("http", "ws", 1) + f"/ws/{room}"
    if token:
        return websockets.sync.client.connect(f"{url}?token={token}")
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    return websockets.sync.client.connect(url, additional_headers={"Cookie": cookie})


def play_out(*pages, seed: int = 1, until=None) -> None:
    """Every page's seat plays random legal moves through a socket of its own until the
    game is over (or `until(state)` holds for a state one of them is sent)."""
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(seat_socket(page)) for page in pages]
        deadline = time.monotonic() + 4 * TURN_TIMEOUT_S
        states: list[dict | None] = [None] * len(sockets)
        moved = [-1] * len(sockets)  # the version each seat last moved at
        while time.monotonic() < deadline:
            for k, ws in enumerate(sockets):
                try:
                    while True:
                        msg = json.loads(ws.recv(timeout=0.02))
                        assert msg["type"] != "error", msg
                        if msg["type"] == "state":
                            states[k] = msg
                except TimeoutError:
                    pass
                state = states[k]
                if state is None:
                    continue
                if state["status"] != "playing" or (until and until(state)):
                    return
                if state["seat"] in state["view"].get("to_move", []) and state["legal"] \
                        and state["version"] > moved[k]:
                    rules = game_class(state["game"])
                    legal = [rules.parse_move(text) for text in state["legal"]]
                    move = make_bot(state["game"], "random", rng).choose(state["view"], legal)
                    ws.send(json.dumps({"type": "move", "move": str(move)}))
                    moved[k] = state["version"]
        raise AssertionError("the game did not end in time")
