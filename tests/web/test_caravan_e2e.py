"""A Caravan game played alone in the browser: the first card, a bridge laid on an end's
bridge place, a refused move with the server's reason, then hint-guided moves to the end."""

from play_helpers import (
    assert_shows_the_result,
    create_room,
    room_and_token,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)


def place(page, letter: str, end: str) -> None:
    """Tap the card, then the end: "start", "L", "R", or "L*", "R*" for a bridge."""
    before = version(page)
    card = page.locator(f".layout .card[data-pos='{letter}']")
    if "selected" not in card.get_attribute("class"):  # a second click would unselect it
        card.click()
    page.locator(f".end-zone[data-end='{end}']").click()
    wait_for_new_version(page, before)


def hinted_move(page) -> tuple[str, str]:
    """The first move the hint says keeps the deal winnable (or wins it), else the first."""
    page.locator("button.hint").click()
    page.locator(".hint-row").first.wait_for()
    rows = page.locator(".hint-row").all()
    good = [row for row in rows if not {"loses", "lost"} & set(row.inner_text().split())]
    move = (good or rows)[0].get_attribute("data-move")
    return move[0], move[1:] or "start"


def test_caravan_solo_game_with_bridge_refusal_and_hints(pages, shot):
    page = pages.new()
    create_room(page, "caravan", options={"bridges": 2})
    page.wait_for_url("**/room/**#token=*")  # alone: no invite, straight to the table
    page.locator("#status.my-turn").wait_for()
    assert page.locator(".layout .card.raised").count() == 3  # A, E and I (ruling G3)
    shot(page, "caravan-0-start")

    first = page.locator(".layout .card.playable").first.get_attribute("data-pos")
    place(page, first, "start")
    bridge = page.locator(".layout .card.playable").first.get_attribute("data-pos")
    place(page, bridge, "R*")
    assert page.locator(".line-cards .card.back").count() == 1
    assert "1 of 2 used" in page.locator(".round-info").inner_text()

    # Ruling V3: two bridges may never touch; the server refuses and says why.
    placed = page.locator(".line-cards .card").count()
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone[data-end='R*']").click()
    error = page.locator("#notice.error")
    error.wait_for()
    assert "bridge" in error.inner_text()
    assert page.locator(".line-cards .card").count() == placed
    shot(page, "caravan-1-refused")

    # A page opened again without the token in its address resumes the seat from storage.
    room, _ = room_and_token(page)
    page.goto(f"/room/{room}")
    page.locator("#status.my-turn").wait_for()
    assert page.locator(".line-cards .card").count() == placed

    moves = 2
    while wait_turn_or_over(page) is not None:
        letter, end = hinted_move(page)
        if moves == 3:
            shot(page, "caravan-2-hint")
        place(page, letter, end)
        moves += 1
    assert_shows_the_result(page)
    won = bool(snapshot(page)["view"]["outcome"]["winners"])
    cards = page.locator(".line-cards .card")
    ends = cards.first.get_attribute("class") + cards.last.get_attribute("class")
    ends_face_up = "back" not in ends
    assert won == (cards.count() == 12 and ends_face_up)
    shot(page, "caravan-3-over")
