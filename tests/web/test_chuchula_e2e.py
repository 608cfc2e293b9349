"""A Chuchula round in the browser against bots: groups arranged by click and drag with
their types shown live, the order checked before the commit, the advisor's suggestion, the
reveal position by position, the next round dealt. And the screen's group types agree with
the engine's."""

from random import Random

from play_helpers import create_room

from chuko.core.deck52 import DECK, cards_text
from chuko.games.chuchula import group_strength, group_type

TYPE_NAMES = {"trial", "double sequence", "sequence", "color", "pair", "individual"}


def test_chuchula_round_against_bots_on_a_phone(pages, shot):
    page = pages.new(390, 844)
    create_room(page, "chuchula", options={"players": 2, "mode": "rounds", "length": 2},
                seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    loose = page.locator(".hand.loose .card")
    loose.first.wait_for()
    assert loose.count() == 13
    shot(page, "chuchula-0-hand")

    # The hand comes highest first: the three highest cards go to group 4, the lowest
    # to group 1, which is likely out of order (H4). One card goes by drag and drop.
    loose.first.drag_to(page.locator(".group-slot[data-slot='3']"))
    for slot in (3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0):
        loose.first.click()
        page.locator(f".group-slot[data-slot='{slot}'] .place").first.click()
    assert loose.count() == 1
    types = page.locator(".group-slot .group-type").all_inner_texts()
    assert len(types) == 4 and set(t.lower() for t in types) <= TYPE_NAMES
    check = page.locator(".order-check")
    commit = page.locator("button.commit")
    if "bad" in check.get_attribute("class"):
        assert "strongest first" in check.inner_text()
        assert commit.is_disabled()
        shot(page, "chuchula-1-out-of-order")
        page.locator("button", has_text="Order strongest first").click()
    assert "good" in check.get_attribute("class") and commit.is_enabled()

    page.locator("button.suggest").click()
    page.locator(".hint-note").wait_for()
    assert loose.count() == 1 and "good" in check.get_attribute("class")
    shot(page, "chuchula-2-suggested")
    commit.click()

    reveal = page.locator(".reveal-cell")
    page.locator(".reveal[data-step='4']").wait_for()
    assert reveal.count() == 8  # four positions × two players (H5)
    page.wait_for_timeout(400)  # let the last row fade in for the screenshot
    shot(page, "chuchula-3-reveal")
    won = page.locator(".reveal-cell.won").count()
    scores = page.locator(".score-chip").all_inner_texts()
    assert sum(int(text.split(":")[1].split()[0]) for text in scores) == won
    page.locator(".hand.loose .card").first.wait_for()  # round 2 is dealt
    assert loose.count() == 13


def test_screen_group_types_agree_with_the_engine(pages):
    """groups.js (display only) against chuko.games.chuchula on random and edge groups."""
    page = pages.new()
    page.goto("/")
    rng = Random(5)
    groups = [cards_text(rng.sample(DECK, 3)) for _ in range(400)]
    groups += ["As 2h 3d", "Ks As 2s", "Qs Ks As", "4d 3d 2d", "3s 3d 3c", "3s 3d Ks", "Qs 9s 4d"]
    shown = page.evaluate(
        """async (groups) => {
            const { groupInfo } = await import("/static/js/groups.js");
            return groups.map((g) => {
                const info = groupInfo(g.split(" "));
                return [info.type, info.strength];
            });
        }""",
        groups,
    )
    assert shown == [[group_type(g).name, group_strength(g)] for g in groups]
