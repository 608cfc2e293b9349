"""Watching a game: every room offers "Invite to watch" with its spectators' link (a game
of bots alone too), and beside the seats the players see how many watch, as watchers come
and go (a watcher, how many others watch with them)."""

from __future__ import annotations

from urllib.parse import urlparse

from contrast import low_contrast


def invite_to_watch(page) -> str:
    """Open the room's "Invite to watch" and read its link."""
    invite = page.locator("details.watch-invite")
    invite.locator("summary", has_text="Invite to watch").click()
    link = invite.locator("input.link")
    link.wait_for()
    return link.input_value()


def test_players_see_how_many_watch_and_can_invite_more(pages, shot):
    ann = pages.new(1280, 800)
    ann.goto("/")
    made = ann.request.post("/api/rooms", data={
        "game": "crossroads", "options": {"first": "0"},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    assert made.ok, made.text()
    room = made.json()
    ann.goto(f"/room/{room['room']}#token={room['token']}")
    ann.locator("#status.my-turn").wait_for()
    watchers = ann.locator("#seats .watchers")
    assert watchers.count() == 0  # nobody watches yet
    url = invite_to_watch(ann)
    assert urlparse(url).path == f"/watch/{room['room']}"

    bea = pages.new(390, 844)
    bea.goto(url)
    bea.locator("#seats .seat-chip.watching").wait_for()
    watchers.wait_for()
    assert watchers.inner_text() == "1 watching"
    cal = pages.new(390, 844)
    cal.goto(url)
    ann.locator("#seats .watchers", has_text="2 watching").wait_for()
    # A watcher reads how many others watch with them.
    bea.locator("#seats .seat-chip.watching", has_text="You and 1 other are watching").wait_for()
    assert low_contrast(ann) == [] and low_contrast(bea) == []
    shot(ann, "room-watchers-desktop", full_page=False)
    ann.emulate_media(color_scheme="dark")
    shot(ann, "room-watchers-desktop-dark", full_page=False)
    ann.emulate_media(color_scheme="light")
    shot(bea, "room-watchers-spectator-phone", full_page=False)
    ann.set_viewport_size({"width": 390, "height": 844})
    shot(ann, "room-watchers-phone", full_page=False)
    for page, name in ((ann, "phone"), (bea, "spectator-phone")):
        page.emulate_media(color_scheme="dark")
        assert low_contrast(page) == []
        shot(page, f"room-watchers-{name}-dark", full_page=False)
    cal.close()
    ann.locator("#seats .watchers", has_text="1 watching").wait_for()
    bea.close()
    watchers.wait_for(state="detached")


def test_a_game_of_bots_alone_offers_its_watch_link(pages, shot):
    page = pages.new(1280, 800)
    page.goto("/")
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    made = page.request.post("/api/rooms", data={"game": "crossroads", "options": {},
                                                 "seats": seats})
    assert made.ok, made.text()
    room = made.json()
    page.goto(room["watch_url"])
    page.locator("#seats .seat-chip.watching").wait_for()
    assert urlparse(invite_to_watch(page)).path == f"/watch/{room['room']}"
    assert page.locator("#seats .seat-chip.watching").inner_text() == "You are watching"
    shot(page, "room-bots-watch-invite-desktop", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "room-bots-watch-invite-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    assert low_contrast(page) == []
    shot(page, "room-bots-watch-invite-phone-dark", full_page=False)
