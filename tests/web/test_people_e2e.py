"""People in Chromium: two accounts; ann follows bob from his profile and challenges him
there; bob's bell rings on the page he has open, he accepts from its dropdown, and both land
in the room, seated. Then ann's people page lists bob, online and playing, to watch."""

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
    for page in (ann_page, bob_page):
        page.locator("#hand, .hand, .board").first.wait_for()
    people = pages.new()
    people.context.add_cookies(ann_page.context.cookies())
    people.goto("/people")
    row = people.locator("li.person", has_text=bob)
    row.locator(".online", has_text="online").wait_for()
    row.get_by_role("link", name="Watch Chükö").wait_for()
    shots(shot, people, "people-following")


def shots(shot, page, name: str) -> None:
    """The window as a desktop (1280×800) and as a phone (390×844) show it, then back."""
    before = page.viewport_size
    for size, width, height in (("desktop", 1280, 800), ("phone", 390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"{name}-{size}", full_page=False)
    page.set_viewport_size(before)
