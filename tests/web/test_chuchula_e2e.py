"""Chuchula in the browser against a bot: every card placed by tapping group boxes (on a
desktop and on a phone), a group's cards kept in the order the engine writes them however
they were put in, cards dragged between groups, the keyboard, "Place for me", the order
checked before the commit, the reveal position by position. The screen's
copy of the group rules meets the engine's in tests/games/test_chuchula_groups.py."""

import pytest
from play_helpers import create_room, snapshot

from chuko.core.deck52 import parse_cards
from chuko.games.chuchula import _display_order

TYPE_NAMES = {"trial", "double sequence", "sequence", "colour", "pair", "individual"}
SIZES = {"desktop": (1100, 900), "phone": (390, 844)}


def start(pages, size: str, length: int = 1):
    page = pages.new(*SIZES[size])
    create_room(page, "chuchula", options={"players": 2, "mode": "rounds", "length": length},
                seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator(".hand.loose .card").first.wait_for()
    # The bot groups at once; its commit redraws the table, so wait for it before handling
    # cards (on a loaded machine it could land between a selection and the key that uses it).
    page.locator("#log .log-line", has_text="committed a grouping").first.wait_for()
    return page


def group_cards(page, slot: int) -> list[str]:
    return page.locator(f".group-slot[data-slot='{slot}'] .card[data-card]").evaluate_all(
        "cards => cards.map((c) => c.dataset.card)")


def written(cards: list[str]) -> list[str]:
    """A group's cards in the order the engine writes them (one still short of three:
    highest first)."""
    group = parse_cards(" ".join(cards))
    return [str(card) for card in (_display_order(group) if len(group) == 3
                                   else sorted(group, reverse=True))]


def commit_in_order(page) -> None:
    check = page.locator(".order-check")
    if "bad" in check.get_attribute("class"):
        assert "strongest first" in check.inner_text()
        assert page.locator("button.commit").is_disabled()
        page.locator("button.order").click()
    assert "good" in check.get_attribute("class")
    page.locator("button.commit").click()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_all_twelve_cards_placed_by_tapping_group_boxes(pages, shot, size):
    page = start(pages, size)
    loose = page.locator(".hand.loose .card")
    assert loose.count() == 13
    shot(page, f"chuchula-0-hand-{size}")
    # The middle of a box soon lands on a card already there: it must take the selected
    # card in, never send the placed one back.
    for slot in (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3):
        loose.first.click()
        page.locator(f".group-slot[data-slot='{slot}']").click()
    assert loose.count() == 1
    assert [len(group_cards(page, slot)) for slot in range(4)] == [3, 3, 3, 3]
    types = page.locator(".group-slot .group-type").all_inner_texts()
    assert set(t.lower() for t in types) <= TYPE_NAMES
    shot(page, f"chuchula-1-placed-{size}")

    # A full box refuses another card and says so; nothing moves.
    loose.first.click()
    page.locator(".group-slot[data-slot='2']").click()
    assert "already has three cards" in page.locator(".order-check").inner_text()
    assert loose.count() == 1 and len(group_cards(page, 2)) == 3

    # A placed card tapped once is picked up, tapped again goes back to the hand.
    placed = page.locator(".group-slot[data-slot='1'] .card[data-card]").first
    card = placed.get_attribute("data-card")
    placed.click()
    assert page.locator(f".group-slot [data-card='{card}']").get_attribute("aria-pressed") == "true"
    page.locator(f".group-slot [data-card='{card}']").click()
    assert loose.count() == 2 and card not in group_cards(page, 1)
    page.locator(f".hand.loose [data-card='{card}']").click()
    page.locator(".group-slot[data-slot='1']").click()
    assert card in group_cards(page, 1)

    commit_in_order(page)
    page.locator(".reveal[data-step='4']").wait_for()
    assert page.locator(".reveal-cell").count() == 8  # four positions × two players (H5)
    page.locator("#status.over").wait_for()
    page.wait_for_timeout(400)  # let the last row fade in for the screenshot
    shot(page, f"chuchula-2-over-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_group_reads_highest_first_whichever_card_was_tapped(pages, size):
    """A run put together low, high, middle, each tap on a card already in the group,
    reads from its highest card down, as the engine writes it (never 9 7 8)."""
    page = start(pages, size)
    hand = parse_cards(" ".join(snapshot(page)["view"]["hand"]))
    by_rank = {card.rank: str(card) for card in hand}  # one card of each rank in the hand
    high, middle, low = (by_rank[rank] for rank in sorted(by_rank, reverse=True)[:3])
    box = page.locator(".group-slot[data-slot='0']")
    page.locator(f".hand.loose [data-card='{low}']").click()
    box.click()
    for card in (high, middle):  # each tapped onto the group's first card
        page.locator(f".hand.loose [data-card='{card}']").click()
        box.locator(".card[data-card]").first.click()
    assert group_cards(page, 0) == [high, middle, low]


def test_drag_between_groups_keyboard_and_place_for_me(pages, shot):
    page = start(pages, "desktop", length=2)
    loose = page.locator(".hand.loose .card")
    box = page.locator(".group-slot[data-slot='3']")
    first, second, third = (loose.nth(i).get_attribute("data-card") for i in range(3))
    for card in (first, second):
        page.locator(f".hand.loose [data-card='{card}']").drag_to(box)
    assert group_cards(page, 3) == written([first, second])
    # Dropped on the left half of the group's first card, the third still takes its place in
    # the group's written order.
    target = box.locator(f"[data-card='{group_cards(page, 3)[0]}']")
    page.locator(f".hand.loose [data-card='{third}']").drag_to(
        target, target_position={"x": 4, "y": 20})
    assert group_cards(page, 3) == written([first, second, third])
    # Dragged from group 4 to group 1, and back to the hand.
    box.locator(f"[data-card='{second}']").drag_to(page.locator(".group-slot[data-slot='0']"))
    assert group_cards(page, 0) == [second] and group_cards(page, 3) == written([third, first])
    page.locator(f".group-slot [data-card='{second}']").drag_to(page.locator(".hand.loose"))
    assert group_cards(page, 0) == [] and loose.count() == 11

    # The keyboard: Enter picks the focused card, a number key places it, and the focus
    # moves on to the hand's first card, which a number key places straight away.
    card = loose.first.get_attribute("data-card")
    loose.first.press("Enter")
    page.locator(f".hand.loose [data-card='{card}'][aria-pressed='true']").wait_for()
    page.keyboard.press("2")
    assert group_cards(page, 1) == [card]
    following = loose.first.get_attribute("data-card")
    assert page.evaluate("document.activeElement.dataset.card") == following
    page.keyboard.press("2")
    assert group_cards(page, 1) == written([card, following])
    page.keyboard.press("0")  # nothing selected: the focused loose card stays loose
    assert loose.count() == 9

    # A group dragged by its head swaps places with another.
    page.locator(".group-slot[data-slot='1'] .slot-head").drag_to(
        page.locator(".group-slot[data-slot='0']"))
    assert group_cards(page, 0) == written([card, following]) and group_cards(page, 1) == []

    page.locator("button.suggest", has_text="Place for me").click()
    page.locator(".arrange .actions .hint-label").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.hand.loose .card').length === 1")
    assert [len(group_cards(page, slot)) for slot in range(4)] == [3, 3, 3, 3]
    assert "good" in page.locator(".order-check").get_attribute("class")
    shot(page, "chuchula-3-placed-for-me")
    page.locator("button.commit").click()
    # The round is revealed on the table (a bot's commit in the next round may already have
    # ended the room's pause, so the table is where to look).
    reveal = page.locator("#board .reveal[data-step='4']")
    reveal.wait_for()
    page.evaluate("document.querySelector('.next-round')?.click()")
    assert reveal.locator(".reveal-cell").count() == 8  # four positions × two players (H5)
    won = reveal.locator(".reveal-cell.won").count()
    scores = page.locator(".score-chip").all_inner_texts()
    assert sum(int(text.split(":")[1].split()[0]) for text in scores) == won
    shot(page, "chuchula-4-round-2")
    loose.first.wait_for()  # round 2 is dealt
    assert loose.count() == 13


# A busy page: its timers run late (a second and a half for a zero delay).
LATE_TIMERS = """
const original = window.setTimeout;
window.setTimeout = (run, delay, ...rest) => original(run, delay || 1500, ...rest);
"""


def test_a_key_pressed_right_after_a_drag_is_the_players_even_on_a_busy_page(pages):
    """A drag swallows the click its release makes, until a timer lets go; a card picked
    with Enter before that timer has run is picked all the same."""
    page = start(pages, "desktop")
    page.context.add_init_script(LATE_TIMERS)
    page.reload()
    loose = page.locator(".hand.loose .card")
    card = loose.first.get_attribute("data-card")
    loose.first.drag_to(page.locator(".group-slot[data-slot='3']"))
    page.locator(f".group-slot [data-card='{card}']").drag_to(page.locator(".hand.loose"))
    assert group_cards(page, 3) == []
    card = loose.first.get_attribute("data-card")
    loose.first.press("Enter")
    page.locator(f".hand.loose [data-card='{card}'][aria-pressed='true']").wait_for(
        timeout=1000)  # well before the late timer


def test_the_pause_after_a_round_waits_for_you_while_the_bot_groups_the_next(pages, shot):
    """Chuchula's seats group at once: the bot commits round 2 straight away, yet the pause
    keeps round 1's result on screen until you close it."""
    page = start(pages, "desktop", length=2)
    page.locator("button.suggest", has_text="Place for me").click()
    page.wait_for_function("() => document.querySelectorAll('.hand.loose .card').length === 1")
    page.locator("button.commit").click()
    pause = page.locator("#pause")
    pause.locator("h2", has_text="End of the round").wait_for()
    ended = pause.locator(".pause-last").inner_text()
    assert "Round 1" in ended
    # The bot's commit of round 2 reaches the log (move 3) while the pause stays.
    page.locator("#log .log-line").nth(2).wait_for()
    assert "committed a grouping" in page.locator("#log .log-line").nth(2).inner_text()
    assert pause.is_visible() and pause.locator(".pause-last").inner_text() == ended
    shot(page, "chuchula-5-pause-kept")
    pause.locator("button.next-round").click()
    assert pause.is_hidden()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_group_boxes_read_at_aa_while_a_card_is_picked(pages, shot, size):
    """A picked card lights the boxes it may go to; their "3 more" stays readable on that
    light in both schemes."""
    from contrast import in_both_schemes

    page = start(pages, size)
    page.locator(".hand.loose .card").first.click()
    page.locator(".group-slot.ready").first.wait_for()
    in_both_schemes(page, shot, f"chuchula-card-picked-{size}", selector=".slots *")
