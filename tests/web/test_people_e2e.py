"""People in Chromium: two accounts; ann follows bob from his profile and challenges him
there; bob's bell rings on the page he has open, he accepts from its dropdown, and both land
in the room. He resigns; ann challenges him again from the end panel, and he declines with
a reason her bell shows. Then ann's people page lists bob, online, and her home page his
finished game."""

from __future__ import annotations

import secrets

from play_helpers import sign_up


def test_a_challenge_from_a_profile_rings_the_bell_and_accepting_seats_both(pages, shot):
    ann_page, bob_page = pages.new(), pages.new()
    ann, bob = (f"{who}_{secrets.token_hex(3)}" for who in ("ann", "bob"))
    sign_up(ann_page, ann)
    sign_up(bob_page, bob)
    bob_page.goto("/lobby")
    bell = bob_page.locator("header.top button.bell")
    bell.wait_for()
    ann_page.goto(f"/@/{bob}")
    relations = ann_page.locator("#relations")
    relations.get_by_role("button", name="Follow").click()
    relations.get_by_role("button", name="Unfollow").wait_for()
    relations.get_by_role("button", name="Challenge").click()
    form = ann_page.locator("form.challenge-form")
    form.locator("#challenge-game").select_option("chuko")
    form.locator("#challenge-clock").select_option(label="30 s + 1 min")
    shots(shot, ann_page, "people-challenge-form")
    form.get_by_role("button", name=f"Challenge {bob}").click()
    ann_page.locator("#notice.good").get_by_text(f"Challenge sent to {bob}").wait_for()
    bell.locator(".bell-count", has_text="1").wait_for()
    bell.click()
    menu = bob_page.locator(".bell-menu")
    menu.get_by_text(f"{ann} challenges you").wait_for()
    menu.get_by_text("Chükö · casual · 30 s + 1 min").wait_for()
    shots(shot, bob_page, "people-bell")
    menu.get_by_role("button", name="Accept").click()
    bob_page.wait_for_url("**/room/*")
    ann_page.wait_for_url("**/room/*")
    assert ann_page.url.rsplit("/", 1)[1] == bob_page.url.rsplit("/", 1)[1]
    # From the finished game's end panel, ann challenges bob again; he declines, saying why.
    bob_page.locator("button.resign").click()
    bob_page.locator("dialog.ask", has_text="Resign this game?").locator("button.go").click()
    ann_page.locator("#status.over button.challenge-again").click()
    ann_page.locator("#notice.good").get_by_text("Challenge sent").wait_for()
    shots(shot, ann_page, "people-end-panel")
    bob_page.locator("header.top button.bell .bell-count", has_text="1").wait_for()
    bob_page.locator("header.top button.bell").click()
    again = bob_page.locator(".bell-menu li.challenge", has_text=f"{ann} challenges you")
    again.get_by_role("combobox").select_option("later")
    again.get_by_role("button", name="Decline").click()
    ann_page.locator("header.top button.bell").click()
    ann_page.locator(".bell-menu").get_by_text(f"{bob} declined: Later, please.").wait_for()
    people = pages.new()
    people.context.add_cookies(ann_page.context.cookies())
    people.goto("/people")
    row = people.locator("li.person", has_text=bob)
    row.locator(".online", has_text="online").wait_for()
    shots(shot, people, "people-following")
    people.goto("/")
    followed = people.locator("#followed-games")
    followed.get_by_text(f"{bob} played Chükö").wait_for()
    followed.get_by_role("link", name="replay").wait_for()
    shots(shot, people, "people-home")


def shots(shot, page, name: str) -> None:
    """The window as a desktop (1280×800) and as a phone (390×844) show it, then back."""
    before = page.viewport_size
    for size, width, height in (("desktop", 1280, 800), ("phone", 390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"{name}-{size}", full_page=False)
    page.set_viewport_size(before)
