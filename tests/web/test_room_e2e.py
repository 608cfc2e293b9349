"""The room page whatever the game: the invite page's name, spectators told they watch,
moves from the keyboard, colours that meet WCAG AA, disabled buttons that look disabled,
card motion that stops for people who ask for less, and a long log read back page by page."""

import re

from contrast import low_contrast
from play_helpers import (
    create_room,
    join_invite,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)


def bots_only_room(page, game: str = "crossroads") -> dict:
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    made = page.request.post("/api/rooms", data={"game": game, "options": {}, "seats": seats})
    assert made.ok, made.text()
    return made.json()


def test_invite_page_asks_a_name_refuses_a_bad_one_and_remembers_a_good_one(pages, shot):
    host = pages.new()
    create_room(host, "crossroads", seats=[("me",), ("friend",)], name="Ann")
    invite = host.locator("#game-crossroads .created input.link").first.input_value()

    guest = pages.new(390, 844)
    guest.goto(invite)
    form = guest.locator("#join")
    form.wait_for()
    assert guest.locator("#board").is_hidden()  # the table comes once the seat is taken
    # The field takes at most 24 characters; the server refuses what it cannot take.
    assert form.locator("#join-name").get_attribute("maxlength") == "24"
    form.locator("#join-name").fill("you")
    form.locator("button[type=submit]").click()
    error = guest.locator("#notice.error")
    error.wait_for()
    assert "You" in error.inner_text() and error.inner_text().endswith(".")
    assert form.is_visible()
    shot(guest, "room-join-refused-phone")
    join_invite(guest, invite, "  Bea  ")
    guest.locator("#status.playing").wait_for()
    assert guest.locator("#seats .seat-chip.me .level").inner_text() == "Bea"
    # The name is this browser's from now on: the home form offers it.
    guest.goto("/")
    assert guest.locator("#player-name").input_value() == "Bea"


def test_spectator_is_told_they_are_watching_and_gets_no_controls(pages, shot):
    page = pages.new()
    page.goto("/")
    made = bots_only_room(page)
    page.goto(made["watch_url"])
    page.locator("#seats .seat-chip.watching").wait_for()
    # The class and the text read at once: the bots may end the game between two reads.
    playing, text = page.locator("#status").evaluate(
        "el => [el.classList.contains('playing'), el.innerText]")
    if playing:
        assert text.startswith("You are watching")
    assert page.locator("button.hint, .end-zone, #board button").count() == 0
    page.locator("#status.over").wait_for()
    assert page.locator(".end-actions .rematch").count() == 0
    assert page.locator(".end-actions a", has_text="Replay").count() == 1
    assert page.locator("#log .log-line").count() == 12
    assert low_contrast(page) == []
    shot(page, "room-spectator-over")


def test_the_log_shows_its_last_page_and_reads_back_earlier_moves(pages, shot):
    """A watcher joining a 60-move game gets its last 50 moves, numbered as moves; scrolling
    the log to its top brings the earlier ones, and the view stays where it was."""
    page = pages.new()
    page.goto("/")
    seats = [{"kind": "bot", "level": "random"}] * 4
    made = page.request.post("/api/rooms", data={
        "game": "chuchula", "options": {"players": 4, "mode": "rounds", "length": 15},
        "seats": seats}).json()
    room = made["room"]
    for _ in range(600):  # 60 commits, each after the bots' 50 ms
        if page.request.get(f"/api/rooms/{room}").json()["status"] == "over":
            break
        page.wait_for_timeout(100)
    whole = []
    while len(whole) < 60:
        older = page.request.get(f"/api/rooms/{room}/log?before={60 - len(whole)}").json()
        whole = older["lines"] + whole
    page.goto(made["watch_url"])
    page.locator("#status.over").wait_for()
    lines = page.locator("#log .log-line")
    assert lines.count() == 50
    assert page.locator("#log").get_attribute("start") == "11"  # numbered by move
    assert lines.all_inner_texts() == whole[10:]
    page.locator("#log").evaluate("log => { log.scrollTop = 0; }")
    lines.nth(59).wait_for()
    assert lines.all_inner_texts() == whole
    assert page.locator("#log").get_attribute("start") == "1"
    # The line that was first stays at the top of the list, the earlier ones above it.
    top = page.locator("#log").bounding_box()["y"]
    assert abs(lines.nth(10).bounding_box()["y"] - top) < 4
    assert lines.nth(9).bounding_box()["y"] < top
    shot(page, "room-log-read-back", full_page=False)


def test_layout_move_from_the_keyboard(pages):
    page = pages.new()
    create_room(page, "crossroads", options={"first": "0"}, seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    assert wait_turn_or_over(page) is not None

    def tab_to(selector: str) -> None:
        for _ in range(60):
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    for _ in range(2):
        assert wait_turn_or_over(page) is not None
        tab_to(".layout .card.playable")
        picked = page.evaluate("document.activeElement.dataset.pos")
        page.keyboard.press("Space")
        # The redraw keeps the focus on the card just picked, now pressed.
        page.wait_for_function(
            "pos => document.activeElement.dataset.pos === pos "
            "&& document.activeElement.getAttribute('aria-pressed') === 'true'", arg=picked)
        tab_to(".end-zone.ready")
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_new_version(page, before)
        # My move is the last, or the one before the bot's answer.
        assert any(move.startswith(picked) for move in snapshot(page)["view"]["moves"][-2:])


def test_room_text_meets_wcag_aa_contrast_while_playing(pages):
    page = pages.new(390, 844)
    create_room(page, "chuko", options={"players": 3},
                seats=[("me",), ("bot", "random"), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    assert wait_turn_or_over(page) is not None
    assert low_contrast(page) == []
    page.goto("/")
    page.locator(".game-panel").first.wait_for()
    assert low_contrast(page) == []


def test_disabled_buttons_look_disabled_and_enabled_ones_do_not(pages):
    page = pages.new()
    page.goto("/")
    page.locator(".game-panel").first.wait_for()
    looks = page.evaluate("""() => {
      const seen = {};
      for (const where of ["main", "#board-probe"]) {
        let host = document.querySelector(where);
        if (!host) {
          host = document.createElement("section");
          host.id = "board-probe";
          host.className = "board";
          document.querySelector("main").append(host);
        }
        for (const name of ["on", "off", "primary-off"]) {
          const b = document.createElement("button");
          b.disabled = name !== "on";
          if (name.startsWith("primary")) b.className = "primary";
          b.textContent = name;
          host.append(b);
          const s = getComputedStyle(b);
          seen[`${where} ${name}`] = [s.backgroundColor, s.borderStyle, s.opacity, s.cursor];
        }
      }
      return seen;
    }""")
    for where in ("main", "#board-probe"):
        on, off, primary_off = (looks[f"{where} {n}"] for n in ("on", "off", "primary-off"))
        assert off == primary_off  # a disabled primary is no brighter than any disabled one
        assert off[0] != on[0] and off[1] == "dashed" and on[1] == "solid"
        assert off[2] == "1" and off[3] == "not-allowed"  # readable, and says it cannot act
    assert low_contrast(page, "button") == []


def test_card_motion_stops_when_less_motion_is_asked_for(browser, base_url):
    probe = """() => {
      const slot = document.createElement("div");
      slot.className = "top-slot enter";
      slot.innerHTML = '<div class="card"></div>';
      document.body.append(slot);
      const card = getComputedStyle(slot.firstChild);
      return [card.animationName, parseFloat(card.animationDuration)];
    }"""
    seen = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(base_url=base_url, reduced_motion=motion)
        page = context.new_page()
        page.goto("/")
        seen[motion] = page.evaluate(probe)
        context.close()
    name, seconds = seen["no-preference"]
    assert name != "none" and 0 < seconds <= 0.4  # short
    assert seen["reduce"][0] == "none"
    assert re.fullmatch(r"[\w-]+", name)
