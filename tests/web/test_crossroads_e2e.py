"""A whole Crossroads game between two browsers, the second joined through an invite link;
then the spectator link and the replay."""

from play_helpers import (
    assert_shows_the_result,
    create_room,
    room_and_token,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)


def play_layout_turn(page) -> None:
    """Pick the first raised card, then the first end that takes it."""
    before = version(page)
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone.ready").first.click()
    wait_for_new_version(page, before)


def test_crossroads_whole_game_between_two_browsers_joined_by_invite(pages, shot):
    host = pages.new()
    create_room(host, "crossroads", seats=[("me",), ("friend",)])
    created = host.locator("#game-crossroads .created")
    created.wait_for()
    invite = created.locator("input.link").first.input_value()
    watch = created.locator("input.link").last.input_value()
    assert "/join/" in invite and "/watch/" in watch
    shot(host, "crossroads-0-invites")
    created.locator("a.primary").click()
    host.locator("#status.waiting").wait_for()
    assert host.locator("#invites .link-row").count() == 1  # the link still to send

    guest = pages.new(390, 844)  # a phone
    guest.goto(invite)
    guest.wait_for_url("**/room/**#token=*")
    for page in (host, guest):
        page.locator("#status.playing").wait_for()
    shot(host, "crossroads-1-start")

    turns = 0
    while (mover := wait_turn_or_over(host, guest)) is not None:
        play_layout_turn(mover)
        turns += 1
        if turns == 5:
            shot(host, "crossroads-2-midgame-host")
            shot(guest, "crossroads-2-midgame-guest-phone")
    assert turns == 12  # ruling C1: six cards each, one round

    room, token = room_and_token(host)
    state = host.request.get(f"/api/rooms/{room}?token={token}").json()
    totals = state["view"]["totals"]
    for page in (host, guest):
        assert_shows_the_result(page)
        trails = page.locator(".player-area .line-cards")
        assert [trails.nth(i).locator(".card").count() for i in range(2)] == [6, 6]
        shown = page.locator(".player-area .score").all_inner_texts()
        assert sorted(int(text.split()[0]) for text in shown) == sorted(totals)
        # the card the last move placed is marked, in one trail only
        assert page.locator(".line-cards .card.fresh").count() == 1
    shot(host, "crossroads-3-over-host")
    shot(guest, "crossroads-3-over-guest-phone")

    spectator = pages.new()
    spectator.goto(watch)
    spectator.locator("#status.over").wait_for()
    assert spectator.locator(".end-zone").count() == 0
    assert spectator.locator(".seat-chip.me").count() == 0

    frames = host.request.get(f"/api/rooms/{room}/replay?token={token}").json()["frames"]
    host.locator("#status a", has_text="Replay").click()
    host.wait_for_url("**/replay/**")
    host.locator("#counter", has_text="move 12 of 12").wait_for()
    assert host.locator("#caption").inner_text() == frames[12]["caption"]
    assert state["result"] in frames[12]["caption"]  # the last move's sentence ends the game
    host.locator("#first").click()
    host.locator("#counter", has_text="deal").wait_for()
    assert host.locator("#caption").inner_text() == "The deal."
    assert host.locator(".layout .card[data-card]").count() == 12
    host.locator("#next").click()
    host.locator("#counter", has_text="move 1 of 12").wait_for()
    assert host.locator(".layout .card[data-card]").count() == 11
    assert host.locator(".line-cards .card.fresh").count() == 1
    assert host.locator("#caption").inner_text() == frames[1]["caption"]
    assert host.locator("#caption").inner_text().startswith(("You took", "Friend took"))
    shot(host, "crossroads-4-replay")
