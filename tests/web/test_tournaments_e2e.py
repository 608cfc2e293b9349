"""Tournaments in Chromium, to their podiums: a 4-round Swiss of five players (one bye a
round, no pairing twice, the standings and tie-breaks against a table worked by hand) and
an arena of six guests, each player on a page of their own that sends them to each game;
the games are ended through the room pages (two moves, then the loser resigns) and lead
back to the tournament. On the way: the list's form and a refusal, the list and the
lobby's panel, a password asked at joining, a profile's tournaments; screenshots of the
list, a running tournament, the podiums and a game's end (desktop, dark and phone).

The app is the test's own: its tournaments' clock is moved by the test (to start an event
made for later once everyone is in, and to end an arena), and the ratings players enter
with are the test's (the club's reader stands in), so the round's order, and so every
pairing, is known."""

from __future__ import annotations

import secrets
import time

import pytest
from play_helpers import play_out, sign_up

CLOCK = {"kind": "move", "seconds": 60, "reserve": 120}
HOUR = 3600.0
APP = {"X-Chuko": "1"}  # a request with a session says it is the app's

# The Swiss: five players entering with these ratings, and who wins each meeting.
SWISS_RATINGS = {"Ann": 1800, "Bea": 1700, "Cid": 1600, "Dee": 1500, "Eve": 1400}
WINNER = {frozenset(pair): winner for pair, winner in [
    (("Ann", "Cid"), "Ann"), (("Bea", "Dee"), "Dee"), (("Ann", "Dee"), "Ann"),
    (("Bea", "Eve"), "Eve"), (("Ann", "Eve"), "Ann"), (("Cid", "Dee"), "Dee"),
    (("Ann", "Bea"), "Ann"), (("Cid", "Eve"), "Cid")]}
# Worked by hand (tournament/swiss.py's order and fold, tiebreaks.py's rules): the bye
# goes to the lowest-scored, lowest-rated player without one, so round by round:
#   1: Ann–Cid 1-0, Bea–Dee 0-1, Eve bye      2: Ann–Dee 1-0, Eve–Bea 1-0, Cid bye
#   3: Ann–Eve 1-0, Cid–Dee 0-1, Bea bye      4: Ann–Bea 1-0, Eve–Cid 0-1, Dee bye
SWISS_ROUNDS = [
    {frozenset(("Ann", "Cid")), frozenset(("Bea", "Dee")), frozenset(("Eve",))},
    {frozenset(("Ann", "Dee")), frozenset(("Bea", "Eve")), frozenset(("Cid",))},
    {frozenset(("Ann", "Eve")), frozenset(("Cid", "Dee")), frozenset(("Bea",))},
    {frozenset(("Ann", "Bea")), frozenset(("Cid", "Eve")), frozenset(("Dee",))},
]
# Final: Ann 4, Dee 3, Cid 2, Eve 2, Bea 1. Buchholz (a bye is a game against one's own
# score): Ann 2+3+2+1 = 8; Dee 1+4+2+3 = 10; Cid 4+2+3+2 = 11; Eve 2+1+4+2 = 9;
# Bea 3+2+1+4 = 10. Sonneborn–Berger (those beaten): Ann 2+3+2+1 = 8; Dee 1+2 = 3;
# Cid 2; Eve 1; Bea 0. Cid and Eve tie on points: Buchholz puts Cid third.
SWISS_TABLE = [  # rank, name, points, sheet, Buchholz, Sonneborn–Berger
    (1, "Ann", 4, [1, 1, 1, 1], 8, 8),
    (2, "Dee", 3, [1, 0, 1, 1], 10, 3),
    (3, "Cid", 2, [0, 1, 0, 1], 11, 2),
    (4, "Eve", 2, [1, 1, 0, 0], 9, 1),
    (5, "Bea", 1, [0, 0, 1, 0], 10, 0),
]


class Shifted:
    """The tournaments' wall clock, `ahead` seconds ahead of the real one once moved."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
def club(own_app):
    """The app, its tournaments on a clock the test moves and with ratings the test sets
    (by the player's name, else 1500); (url, clock, ratings)."""
    from sqlalchemy import select

    from chuko.server.shared.limits import Limits, Rate
    from chuko.server.store.schema import players

    app, url = own_app(bot_delay=0.05, round_pause=0, limits=Limits(signups=Rate(10, 100)))
    director = app.state.tournaments.director
    clock, ratings = Shifted(), {}
    director.clock = app.state.tournaments.leader.clock = clock

    async def rating_of(player: str, game: str, table_size: int) -> float:
        name = await director.store.fetch(lambda conn: conn.execute(
            select(players.c.name).where(players.c.id == player)).scalar())
        return float(ratings.get(name, 1500))

    director.rating_of = rating_of
    return url, clock, ratings


def shots(shot, page, name: str) -> None:
    """The whole page as a desktop (1280×800, light and dark) and a phone (390×844) show
    it, then back."""
    before = page.viewport_size
    for look, width, height, scheme in (("desktop", 1280, 800, "light"),
                                        ("desktop-dark", 1280, 800, "dark"),
                                        ("phone", 390, 844, "light")):
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(color_scheme=scheme)
        shot(page, f"{name}-{look}")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(before)


def new_player(pages, url: str, name: str):
    """A guest named `name`, on a page of their own."""
    page = pages.new(base_url=url)
    page.request.post("/api/me", data={}, headers=APP)
    assert page.request.post("/api/me/name", data={"name": name}, headers=APP).ok
    return page


def make_tournament(pages, url: str, **settings) -> str:
    """An account makes the tournament (through the API), starting in an hour; its id."""
    host = pages.new(base_url=url)
    sign_up(host, f"maker_{secrets.token_hex(3)}")
    body = {"name": "Friday night", "game": "chuko", "options": {"players": 2},
            "clock": CLOCK, "rated": False, "starts_at": time.time() + HOUR, **settings}
    answer = host.request.post("/api/tournaments", data=body, headers=APP)
    assert answer.ok, answer.text()
    return answer.json()["id"]


def make_swiss_on_the_page(pages, url: str, shot) -> str:
    """An account makes a 4-round Swiss with the list's form (the server's refusal of a
    rating range upside down shown first); its id, from the page it is sent to."""
    host = pages.new(base_url=url)
    sign_up(host, f"maker_{secrets.token_hex(3)}")
    host.goto("/tournaments")
    form = host.locator("#make-form")
    form.locator("#t-name").fill("Friday Swiss")
    form.locator("#t-game").select_option("chuko")
    form.locator("#t-players").fill("2")
    form.locator("#t-system").select_option("swiss")
    form.locator("#t-rounds").fill("4")
    form.locator("#t-clock").select_option(label="1 min a move + 2 min reserve")
    form.locator("#t-low").fill("1800")
    form.locator("#t-high").fill("1200")
    form.locator("button[type=submit]").click()
    host.locator("#make-refused", has_text="A rating range's lowest rating must be below "
                 "its highest.").wait_for()
    shots(shot, host, "tournament-make-refused")
    form.locator("#t-low").fill("")
    form.locator("#t-high").fill("")
    form.locator("button[type=submit]").click()
    host.wait_for_url("**/tournament/*")
    host.locator("#head h1", has_text="Friday Swiss").wait_for()
    return host.url.rsplit("/", 1)[-1]


def join(page, tournament: str) -> None:
    page.goto(f"/tournament/{tournament}")
    page.get_by_role("button", name="Join").click()
    page.locator("#you", has_text="You are in").wait_for()


def standings(page, tournament: str) -> dict:
    return page.request.get(f"/api/tournaments/{tournament}").json()


def sent_to_game(page, played: set[str]) -> str:
    """The room the tournament's page sends the player to next (not one of the rooms they
    `played` in already, to which it is added)."""
    page.wait_for_url(lambda address: "/room/" in address
                      and address.rsplit("/", 1)[-1] not in played)
    room = page.url.rsplit("/", 1)[-1]
    played.add(room)
    page.locator("#board[data-version]").wait_for()
    return room


def finish(winner, loser, shot=None) -> None:
    """Two moves, then the loser resigns through their page; both read the end and go back
    to the tournament from the end panel (the loser's screenshot first, given `shot`)."""
    play_out(winner, loser, until=lambda state: state["version"] >= 2)
    loser.locator("button.resign").click()
    loser.locator("dialog.ask button.go").click()
    for page in (winner, loser):
        page.locator("#status.over").wait_for()
    assert loser.locator("#status").inner_text().startswith("You resigned")
    if shot is not None:
        shots(shot, loser, "tournament-game-over")
    for page in (winner, loser):
        page.locator("a.to-tournament").click()
        page.wait_for_url("**/tournament/**")


def test_a_swiss_of_five_runs_four_rounds_to_the_podium_with_the_tie_breaks_worked_by_hand(
        pages, club, shot):
    url, clock, ratings = club
    ratings.update(SWISS_RATINGS)
    tournament = make_swiss_on_the_page(pages, url, shot)
    players = {name: new_player(pages, url, name) for name in SWISS_RATINGS}
    for page in players.values():
        join(page, tournament)
    played: dict[str, set[str]] = {name: set() for name in players}
    clock.ahead = HOUR  # it is due: the leader's next pass starts it and pairs round 1
    for number, expected in enumerate(SWISS_ROUNDS, 1):
        playing = [name for name in players
                   if frozenset((name,)) not in expected]  # the bye's player stays
        rooms = {name: sent_to_game(players[name], played[name]) for name in playing}
        page = standings(players["Ann"], tournament)
        paired = {frozenset(game["players"]) for game in page["pairings"][number - 1]["games"]}
        assert page["pairings"][number - 1]["round"] == number
        assert paired == expected, number
        for pair in expected - {frozenset((name,)) for name in players}:
            first, second = sorted(pair)
            assert rooms[first] == rooms[second]
            winner = WINNER[pair]
            loser = second if winner == first else first
            finish(players[winner], players[loser], shot if number == 1 else None)
    ann = players["Ann"]
    ann.locator("#podium-box:not([hidden])").wait_for()
    final = standings(ann, tournament)
    assert final["final"] and final["tiebreaks"] == ["buchholz", "sonneborn_berger"]
    table = [(line["rank"], line["name"], line["points"], line["sheet"],
              line["tiebreaks"]["buchholz"], line["tiebreaks"]["sonneborn_berger"])
             for line in final["standings"]]
    assert table == SWISS_TABLE
    # The page shows the same: podium, standings with both tie-breaks, byes, the rules.
    assert ann.locator("#podium li .name").all_inner_texts() == ["Ann", "Dee", "Cid"]
    rows = ann.locator("#standings tbody tr")
    assert rows.nth(2).locator("td").all_inner_texts()[:3] == ["3", "Cid", "2"]
    assert rows.nth(2).locator("td[data-tiebreak='buchholz']").inner_text() == "11"
    assert ann.locator("#standings thead th").all_inner_texts()[-2:] == [
        "Buchholz", "Sonneborn–Berger"]
    assert ann.locator("#pairings .round[data-round='1']", has_text="Eve has a bye").count() == 1
    assert "Buchholz" in ann.locator("#rules").inner_text()
    shots(shot, ann, "tournament-swiss-podium")
    # Ann makes her guest an account: her profile lists the tournament she played.
    username = f"ann_{secrets.token_hex(3)}"
    sign_up(ann, username)
    ann.goto(f"/@/{username}")
    entered = ann.locator(f"#tournaments .event[data-id='{tournament}']")
    entered.wait_for()
    assert "Friday Swiss" in entered.inner_text() and entered.get_attribute("data-status") == "over"


def test_an_arena_of_six_guests_pairs_again_as_games_end_and_ends_at_its_time(
        pages, club, shot):
    url, clock, _ = club
    tournament = make_tournament(pages, url, system="arena", minutes=5)
    later = make_tournament(pages, url, system="swiss", rounds=5, name="Sunday Swiss",
                            starts_at=time.time() + 3 * HOUR, password="knight")
    names = ["Ann", "Bea", "Cid", "Dee", "Eve", "Fay"]  # the earlier in the list wins
    players = {name: new_player(pages, url, name) for name in names}
    for page in players.values():
        join(page, tournament)
    played: dict[str, set[str]] = {name: set() for name in players}
    shots(shot, players["Ann"], "tournament-upcoming-joined")
    clock.ahead = HOUR
    wins = dict.fromkeys(names, 0)

    def decide(pair) -> None:
        winner, loser = sorted(pair, key=names.index)
        finish(players[winner], players[loser])
        wins[winner] += 1

    rooms = {name: sent_to_game(players[name], played[name]) for name in names}
    wave = [frozenset(n for n in names if rooms[n] == room) for room in set(rooms.values())]
    assert sorted(map(len, wave)) == [2, 2, 2]
    first, second, third = sorted(wave, key=lambda pair: min(map(names.index, pair)))
    decide(first)  # its two are each other's latest opponent: they wait
    decide(second)  # four wait: paired again, across the two games
    again = {name: sent_to_game(players[name], played[name]) for name in first | second}
    wave_two = [frozenset(n for n in again if again[n] == room) for room in set(again.values())]
    assert sorted(map(len, wave_two)) == [2, 2] and not set(wave_two) & {first, second}
    running = standings(players["Ann"], tournament)
    assert running["status"] == "running" and len(running["playing"]) == 3
    decide(third)  # each other's latest opponent again, and everyone else busy
    watcher = pages.new(base_url=url)
    watcher.goto(f"/tournament/{tournament}")
    watcher.locator("#playing a", has_text="Watch").first.wait_for()
    shots(shot, watcher, "tournament-arena-running")
    watcher.goto("/tournaments")
    watcher.locator(f"#running .event[data-id='{tournament}']").wait_for()
    upcoming = watcher.locator(f"#upcoming .event[data-id='{later}']")
    assert upcoming.locator(".tag").text_content() == "password"
    assert upcoming.locator(".countdown").inner_text().startswith("in 2 h ")
    shots(shot, watcher, "tournament-list-running")
    watcher.goto("/lobby")  # the lobby's panel: the running one, then the next to come
    events = watcher.locator("#events .event")
    events.nth(1).wait_for()
    assert events.evaluate_all("els => els.map(e => e.dataset.id)") == [tournament, later]
    shots(shot, watcher, "tournament-lobby-panel")
    # The password's tournament asks for it: a wrong one is refused in a sentence.
    watcher.goto(f"/tournament/{later}")
    entry = watcher.locator("form.join-form")
    entry.locator("input[name=password]").fill("bishop")
    entry.get_by_role("button", name="Join").click()
    watcher.locator("#notice.error", has_text="That is not the tournament's password.").wait_for()
    entry.locator("input[name=password]").fill("knight")
    entry.get_by_role("button", name="Join").click()
    watcher.locator("#you", has_text="You are in").wait_for()
    assert watcher.locator("#standings tbody tr").count() == 1
    watcher.goto(f"/tournament/{tournament}")
    clock.ahead = HOUR + 6 * 60  # past its end: nobody is paired again
    for pair in wave_two:
        decide(pair)
    watcher.locator("#podium-box:not([hidden])").wait_for()
    final = standings(watcher, tournament)
    assert final["final"] and final["status"] == "over"
    points = {line["name"]: line["points"] for line in final["standings"]}
    assert points == {name: 2 * wins[name] for name in names}
    assert sum(points.values()) == 2 * 5  # five games, each counted once
    # Everyone ranked 1st to 3rd stands on it, those sharing a place too.
    assert [line["name"] for line in final["podium"]] == [
        line["name"] for line in final["standings"] if line["rank"] <= 3]
    assert final["podium"][0]["points"] == max(points.values())
    shown = watcher.locator("#podium li .name").all_inner_texts()
    assert shown == [line["name"] for line in final["podium"]]
    shots(shot, watcher, "tournament-arena-podium")
    watcher.goto("/tournaments")
    watcher.locator(f"#finished .event[data-id='{tournament}']").wait_for()
    shots(shot, watcher, "tournament-list-finished")
