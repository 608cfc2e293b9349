"""Leaderboards, profiles and a player's own games over HTTP: who is listed and in what order,
a profile's ratings, history and paged game list, the 404s and 400s, and that no player's id
or secret ever leaves the server."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import insert, select, update

from chuko.server.club.ratings import PAIR_WINDOW, PROVISIONAL_GAMES
from chuko.server.shared.players import Player
from chuko.server.store.database import Store
from chuko.server.store.schema import players, ratings, rooms
from club_seed import add_player, add_room, postgres_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request, tmp_path):
    """The test's database: a SQLite file, and PostgreSQL when CHUKO_TEST_POSTGRES is set."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/chuko.db"
        return
    with postgres_schema(request.node.name) as url:
        yield url


@pytest.fixture
def engine(db_url):
    store = Store(db_url)  # the schema, migrated
    yield store.engine
    store.close()


def rating(engine, player, game, klass, mu, sigma=3.0, games=PROVISIONAL_GAMES, wins=5):
    with engine.begin() as conn:
        conn.execute(insert(ratings).values(player=player, game=game, **{"class": klass},
                                            mu=mu, sigma=sigma, games=games, wins=wins,
                                            updated=1.0))


def test_the_leaderboard_lists_settled_accounts_best_first(engine, make_client):
    top, second = add_player(engine, "Top"), add_player(engine, "second")
    rating(engine, top, "chuko", "duel", 30.0)
    rating(engine, second, "chuko", "duel", 28.0)
    rating(engine, add_player(engine, "newish"), "chuko", "duel", 40.0, games=3)
    rating(engine, add_player(engine, "unsure"), "chuko", "duel", 40.0, sigma=7.0, games=50)
    rating(engine, add_player(engine, None, "A guest"), "chuko", "duel", 35.0)
    rating(engine, add_player(engine, "gone", deleted=True), "chuko", "duel", 36.0)
    rating(engine, add_player(engine, "many"), "chuko", "multi", 50.0)
    board = make_client().get("/api/leaderboard/chuko").json()
    assert (board["class"], board["classes"]) == ("duel", ["duel", "multi"])
    assert [(p["rank"], p["username"], p["rating"]) for p in board["players"]] == [
        (1, "Top", 1800), (2, "second", 1680)]
    assert board["players"][0]["text"] == "1800" and not board["players"][0]["provisional"]
    multi = make_client().get("/api/leaderboard/chuko?class=multi").json()
    assert [p["username"] for p in multi["players"]] == ["many"]
    # The board is short of settled players: the provisional fill it below them, best first,
    # unranked and saying so; never a guest or a deleted account.
    assert [(p["username"], p["text"], p["provisional"], "rank" in p)
            for p in board["provisional"]] == [("newish", "2400?", True, False),
                                               ("unsure", "2400?", True, False)]


def test_a_full_board_of_settled_players_lists_no_provisional_one(engine, make_client):
    for n in range(3):
        rating(engine, add_player(engine, f"settled{n}"), "chuko", "duel", 30.0 - n)
    rating(engine, add_player(engine, "newish"), "chuko", "duel", 40.0, games=3)
    full = make_client().get("/api/leaderboard/chuko?count=3").json()
    assert [p["username"] for p in full["players"]] == ["settled0", "settled1", "settled2"]
    assert full["provisional"] == []
    roomy = make_client().get("/api/leaderboard/chuko?count=4").json()
    assert [p["username"] for p in roomy["provisional"]] == ["newish"]


def test_leaderboard_refusals_say_why(make_client):
    client = make_client()
    unknown = client.get("/api/leaderboard/nosuch")
    assert unknown.status_code == 404 and "nosuch" in unknown.json()["error"]
    assert client.get("/api/leaderboard/chuko?class=team").status_code == 400
    solo = client.get("/api/leaderboard/caravan")
    assert solo.status_code == 404 and "Caravan" in solo.json()["error"]
    duel_only = client.get("/api/leaderboard/crossroads?class=multi")
    assert duel_only.status_code == 404
    assert client.get("/api/leaderboard/chuko?count=0").status_code == 400


@pytest.fixture
def club(engine):
    """Ann and Bob (accounts) and a guest: five rated duels of Ann's, the last against a
    player who has since deleted their account, and a casual game with a guest."""
    ann, bob = add_player(engine, "Ann", "Ann R."), add_player(engine, "bob", "Bobby")
    guest, gone = add_player(engine, None, "Guesty"), add_player(engine, "leaver", "Lee")
    rooms = []
    # A day apart: two players' rated games together count 3 a day.
    for k, seed in enumerate((1, 2, 4, 5)):
        rooms.append(add_room(engine, "crossroads", [ann, bob], seed=seed,
                              ended=1000.0 + k * PAIR_WINDOW, names=["Ann R.", "Bobby"]))
    rooms.append(add_room(engine, "crossroads", [gone, ann], seed=2,
                          ended=1010.0 + 3 * PAIR_WINDOW, names=["Lee", "Ann R."]))
    with engine.begin() as conn:
        conn.execute(update(players).where(players.c.id == gone).values(deleted=True))
    rooms.append(add_room(engine, "chuko", [ann, guest], seed=1, rated=False,
                          ended=1020.0 + 3 * PAIR_WINDOW, names=["Ann R.", "Guesty"]))
    return {"ann": ann, "bob": bob, "guest": guest, "gone": gone, "rooms": rooms}


def test_a_profile_has_ratings_history_and_the_newest_games_first(club, make_client):
    profile = make_client().get("/api/players/ANN").json()  # names compare casefolded
    assert (profile["username"], profile["name"]) == ("Ann", "Ann R.")
    (duel,) = profile["ratings"]
    assert (duel["game"], duel["class"], duel["games"], duel["title"]) == (
        "crossroads", "duel", 5, "Crossroads")
    assert duel["provisional"] and duel["text"].endswith("?")
    assert duel["win_rate"] == pytest.approx(duel["wins"] / 5)
    assert len(profile["history"]) == 5
    assert [p["at"] for p in profile["history"]] == sorted(p["at"] for p in profile["history"])
    games = profile["games"]
    assert [g["room"] for g in games] == [room for room, _ in reversed(club["rooms"])]
    casual = games[0]
    assert (casual["rated"], casual["rating"], casual["replay"]) == (
        False, None, f"/replay/{casual['room']}")
    assert [s["name"] for s in casual["seats"]] == ["Ann R.", "Guesty"]
    assert casual["seats"][1]["profile"] is None  # a guest has no page
    against_gone = games[1]
    assert against_gone["seats"][0] == {"seat": 0, "name": "deleted player", "kind": "human",
                                        "profile": None, "gone": None}
    assert (against_gone["seat"], against_gone["result"]) == (1, "lost")
    assert against_gone["rating"]["rating"] < 1500 + 400
    # Each rated game says the change it made: its rating less the one before it.
    rated = [g["rating"] for g in reversed(games) if g["rated"]]
    shown = [1500] + [r["rating"] for r in rated]
    assert [r["change"] for r in rated] == [b - a for a, b in zip(shown, shown[1:], strict=False)]
    assert rated[0]["change"] != 0
    assert [p["rating"] for p in profile["history"]] == shown[1:]
    first = games[-1]  # crossroads seed 1: the second seat won
    assert (first["result"], first["place"], first["seats"][1]["profile"]) == ("lost", 1, "bob")
    assert first["sentence"].startswith("Bobby won")


def test_the_game_list_pages_back_through_every_finished_game(club, make_client):
    client = make_client()
    seen, before, pages = [], None, 0
    while True:
        query = "count=2" + (f"&before={before}" if before else "")
        page = client.get(f"/api/players/ann/games?{query}").json()
        seen += [g["room"] for g in page["games"]]
        pages += 1
        before = page["next"]
        if before is None:
            break
    assert seen == [room for room, _ in reversed(club["rooms"])] and pages == 3
    assert len(client.get("/api/players/ann/games?count=500").json()["games"]) == 6


@pytest.mark.parametrize("query", ["count=0", "count=two", "count=-1", "before=nosuchroom",
                                   "before=" + "x" * 40])
def test_bad_paging_is_refused_with_a_sentence(club, make_client, query):
    answer = make_client().get(f"/api/players/ann/games?{query}")
    assert answer.status_code == 400 and answer.json()["error"].endswith(".")


def test_a_room_the_player_did_not_play_is_no_page_mark(club, engine, make_client):
    other, _ = add_room(engine, "crossroads", [club["bob"], club["guest"]], seed=4, rated=False)
    assert make_client().get(f"/api/players/ann/games?before={other}").status_code == 400


@pytest.mark.parametrize("name", ["nobody", "leaver", "x" * 200])
def test_an_unknown_or_deleted_player_is_a_404_with_a_sentence(club, make_client, name):
    for path in (f"/api/players/{name}", f"/api/players/{name}/games"):
        answer = make_client().get(path)
        assert answer.status_code == 404 and "Nobody plays here" in answer.json()["error"]


def test_the_profile_page_of_nobody_answers_404_and_is_counted_as_a_look_up(club, make_client):
    from server_helpers import from_address

    from chuko.server.shared.limits import Limits

    client = make_client()
    from_address(client, "10.0.0.5")
    assert client.get("/@/ann").status_code == 200
    assert client.get("/@/nobody").status_code == 404
    budget = Limits().profiles.burst
    answers = [client.get(f"/@/name{n:03}").status_code for n in range(budget)]
    assert answers == [404] * (budget - 2) + [429] * 2  # two were looked up above


def test_no_player_id_or_secret_leaves_the_server(club, make_client):
    client = make_client()
    texts = [client.get(path).text for path in (
        "/api/players/ann", "/api/players/bob", "/api/players/ann/games?count=50",
        "/api/leaderboard/crossroads")]
    for text in texts:
        for who in ("ann", "bob", "guest", "gone"):
            assert club[who] not in text
        for secret in ("token", "seed", "invite", "password", "view"):
            assert f'"{secret}' not in text


class FakeAccounts:
    """The accounts' lookup as the profiles use it: a request's player, or None."""

    def __init__(self, player: Player | None) -> None:
        self.found = player

    async def player(self, scope, *, create: bool):
        assert create is False  # reading one's games makes nobody a guest
        return self.found


def test_my_games_lists_rooms_in_progress_with_whose_turn_and_recent_finished(
        club, engine, make_client):
    playing, _ = add_room(engine, "chuko", [club["guest"], club["bob"]], seed=3,
                          status="playing", names=["Guesty", "Bobby"], ended=2000.0)
    client = make_client()
    client.app.state.accounts = FakeAccounts(Player(club["guest"], "Guesty", None))
    mine = client.get("/api/me/games").json()
    (room,) = mine["playing"]
    assert (room["room"], room["url"], room["status"]) == (playing, f"/room/{playing}",
                                                           "playing")
    assert room["your_turn"] == (room["to_move"] == ["Guesty"])
    assert room["to_move"] and set(room["to_move"]) <= {"Guesty", "Bobby"}
    assert [g["room"] for g in mine["finished"]] == [club["rooms"][-1][0]]
    assert club["guest"] not in client.get("/api/me/games").text


def test_my_games_is_empty_for_a_request_without_a_player(make_client):
    client = make_client()
    assert client.get("/api/me/games").json() == {"playing": [], "finished": []}
    client.app.state.accounts = FakeAccounts(None)
    assert client.get("/api/me/games").json() == {"playing": [], "finished": []}


def test_profile_look_ups_are_counted_per_address_so_names_cannot_be_tried_in_bulk(
        club, make_client):
    from server_helpers import from_address

    from chuko.server.shared.limits import Limits

    client = make_client()
    budget = Limits().profiles.burst
    from_address(client, "10.0.0.1")
    answers = [client.get(f"/api/players/name{n:03}").status_code for n in range(200)]
    assert answers == [404] * budget + [429] * (200 - budget)
    refused = client.get("/api/players/Ann/games")
    assert refused.status_code == 429 and refused.headers["retry-after"] == "2"
    assert refused.json() == {"error": "Too many profiles looked up from your address: wait "
                                       "a moment and try again."}
    from_address(client, "10.0.0.2")  # another address is not held back by it
    assert client.get("/api/players/Ann").status_code == 200
    assert client.get("/api/players/nobody").status_code == 404


def test_profile_look_ups_in_one_session_are_counted_whatever_the_address(club, make_client):
    from server_helpers import from_address

    from chuko.server.shared.limits import Limits

    client = make_client()
    client.headers.update({"origin": "http://testserver"})
    client.post("/api/me", json={})  # a guest's session
    answers = []
    for n in range(Limits().profiles.burst + 1):
        from_address(client, f"10.0.3.{n}")
        answers.append(client.get(f"/api/players/name{n:03}").status_code)
    assert answers == [404] * (len(answers) - 1) + [429]


def test_an_aborted_game_is_listed_as_aborted_not_as_a_draw(engine, make_client):
    ann, bob = add_player(engine, "Ann", "Ann R."), add_player(engine, "bob", "Bobby")
    room, _ = add_room(engine, "crossroads", [ann, bob], status="playing", apply=False,
                       names=["Ann R.", "Bobby"])
    aborted = {"kind": "aborted", "seat": 1, "why": "resigned", "unrated": "aborted"}
    with engine.begin() as conn:
        conn.execute(update(rooms).where(rooms.c.id == room).values(
            status="over", ended=2000.0, result=json.dumps(aborted)))
    (game,) = make_client().get("/api/players/ann/games").json()["games"]
    assert (game["room"], game["result"]) == (room, "aborted")
    assert game["sentence"].startswith("Game aborted")


def test_a_guest_who_signs_up_is_shown_by_the_account_name_in_the_games_played_as_a_guest(
        engine, make_client):
    client = make_client()
    client.headers.update({"origin": "http://testserver"})
    guest_name = client.post("/api/me", json={}).json()["player"]["name"]
    with engine.begin() as conn:
        (guest,) = conn.execute(select(players.c.id).where(players.c.name == guest_name)).one()
    bob = add_player(engine, "bob", "Bobby")
    paired, _ = add_room(engine, "crossroads", [guest, bob], seed=1, rated=False,
                         ended=1000.0, names=[guest_name, "Bobby"])
    unnamed, _ = add_room(engine, "crossroads", [bob, guest], seed=2, rated=False,
                          ended=2000.0, names=["Bobby", None])
    chosen, _ = add_room(engine, "crossroads", [guest, bob], seed=4, rated=False,
                         ended=3000.0, names=["Ada at home", "Bobby"])
    made = client.post("/api/account/signup", json={"username": "ada",
                                                     "password": "correct horse"})
    assert made.status_code == 201 and made.json()["player"]["name"] == "ada"
    games = {game["room"]: game for game in client.get("/api/players/ada").json()["games"]}
    # The server's guest label and a seat left unnamed read as the account's name; a name
    # the guest chose for a seat stays theirs.
    assert [seat["name"] for seat in games[paired]["seats"]] == ["ada", "Bobby"]
    assert [seat["name"] for seat in games[unnamed]["seats"]] == ["Bobby", "ada"]
    assert [seat["name"] for seat in games[chosen]["seats"]] == ["Ada at home", "Bobby"]
    assert all(game["seats"][game["seat"]]["profile"] == "ada" for game in games.values())
