"""Crossroads in the browser: a whole game between two named friends, the second joined
through an invite link, their rematch; the spectator link and the replay link; the pause
between the two rounds of a match against a bot; how a match ends."""

import re
import time

import pytest
from contrast import in_both_schemes
from play_helpers import (
    assert_shows_the_result,
    chips,
    create_room,
    join_invite,
    play_out,
    room_and_token,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)

from conftest import ROUND_PAUSE

SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


def play_layout_turn(page) -> None:
    """Pick the first raised card, then the first end that takes it."""
    before = version(page)
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone.ready").first.click()
    wait_for_new_version(page, before)


def play_to_the_end(*pages) -> int:
    turns = 0
    while (mover := wait_turn_or_over(*pages)) is not None:
        play_layout_turn(mover)
        turns += 1
    return turns


def test_two_named_friends_play_then_rematch(pages, shot):
    host = pages.new()
    create_room(host, "crossroads", seats=[("me",), ("friend",)], name="Ann")
    created = host.locator("#game-crossroads .created")
    created.wait_for()
    invite = created.locator("input.link").first.input_value()
    watch = created.locator("input.link").last.input_value()
    assert "/join/" in invite and "/watch/" in watch
    shot(host, "crossroads-0-invites")
    created.locator("a.primary").click()
    host.locator("#status.waiting").wait_for()
    assert host.locator("#status").inner_text() == "Waiting for Friend to join."
    assert host.locator("#invites .link-row").count() == 1  # the link still to send

    guest = pages.new(390, 844)  # a phone
    guest.goto(invite)
    guest.locator("#join").wait_for()
    assert "Ann" in guest.locator("#join-who").inner_text()  # who invites you
    shot(guest, "crossroads-1-join-phone")
    join_invite(guest, invite, "Bea")
    for page in (host, guest):
        page.locator("#status.playing").wait_for()

    # Names on both screens: each reads "You" for themselves and the other's name.
    assert chips(host) == ["You", "Bea"] and chips(guest) == ["Ann", "You"]
    assert host.locator(".seat-chip.me .level").inner_text() == "Ann"
    shot(host, "crossroads-2-start")

    turns = 0
    while (mover := wait_turn_or_over(host, guest)) is not None:
        play_layout_turn(mover)
        turns += 1
        if turns == 5:
            shot(host, "crossroads-3-midgame-host")
            shot(guest, "crossroads-3-midgame-guest-phone")
    assert turns == 12  # six cards each, one round

    state = snapshot(host)
    totals = state["view"]["totals"]
    for page, other in ((host, "Bea"), (guest, "Ann")):
        result = assert_shows_the_result(page)
        trails = page.locator(".player-area .line-cards")
        assert [trails.nth(i).locator(".card").count() for i in range(2)] == [6, 6]
        shown = page.locator(".player-area .score").all_inner_texts()
        assert sorted(int(text.split()[0]) for text in shown) == sorted(totals)
        # The end reads as an ending: the taken layout's empty places are gone.
        assert page.locator(".layout").count() == 0 or not page.locator(".layout").is_visible()
        standings = page.locator(".standings li").all_inner_texts()
        assert len(standings) == 2 and any(other in line for line in standings)
        # The log: every move in words, the other player's by name, mine as "You".
        log = page.locator("#log .log-line").all_inner_texts()
        assert len(log) == 12 and result in log[-1]
        assert any(line.startswith(f"{other} took") for line in log)
        assert any(line.startswith("You took") for line in log)
        text = page.locator("main").inner_text()
        assert not SEAT_NUMBER.search(text), text
    shot(host, "crossroads-4-over-host")
    shot(guest, "crossroads-4-over-guest-phone")

    spectator = pages.new()
    spectator.goto(watch)
    spectator.locator("#status.over").wait_for()
    assert spectator.locator(".end-zone").count() == 0
    assert spectator.locator(".seat-chip.me").count() == 0
    assert spectator.locator(".seat-chip.watching").inner_text() == "You are watching"
    assert spectator.locator(".end-actions .rematch").count() == 0

    # The replay is one click from the end panel.
    room, token = room_and_token(host)
    frames = host.request.get(f"/api/rooms/{room}/replay?token={token}").json()["frames"]
    replay = pages.new()
    replay.goto(host.url)
    replay.locator(".end-actions a", has_text="Replay").click()
    replay.wait_for_url(f"**/replay/{room}*")
    replay.locator("#caption", has_text=frames[-1]["caption"]).wait_for()

    # Rematch: Ann asks, Bea's screen offers to follow, both sit down again with their names.
    host.locator("button.rematch").click()
    host.wait_for_url(lambda url: "/room/" in url and f"/{room}" not in url)
    new_room, _ = room_and_token(host)
    host.locator("#status.waiting").wait_for()
    assert host.locator("#status").inner_text() == "Waiting for Bea to come to the rematch."
    guest.locator("button.follow").wait_for()
    assert guest.locator(".rematch-offer").is_visible()
    shot(guest, "crossroads-5-rematch-offer-phone")
    spectator.locator(".end-actions a", has_text="Watch the rematch").wait_for()
    guest.locator("button.follow").click()
    guest.wait_for_url(f"**/room/{new_room}#token=*")
    for page in (host, guest):
        page.locator("#status.playing").wait_for()
    assert chips(host) == ["You", "Bea"] and chips(guest) == ["Ann", "You"]
    assert snapshot(guest)["seat"] == 1  # the seat moved along
    assert guest.locator("#log .log-line").count() == 0
    shot(host, "crossroads-6-rematch-host")
    assert play_to_the_end(host, guest) == 12


@pytest.mark.parametrize("first", ["1", "0"], ids=["you-start-round-two", "bot-starts-round-two"])
def test_match_pauses_between_rounds_with_the_rounds_result(pages, shot, paused_url, first):
    """Who starts round 1 does not start round 2. When you start it, the pause waits for
    "Next round"; when the bot does, it counts down and "Next round now" lets it go."""
    page = pages.new(base_url=paused_url)
    create_room(page, "crossroads", options={"rounds": 2, "first": first},
                seats=[("me",), ("bot", "easy")], name="Ann")
    page.wait_for_url("**/room/**#token=*")
    pause = page.locator("#pause .pause-card")
    for _ in range(6):
        assert wait_turn_or_over(page) is not None
        assert pause.count() == 0
        play_layout_turn(page)
    # The 12th move of round 1 is mine when the bot started it, else the bot's.
    pause.wait_for()
    state = snapshot(page)
    assert state["round_ended"] and state["view"]["round"] == 2
    assert pause.locator(".pause-last").inner_text() == state["last"]
    assert "round 1" in state["last"]
    assert page.locator("#log .log-line").last.inner_text() == state["last"]
    button = pause.locator("button.next-round")
    assert page.evaluate("document.activeElement.classList.contains('next-round')")
    if first == "1":
        assert state["bots_wait"] is None
        assert button.inner_text() == "Next round"
        shot(page, "crossroads-7-round-pause")
        page.keyboard.press("Enter")
        pause.wait_for(state="detached")
        assert page.locator("#status.my-turn").count() == 1
    else:
        assert 0 < state["bots_wait"] <= ROUND_PAUSE
        countdown = pause.locator(".countdown")
        assert re.fullmatch(r"The next round starts in [1-3] s\.", countdown.inner_text())
        shot(page, "crossroads-7-round-pause-countdown")
        left = snapshot(page)["bots_wait"]
        before, clicked = version(page), time.monotonic()
        button.click()
        wait_for_new_version(page, before)
        pause.wait_for(state="detached")
        if left is not None and left > 1:
            assert time.monotonic() - clicked < left  # the bot went before its wait was out
    assert play_to_the_end(page) == 6
    assert_shows_the_result(page)
    shot(page, f"crossroads-8-match-over-{first}")


SCORE = re.compile(r"\((\d+)–(\d+) in round (\d)\)")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_match_ends_with_the_match_then_each_round_and_scores_in_seat_order(pages, shot,
                                                                             size):
    """The result says the match first, then each round; under it each round is shown with
    its own trails and points (no match total beside round two's). Every line of the log
    gives the round's score in the seats' order, whoever moved."""
    page = pages.new(*size)
    create_room(page, "crossroads", options={"rounds": 2, "first": "1"},
                seats=[("me",), ("bot", "easy")], name="Ann")
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.playing, #status.my-turn").first.wait_for()
    play_out(page, seed=3)
    page.locator("#status.over").wait_for()
    state = snapshot(page)
    points = state["view"]["points"]
    result = page.locator("#status .result").inner_text()
    assert re.fullmatch(r"(You|Easy bot) won the match \d+–\d+|The match is a draw, \d+–\d+",
                        result.split(" (")[0]), result
    assert re.search(r" \(round 1: .+; round 2: .+\)\.$", result), result

    # Round 1, then round 2, each with its own points; no total, no match "winner" beside
    # round two's trails.
    board = page.locator("#board")
    def said(number: int, seat: int) -> str:
        return f"{points[number][seat]} point{'s' * (points[number][seat] != 1)}"

    first = board.locator(".round-summary[data-round='1']")
    assert first.locator(".label").inner_text().lower() == "round 1 of 2"
    seats = [int(s) for s in board.locator(".player-area").evaluate_all(
        "els => els.map(e => e.dataset.seat)")]
    assert seats == [1, 0]  # the other player above, you below, in both rounds
    lines = first.locator(".summary-line")
    assert [int(lines.nth(i).get_attribute("data-seat")) for i in (0, 1)] == seats
    assert first.locator(".score").all_inner_texts() == [said(0, seat) for seat in seats]
    second = board.locator(".player-area .score")
    assert second.all_inner_texts() == [said(1, seat) for seat in seats]
    heads = " ".join(board.locator(".player-area .player-head").all_inner_texts())
    assert "total" not in heads and "winner" not in heads
    assert first.bounding_box()["y"] < board.locator(".player-area").first.bounding_box()["y"]

    log = page.locator("#log .log-line").all_inner_texts()
    for number in (1, 2):
        said = [(int(a), int(b)) for a, b, r in SCORE.findall("\n".join(log)) if r == str(number)]
        assert len(said) == 10
        assert all(x <= y and u <= v for (x, u), (y, v) in zip(said, said[1:], strict=False))
        assert said[-1] == tuple(points[number - 1])
    name = "desktop" if size[0] > 600 else "phone"
    in_both_schemes(page, shot, f"crossroads-9-match-end-{name}", full_page=True)
