"""A whole Chükö game in the browser against two bots: playable cards marked, resets, every
hand's size, the "chükö!" call, the hint."""

from play_helpers import (
    assert_shows_the_result,
    create_room,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)

MAX_TURNS = 200


def test_chuko_whole_game_against_bots(pages, shot):
    page = pages.new()
    create_room(page, "chuko", options={"players": 3},
                seats=[("me",), ("bot", "random"), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn, #status.playing").first.wait_for()
    assert page.locator(".opponent").count() == 2
    assert page.locator(".hand .card").count() == 3  # K3: min(5, (12 − 1) // 3)
    shot(page, "chuko-0-start")

    calls_seen = hinted = resets = 0
    for turn in range(MAX_TURNS):
        if wait_turn_or_over(page) is None:
            break
        calls_seen += page.locator(".chuko-call, .banner").count() > 0
        sizes = page.locator(".opponent .count").all_inner_texts()
        assert all(text.endswith(("card", "cards")) for text in sizes)
        if not hinted and page.locator("button.reset").count():
            page.locator("button.hint").click()
            page.locator(".hand .hint-label, button.reset:has-text('best')").first.wait_for()
            page.locator(".hint-note").wait_for()
            shot(page, "chuko-1-hint")
            hinted = 1
        before = version(page)
        playable = page.locator(".hand .card.playable")
        if playable.count():
            playable.first.click()
        else:
            page.locator("button.reset").click()
            resets += 1
        wait_for_new_version(page, before)
        if turn == 2:
            shot(page, "chuko-2-midgame")
    else:
        raise AssertionError(f"no winner after {MAX_TURNS} of my turns")

    assert_shows_the_result(page)
    # K7: whoever wins went down to one card first, and the screen called it.
    assert calls_seen or page.locator(".turn", has_text="chükö!").count()
    assert page.locator(".turn").count() >= 1
    shot(page, "chuko-3-over")
