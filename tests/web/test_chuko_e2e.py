"""Chükö in the browser: a whole game against two bots (playable cards marked, resets, every
hand's size, the "chükö!" call, the hint, one move log, every hand shown at the end), keyboard
play, four players on a phone, and the prompt when no card fits."""

import json
import re

import pytest
from contrast import in_both_schemes
from play_helpers import (
    assert_shows_the_result,
    chips,
    create_room,
    snapshot,
    version,
    wait_for_new_version,
    wait_turn_or_over,
)

MAX_TURNS = 200


def play_my_turn(page) -> None:
    before = version(page)
    playable = page.locator(".hand .card.playable")
    if playable.count():
        playable.first.click()
    else:
        page.locator("button.reset").click()
    wait_for_new_version(page, before)


def test_chuko_whole_game_against_bots_ends_with_every_hand_shown(pages, shot):
    page = pages.new()
    create_room(page, "chuko", options={"players": 3},
                seats=[("me",), ("bot", "random"), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn, #status.playing").first.wait_for()
    assert page.locator(".opponent").count() == 2
    assert page.locator(".hand .card").count() == 3  # min(5, (12 − 1) // 3)
    # The draw pile's size is written as a count under a plain back, never as a card value.
    draw = page.locator(".draw-area")
    assert draw.locator(".card.back .value").count() == 0
    # Bots may have moved already, so the pile can be down to one card (and singular).
    assert re.fullmatch(r"\d+ cards? to draw", draw.locator(".draw-count").inner_text())
    shot(page, "chuko-0-start")

    calls_seen = hinted = 0
    for turn in range(MAX_TURNS):
        if wait_turn_or_over(page) is None:
            break
        calls_seen += page.locator(".chuko-call, .banner").count() > 0
        sizes = page.locator(".opponent .count").all_inner_texts()
        assert all(text.endswith(("card", "cards")) for text in sizes)
        if not hinted and page.locator("button.reset").count():
            page.locator("button.hint").click()
            page.locator(".hand .hint-label, button.reset:has-text('(')").first.wait_for()
            page.locator(".hint-note").wait_for()
            shot(page, "chuko-1-hint")
            hinted = 1
        play_my_turn(page)
        if turn == 2:
            shot(page, "chuko-2-midgame")
    else:
        raise AssertionError(f"no winner after {MAX_TURNS} of my turns")

    assert_shows_the_result(page)
    state = snapshot(page)
    # Whoever wins went down to one card first, and the screen called it.
    log = page.locator("#log .log-line").all_inner_texts()
    assert calls_seen or any("Chükö!" in line for line in log)
    # One log, in words, one line per move; the screen keeps no second one.
    assert len(log) == state["version"] and log[-1] == state["last"]
    assert page.locator(".turns, .turn").count() == 0
    # Every hand face up once it is over, the others' as well as mine.
    hands = state["view"]["hands"]
    for seat in (1, 2):
        box = page.locator(f".opponent.revealed[data-seat='{seat}']")
        shown = box.locator(".fan .card").evaluate_all("els => els.map(e => +e.dataset.card)")
        assert shown == hands[seat]
    assert page.locator(".end-panel .standings li.won").count() == 1
    for action in ("Rematch", "New game", "Replay"):
        assert page.locator(".end-actions", has_text=action).count() == 1
    shot(page, "chuko-3-over")

    # A reload brings the whole log back from the server, not just the last move.
    page.reload()
    page.locator("#status.over").wait_for()
    page.wait_for_function("n => document.querySelectorAll('#log .log-line').length === n",
                           arg=len(log))
    assert page.locator("#log .log-line").all_inner_texts() == log

    # A rematch against bots starts at once, with the same seats.
    room = page.url.split("/")[4].split("#")[0]
    names = chips(page)
    page.locator("button.rematch").click()
    page.wait_for_url(lambda url: "/room/" in url and f"/{room}" not in url)
    page.locator("#status.playing, #status.my-turn").first.wait_for()
    assert chips(page) == names and page.locator(".hand .card").count() == 3


def test_chuko_plays_from_the_keyboard_alone(pages, shot):
    page = pages.new()
    create_room(page, "chuko", options={"players": 2},
                seats=[("me",), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#rules-link").focus()
    played = 0
    while played < 3 and wait_turn_or_over(page) is not None:
        # Tab from wherever the focus is to a card of the hand (or Reset), as a keyboard does.
        for _ in range(40):
            if page.evaluate("document.activeElement.matches('.hand .card, button.reset')"):
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("Tab never reached a card of the hand")
        assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
        if played == 0:
            shot(page, "chuko-5-keyboard-focus", full_page=False)
        before = version(page)
        page.keyboard.press("Enter" if played % 2 == 0 else " ")
        page.wait_for_function(
            "v => Number(document.getElementById('board').dataset.version) > v "
            "|| document.querySelector('#notice.error')", arg=before)
        if page.locator("#notice.error").count():
            # A card that does not follow: the server says why; Reset always goes.
            page.locator("button.reset").focus()
            page.keyboard.press("Enter")
            wait_for_new_version(page, before)
        played += 1
        # After the redraws the focus is still on the table, ready for the next turn.
        page.wait_for_function(
            "() => document.getElementById('board').contains(document.activeElement)")
    assert played == 3 or page.locator("#status.over").count()


def test_chuko_four_players_on_a_phone_keep_the_hand_and_reset_in_view(pages, shot):
    page = pages.new(390, 844)
    create_room(page, "chuko", options={"players": 4},
                seats=[("me",), ("bot", "random"), ("bot", "random"), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    assert wait_turn_or_over(page) is not None
    page.locator("button.reset").wait_for()
    assert page.evaluate("window.scrollY") == 0
    # The opponents are one compact strip, not three panels filling the screen.
    strip = page.locator(".opponents").bounding_box()
    assert strip["height"] < 80
    assert page.locator(".opponent").count() == 3
    for selector in ("button.reset", ".hand .card >> nth=0", ".hand .card >> nth=-1"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
    shot(page, "chuko-4-phone-four-players", full_page=False)
    # Still there after a move, with the page scrolled to the log (after a reset the turn goes
    # on without a Reset button: the hand's actions row is what must show).
    play_my_turn(page)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    if wait_turn_or_over(page) is not None:
        box = page.locator(".player-area.mine .actions").bounding_box()
        assert box["y"] + box["height"] <= 844


def hand_on_seven(legal: list[str]):
    """A socket route that turns each of the player's turns into the hand 9 and 22 on a 7,
    with `legal` the moves the server lists (the screen takes them as they come)."""

    def route(ws):
        server = ws.connect_to_server()

        def from_server(text):
            msg = json.loads(text)
            if msg.get("type") == "state" and msg["status"] == "playing" \
                    and msg["seat"] in msg["view"]["to_move"] and msg["view"]["phase"] != "reset":
                msg["view"].update(hand=[9, 22], top=7)
                msg["legal"] = legal
            ws.send(json.dumps(msg))

        server.on_message(from_server)

    return route


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_chuko_with_no_card_that_fits_the_prompt_says_to_reset(pages, shot, size):
    page = pages.new(*size)
    page.route_web_socket(re.compile(r".*/ws/.*"), hand_on_seven(["reset"]))
    create_room(page, "chuko", options={"players": 2}, seats=[("me",), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    mine = page.locator(".player-area.mine")
    assert mine.locator(".card.raised").count() == 0
    assert mine.locator(".help-text").inner_text() == "No card fits on 7: reset."
    assert mine.locator("button.reset").is_visible()
    in_both_schemes(page, shot, f"chuko-6-no-card-fits-{'desktop' if size[0] > 600 else 'phone'}")


def test_chuko_with_a_card_that_fits_the_prompt_says_to_play_it(pages):
    page = pages.new()
    page.route_web_socket(re.compile(r".*/ws/.*"), hand_on_seven(["22", "reset"]))
    create_room(page, "chuko", options={"players": 2}, seats=[("me",), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    mine = page.locator(".player-area.mine")
    assert mine.locator(".card.raised").count() == 1
    assert mine.locator(".help-text").inner_text() == "Play a raised card on 7, or reset."
