"""The club end to end, as its players go through it in Chromium (desktop 1280×800, phones
390×844): tables filled from the lobby's pools, a rated game played out that moves both
ratings onto the profiles, a guest's game kept by the account they make, a lobby game left
and taken up again from "your games", a 5 s clock running out, a resignation, a player who
closes the tab while a bot goes on in their seat, and the header's links on every page.

Elsewhere: two people paired heads-up within 3 s (test_lobby_e2e.py); leaving a game with
its question and coming back from "your games" with a seat's token, "your turn" in the
title and quick messages (test_table_club_e2e.py).

These run on an app of their own (conftest's `brisk_url`) whose players have left five
seconds after their last socket closed, so the leaving is seen without a minute's wait.
"""

from __future__ import annotations

import re
import secrets

import pytest
from play_helpers import (
    account_form,
    assert_shows_the_result,
    create_room,
    join_invite,
    lobby,
    play_out,
    sign_up,
    snapshot,
)

DESKTOP = (1280, 800)
PHONE = (390, 844)
PAIRED_MS = 6000  # waves run every 1.5 s: a table is made within a few of them


@pytest.fixture
def base_url(brisk_url):
    """The conftest's pages, on the brisk app."""
    return brisk_url


def room_of(page) -> str:
    return page.url.split("/room/")[1].split("#")[0]


def pair(pages, pool: str, *sizes, ready=None):
    """People on the lobby's pages (of `sizes`) click `pool` and land at one table: their
    pages, on the room. `ready(page)` prepares each page first (signs them up …)."""
    people = []
    for width, height in sizes:
        page = pages.new(width, height)
        if ready:
            ready(page)
        people.append(page)
    for page in people:
        page.goto("/lobby")
        page.locator("#conn.open").wait_for()
        page.locator("#me", has_text="You play as").wait_for()
    for page in people:
        page.click(f"button.pool[data-pool='{pool}'][data-clock='30+60']")
    for page in people:
        page.wait_for_url("**/room/**", timeout=PAIRED_MS)
    assert len({room_of(page) for page in people}) == 1, [page.url for page in people]
    for page in people:
        page.locator("#status.playing").wait_for()
    return people


def test_four_people_fill_a_four_player_table_from_its_pool(pages, shot):
    """A seek and two people waiting, as the lobby shows them (desktop and phone), then
    two more click the same clock and the four guests sit at one casual Chükö table with it,
    each in their own seat."""
    first, second = lobby(pages, *DESKTOP), lobby(pages, *PHONE)
    first.select_option("#seek-game", "crossroads")
    first.click("#seek-form button[type=submit]")
    for page in (first, second):
        page.click("button.pool[data-pool='chuko/four'][data-clock='30+60']")
        page.locator("button.pool.waiting[data-pool='chuko/four'][data-clock='30+60']").wait_for()
    for page in (first, second):
        page.locator("li.seek", has_text="Crossroads").wait_for()
    for page, size in ((first, "desktop"), (second, "phone")):
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        shot(page, f"club-lobby-waiting-{size}", full_page=False)
    others = [lobby(pages, *DESKTOP), lobby(pages, *PHONE)]
    for page in others:
        page.click("button.pool[data-pool='chuko/four'][data-clock='30+60']")
    people = [first, second, *others]
    for page in people:
        page.wait_for_url("**/room/**", timeout=PAIRED_MS)
    assert len({room_of(page) for page in people}) == 1
    seats = set()
    for page in people:
        page.locator("#status.playing").wait_for()
        seats.add(snapshot(page)["seat"])
        assert page.locator("#seats .seat-chip.me").count() == 1
    assert seats == {0, 1, 2, 3}
    state = snapshot(first)
    assert not state["rated"]  # guests play casual: rated play needs an account
    assert state["clock"]["control"] == {"kind": "move", "seconds": 30, "reserve": 60}
    assert [seat["kind"] for seat in state["seats"]] == ["human"] * 4, state["seats"]


def test_a_rated_game_played_out_moves_both_ratings_onto_the_profiles(pages, shot):
    """Two accounts paired in Crossroads' pool ("rated · 30 s + 1 min") play the match to its
    end, their seats showing "1500?" beside their names. Both ratings change, by what the
    end panel says ("+40", "−40"); one game leaves them provisional ("1540?"), which their
    profiles show, and the leaderboard lists them below the settled, unranked."""
    names = [f"ann_{secrets.token_hex(3)}", f"bob_{secrets.token_hex(3)}"]
    made = iter(names)

    def ready(page):
        sign_up(page, next(made))
        page.goto("/lobby")
        button = page.locator("button.pool[data-pool='crossroads/match'][data-clock='30+60']")
        # Once the lobby's socket has said who plays: an account's buttons are rated.
        button.locator("span", has_text="rated").wait_for()
        assert button.locator("span").inner_text() == "rated · 30 s + 1 min"

    ann, bob = pair(pages, "crossroads/match", DESKTOP, PHONE, ready=ready)
    # Each seat's rating beside its name: newcomers, provisional.
    for page in (ann, bob):
        page.locator("#seats .seat-chip[data-seat] .seat-rating").first.wait_for()
        assert page.locator("#seats .seat-chip[data-seat] .seat-rating").all_inner_texts() == [
            "1500?", "1500?"]
    play_out(ann, bob)
    for page in (ann, bob):
        assert_shows_the_result(page)
    # The end panel: each seat's rating after the game and the change it made.
    ends = {}
    for page, size in ((ann, "desktop"), (bob, "phone")):
        mine = page.locator("#status .rating-changes li.me")
        mine.wait_for()
        ends[page] = mine.locator(".change").inner_text()
        assert re.fullmatch(r"[+\u2212±]\d+", ends[page]), ends[page]
        shot(page, f"club-flows-end-{size}", full_page=False)
    room = room_of(ann)
    shown, results = {}, []
    for page, name, size in ((ann, names[0], "desktop"), (bob, names[1], "phone")):
        page.goto(f"/@/{name}")
        card = page.locator(".rating-card[data-game='crossroads'][data-class='duel']")
        card.wait_for()
        text = card.locator(".rating strong").inner_text()
        assert text.endswith("?"), text  # provisional after one game
        shown[name] = (int(text[:-1]), int(card.locator(".deviation").inner_text().strip(" ±")))
        assert shown[name][1] < 1000  # a newcomer's 1500 ± 1000 has moved
        assert "Provisional" in card.inner_text()
        assert card.locator(".history-plot circle").count() == 1
        game = page.locator(f".game-item[data-room='{room}']")
        assert "rated" in game.inner_text() and f"rating {shown[name][0]}" in game.inner_text()
        change = int(ends[page].replace("\u2212", "-").replace("±", ""))
        assert game.locator(".change").inner_text() == ends[page]
        assert shown[name][0] == 1500 + change
        # The header's link to one's own profile, marked as the page one is on.
        profile = page.locator("header nav.site a.profile")
        assert profile.get_attribute("aria-current") == "page"
        results.append(game.locator(".result").inner_text().lower())  # won, lost or drawn
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        shot(page, f"club-flows-profile-{size}")
    (ann_rating, _), (bob_rating, _) = shown.values()
    if results == ["won", "lost"]:
        assert ann_rating > 1500 > bob_rating
    elif results == ["lost", "won"]:
        assert bob_rating > 1500 > ann_rating
    else:  # a drawn match: level still, both surer
        assert results == ["drawn", "drawn"] and ann_rating == bob_rating
    # The header's Leaderboards link: the first game's board; Crossroads' ranks neither
    # yet, and lists both below the settled, provisional.
    ann.locator("header nav.site a", has_text="Leaderboards").click()
    ann.wait_for_url(re.compile(r"/leaderboard/[\w-]+$"))
    ann.goto("/leaderboard/crossroads")
    ann.locator(".board-table").first.wait_for()
    to_profile = ann.locator("header nav.site a.profile")
    to_profile.wait_for()  # on every page, not marked as this one
    assert to_profile.get_attribute("href") == f"/@/{names[0]}"
    assert to_profile.get_attribute("aria-current") is None
    ranked = ann.locator(".board-table tbody:not(.provisional-rows) td:nth-child(2)")
    assert not set(names) & set(ranked.all_inner_texts())
    below = ann.locator(".board-table tr.provisional td:nth-child(2)").all_inner_texts()
    assert set(names) <= set(below)
    bob.goto("/leaderboard/crossroads")
    bob.locator(".empty, .board-table").first.wait_for()
    shot(ann, "club-flows-leaderboard-desktop")
    shot(bob, "club-flows-leaderboard-phone")


def test_a_guests_game_stays_theirs_once_they_sign_up(pages):
    """A guest starts a game against a bot from the home page (which makes them a guest
    first, so the seat is the player's), signs up mid-game, and has the game on another
    device once logged in there: in "your games", taken up from it, and on the profile
    once finished."""
    guest = pages.new(*DESKTOP)
    create_room(guest, "crossroads", options={"first": "0"}, seats=[("me",), ("bot", "easy")])
    guest.locator("#status.my-turn").wait_for()
    room = room_of(guest)
    account = guest.locator("header nav.site a.account")
    assert account.inner_text().startswith("Guest ")  # the home page made the guest
    account.click()
    guest.locator("dialog.ask button.go").click()  # leave the game for now
    guest.wait_for_url("**/account")
    name = f"cy_{secrets.token_hex(3)}"
    sign_up(guest, name)
    assert account.inner_text() == name
    guest.goto("/")  # a new room's seat is then called by the account's name, not "Host"
    guest.wait_for_function("n => document.getElementById('player-name').value === n", arg=name)
    # Another device: logged in, the game is there, from the server's own list.
    phone = pages.new(*PHONE)
    phone.goto("/account")
    phone.locator("#forms form").first.wait_for()
    account_form(phone, "Log in", {"Username": name, "Password": "correct horse"}, "Log in")
    phone.locator("#who", has_text=f"You are logged in as {name}").wait_for()
    phone.goto("/")
    row = phone.locator(f"#your-games .in-play .your-game[data-room='{room}']")
    row.wait_for()
    assert "Your turn" in row.inner_text() and "Easy bot" in row.inner_text()
    row.locator("a.continue").click()
    phone.wait_for_url(f"**/room/{room}")
    phone.locator("#status.my-turn").wait_for()
    assert phone.locator("#seats .seat-chip.me").count() == 1
    phone.locator("button.resign").click()
    phone.locator("dialog.ask button.go").click()
    phone.locator("#status.over").wait_for()
    assert phone.locator("#status").inner_text().startswith("You resigned")
    phone.goto(f"/@/{name}")
    item = phone.locator(f".game-item[data-room='{room}']")
    item.wait_for()
    assert "lost" in item.inner_text().lower() and "casual" in item.inner_text()
    guest.goto("/")
    guest.locator(f"#your-games .recent .your-game[data-room='{room}']").wait_for()


def test_a_lobby_game_left_midway_is_taken_up_again_from_your_games(pages):
    """A game the lobby made holds no token in the browser: the seat is the session's.
    Leaving it asks first; the home page lists it from the server and its Continue link
    brings the player back to their seat."""
    ann, bob = pair(pages, "chuko/duel", DESKTOP, PHONE)
    room = room_of(ann)
    ann.locator("a.brand").click()
    ann.locator("dialog.ask", has_text="Leave this game?").locator("button.go").click()
    ann.wait_for_url(re.compile(r"/$"))
    row = ann.locator(f"#your-games .in-play .your-game[data-room='{room}']")
    row.wait_for()
    assert row.locator("a.continue").get_attribute("href") == f"/room/{room}"
    row.locator("a.continue").click()
    ann.wait_for_url(f"**/room/{room}")
    ann.locator("#status.playing").wait_for()
    assert ann.locator("#seats .seat-chip.me").count() == 1
    assert snapshot(ann)["seat"] != snapshot(bob)["seat"]


def test_a_5_s_clock_run_out_before_the_first_move_aborts_and_both_read_it(pages, shot):
    """A room made with a clock of 5 s a move and no reserve: Ann, first to move, does not,
    which aborts the game, and both read how it ended. Her running clock shows on both
    screens first."""
    ann = pages.new(*DESKTOP)
    ann.goto("/")
    made = ann.request.post("/api/rooms", headers={"X-Chuko": "1"}, data={
        "game": "crossroads", "options": {"first": "0"},
        "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend"}],
        "clock": {"kind": "move", "seconds": 5, "reserve": 0}}).json()
    ann.goto(f"/room/{made['room']}#token={made['token']}")
    bea = pages.new(*PHONE)
    join_invite(bea, made["invites"][0]["url"], "Bea")
    for page in (ann, bea):
        page.locator("#seats .seat-chip[data-seat='0'] .clock.running").wait_for()
    bea.locator("#seats .seat-chip[data-seat='1'] .clock", has_text="0:05").wait_for()
    shot(ann, "club-flows-clocks-desktop", full_page=False)
    shot(bea, "club-flows-clocks-phone", full_page=False)
    for page in (ann, bea):  # the server's timer, not a move, ends it: up to 5 s from now
        page.locator("#status.over").wait_for(timeout=15_000)
    assert assert_shows_the_result(ann) == ("Game aborted: you did not make a first move in "
                                            "time.")
    assert assert_shows_the_result(bea) == ("Game aborted: Ann did not make a first move in "
                                            "time.")
    assert ann.locator("#seats .clock.running").count() == 0


def test_a_player_who_resigns_heads_up_at_once_aborts_and_both_read_it(pages):
    """Two strangers paired heads-up; one resigns before a move (the page asks first), which
    aborts the game, and both read the end at once."""
    ann, bob = pair(pages, "chuko/duel", DESKTOP, PHONE)
    bob.locator("button.resign").click()
    bob.locator("dialog.ask", has_text="Resign this game?").locator("button.go").click()
    for page in (ann, bob):
        page.locator("#status.over").wait_for()
    assert assert_shows_the_result(bob) == ("Game aborted: you resigned before two moves "
                                            "were played.")
    assert re.fullmatch(r"Game aborted: .+ resigned before two moves were played\.",
                        assert_shows_the_result(ann))
    assert ann.locator("button.resign").count() == bob.locator("button.resign").count() == 0
    # A table the lobby made has no rematch: the lobby pairs again.
    ann.locator("#status a.to-lobby").click()
    ann.wait_for_url("**/lobby")


def test_a_player_who_closes_the_tab_is_replaced_by_a_bot_and_the_game_goes_on(pages, shot):
    """Three at a Chükö table, Ann and Bea and a bot. Bea closes her tab: after the grace
    period the easy bot plays her seat, which keeps her name and says she left, and the
    game goes on with Ann."""
    ann = pages.new(*DESKTOP)
    create_room(ann, "chuko", options={"players": 3},
                seats=[("me",), ("friend",), ("bot", "easy")], name="Ann")
    invite = ann.locator("#game-chuko .created input.link").first.input_value()
    ann.locator("#game-chuko .created a.button.primary").click()
    bea = pages.new(*PHONE)
    join_invite(bea, invite, "Bea")
    for page in (ann, bea):
        page.locator("#status.playing").wait_for()
    bea_seat = snapshot(bea)["seat"]
    bea.close()
    gone = ann.locator(f"#seats .seat-chip[data-seat='{bea_seat}'] .gone")
    gone.wait_for(timeout=20_000)  # the app's grace is 5 s (conftest's LEAVE_GRACE)
    assert gone.inner_text() == "(left — bot plays)"
    assert ann.locator(f"#seats .seat-chip[data-seat='{bea_seat}'] .name").inner_text() == "Bea"
    state = snapshot(ann)
    assert state["seats"][bea_seat]["kind"] == "bot" and state["status"] == "playing"
    shot(ann, "club-flows-seat-left-desktop", full_page=False)
    # Ann plays on until Bea's seat has moved as the bot (or the game ends).
    since = state["version"]
    play_out(ann, until=lambda s: s["version"] > since and (s["last"] or "").startswith("Bea"))
    assert snapshot(ann)["version"] > since


def test_every_page_links_to_the_lobby_the_leaderboards_and_the_account(pages):
    """The header of each page leads to the club; the account link names the player once
    the lobby made them a guest."""
    page = pages.new(*PHONE)
    for path in ("/", "/lobby", "/account", "/leaderboard/chuko", "/rules/chuko", "/lab",
                 "/@/nobody-here"):
        page.goto(path)
        links = page.locator("header.top nav.site a")
        hrefs = links.evaluate_all("els => els.map(a => a.getAttribute('href'))")
        assert {"/lobby", "/leaderboard", "/account"} <= set(hrefs), (path, hrefs)
        header = page.locator("header.top").bounding_box()
        assert header["width"] <= PHONE[0] and header["height"] < 120, (path, header)
    page.goto("/lobby")
    page.locator("#me", has_text="You play as").wait_for()
    name = page.locator("#me strong").inner_text()
    page.goto("/rules/chuko")
    # On a phone the links are folded behind the Menu button: there, not in sight.
    page.locator("header nav.site a.account", has_text=name).wait_for(state="attached")
    assert page.locator("header nav.site a.profile").count() == 0  # a guest has no profile
    page.goto("/leaderboard")
    page.wait_for_url(re.compile(r"/leaderboard/[\w-]+$"))
    page.locator("#board-title", has_text="leaderboard").wait_for()
