"""A Caravan game played alone in the browser: the first card, a bridge through the face-down
toggle, a refused move with the server's reason, then hint-guided moves to the end."""

from play_helpers import (
    assert_shows_the_result,
    create_room,
    room_and_token,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)


def place(page, letter: str, end: str, face_down: bool = False) -> None:
    before = version(page)
    if face_down:
        page.locator(".toggle input").check()
    card = page.locator(f".layout .card[data-pos='{letter}']")
    if "selected" not in card.get_attribute("class"):  # a second click would unselect it
        card.click()
    page.locator(f".end-zone[data-end='{end}']").click()
    wait_for_new_version(page, before)


def hinted_move(page) -> tuple[str, str, bool]:
    """The first move the hint marks as still winning, else the first legal one."""
    page.locator("button.hint").click()
    page.locator(".layout .hint-label").first.wait_for()
    fallback = None
    for cell in page.locator(".layout-cell:has(.hint-label)").all():
        letter = cell.locator(".card").get_attribute("data-pos")
        for part in cell.locator(".hint-label").inner_text().split(" · "):
            end, label = part.split(" ", 1)
            move = (letter, end.rstrip("*"), end.endswith("*"))
            if label == "win":
                return move
            fallback = fallback or move
    return fallback


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
    place(page, bridge, "R", face_down=True)
    assert page.locator(".line-cards .card.back").count() == 1
    assert "1 of 2 used" in page.locator(".round-info").inner_text()

    # Ruling V3: two bridges may never touch; the server refuses and says why.
    placed = page.locator(".line-cards .card").count()
    page.locator(".toggle input").check()
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone[data-end='R']").click()
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
        letter, end, face_down = hinted_move(page)
        if moves == 3:
            shot(page, "caravan-2-hint")
        place(page, letter, end, face_down)
        moves += 1
    assert_shows_the_result(page)
    won = bool(snapshot(page)["view"]["outcome"]["winners"])
    cards = page.locator(".line-cards .card")
    ends = cards.first.get_attribute("class") + cards.last.get_attribute("class")
    ends_face_up = "back" not in ends
    assert won == (cards.count() == 12 and ends_face_up)
    shot(page, "caravan-3-over")
