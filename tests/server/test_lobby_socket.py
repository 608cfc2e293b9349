"""The lobby over its socket, `/lobby/ws`, and `GET /api/lobby`: a socket is sent the lists
and its player's state; a pool joined from one tab shows in the other; two players paired
are each sent the room (no token); seeks posted show in the others' lists and are joined
with one message; bad messages and floods are refused in one sentence."""

from __future__ import annotations

from lobby_helpers import Guest
from sqlalchemy import insert

from chuko.server.shared.limits import Buckets
from chuko.server.store.schema import players, ratings


def identified(client) -> None:
    """Players known by a test header instead of a session cookie; the players' buckets on
    a clock that stands still."""
    sockets = client.app.state.lobby.sockets
    sockets.seeks = Buckets(sockets.limits.seeks, lambda: 0.0)
    sockets.toggles = Buckets(sockets.limits.toggles, lambda: 0.0)

    async def identify(scope):
        headers = dict(scope["headers"])
        player = headers.get(b"x-test-player")
        return None if player is None else Guest(player.decode(), player.decode().title())

    client.app.state.lobby.sockets.identify = identify


def until(ws, kind: str) -> dict:
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] in ("lobby", "update", "you"), message
    raise AssertionError(f"no {kind} message")


def lobby_socket(client, player: str):
    return client.websocket_connect("/lobby/ws", headers={"x-test-player": player})


def test_the_lobby_lists_pools_with_their_counts_and_its_page_is_served(make_client):
    client = make_client()
    listing = client.get("/api/lobby").json()
    pools = {pool["id"]: pool for pool in listing["pools"]}
    assert pools["chuko/duel"]["waiting"] == 0 and pools["chuko/duel"]["players"] == 2
    assert pools["takeaway/twenty"]["game"] == "takeaway" and listing["seeks"] == []
    assert client.get("/lobby").status_code == 200
    games = {game["id"]: game for game in client.get("/api/games").json()}
    assert [p["id"] for p in games["chuchula"]["pools"]] == ["chuchula/four"]


def test_a_stranger_is_refused_and_a_known_player_gets_the_lists_and_their_state(make_client):
    client = make_client()
    identified(client)
    with client.websocket_connect("/lobby/ws") as ws:
        assert "does not know you" in ws.receive_json()["message"]
    with lobby_socket(client, "ann") as ws:
        first = ws.receive_json()
        assert first["type"] == "lobby" and "chuko/duel" in first["pools"]
        you = ws.receive_json()
        assert you == {"type": "you", "pool": None, "since": None, "bots_after": None,
                       "clock": None, "rated": None, "seeks": [], "name": "Ann",
                       "guest": True}


def test_a_pool_joined_in_one_tab_shows_in_the_other_and_a_pairing_tells_both_players(
        make_client):
    client = make_client()
    identified(client)
    lobby = client.app.state.lobby
    lobby.matchmaker.pair = lambda pool, now: [tuple(sorted(w.player for w in pool))]
    with lobby_socket(client, "ann") as tab1, lobby_socket(client, "ann") as tab2, \
            lobby_socket(client, "bob") as bob:
        for ws in (tab1, tab2, bob):
            until(ws, "you")
        tab1.send_json({"type": "pool", "pool": "chuko/duel"})
        assert until(tab2, "you")["pool"] == "chuko/duel"
        assert until(tab1, "you")["pool"] == "chuko/duel"
        bob.send_json({"type": "pool", "pool": "chuko/duel", "bots_after": None})
        until(bob, "you")
        assert client.portal.call(lobby.matchmaker.wave) == 1
        rooms = {until(ws, "paired")["room"] for ws in (tab1, tab2, bob)}
        assert len(rooms) == 1
        (room,) = rooms
    paired = client.app.state.hub.rooms[room]
    assert sorted(seat.player for seat in paired.seats) == ["ann", "bob"]
    assert all(seat.token_hash is None for seat in paired.seats)


def test_a_seek_posted_shows_in_anothers_list_and_one_message_joins_it(make_client):
    client = make_client()
    identified(client)
    with lobby_socket(client, "ann") as ann, lobby_socket(client, "bob") as bob:
        until(ann, "you"), until(bob, "you")
        ann.send_json({"type": "seek", "game": "takeaway", "options": {"stones": 9}})
        assert len(until(ann, "you")["seeks"]) == 1
        update = until(bob, "update")
        (seek,) = update["seeks"]
        assert seek["by"] == "Ann" and seek["options"] == {"stones": 9, "most": 3}
        bob.send_json({"type": "accept", "seek": seek["id"]})
        room = until(bob, "paired")["room"]
        assert until(ann, "paired")["room"] == room
        assert seek["id"] in until(bob, "update")["gone"]


def test_bad_messages_are_refused_in_one_sentence_and_a_flood_is_slowed(make_client):
    client = make_client()
    identified(client)
    with lobby_socket(client, "ann") as ws:
        until(ws, "you")
        for message, says in (("{", "not JSON"), ('{"type": "dance"}', "Unknown message"),
                              ('{"type": "pool", "pool": "go/9x9"}', "no pool 'go/9x9'"),
                              ('{"type": "cancel", "seek": "nope"}', "That seek is gone")):
            ws.send_text(message)
            assert says in until(ws, "error")["message"]
        for _ in range(12):
            ws.send_json({"type": "pool", "pool": "chuko/duel"})
        assert "Too many pool joins and leaves" in until(ws, "error")["message"]


def test_seeks_posted_too_fast_are_refused_by_the_players_bucket(make_client):
    client = make_client()
    identified(client)
    with lobby_socket(client, "ann") as ws:
        until(ws, "you")
        for _ in range(5):  # a burst of 5, each cancelled: the cap of 3 open is never reached
            ws.send_json({"type": "seek", "game": "takeaway"})
            (seek,) = until(ws, "you")["seeks"]
            ws.send_json({"type": "cancel", "seek": seek})
            assert until(ws, "you")["seeks"] == []
        ws.send_json({"type": "seek", "game": "takeaway"})
        assert "Too many seeks just now" in until(ws, "error")["message"]


def test_a_seek_shows_its_posters_rating_with_a_question_mark_while_provisional(make_client):
    client = make_client()
    identified(client)
    engine = client.app.state.hub.store.engine
    with engine.begin() as conn:  # Ann: settled at 1800 in takeaway's duels; Bob: no rating
        conn.execute(insert(players).values(id="ann", username="ann", username_key="ann",
                                            name="Ann", created=1.0, deleted=False))
        conn.execute(insert(ratings).values(player="ann", game="takeaway", **{"class": "duel"},
                                            mu=30.0, sigma=3.0, games=20, wins=12, updated=1.0))
    with lobby_socket(client, "ann") as ann, lobby_socket(client, "bob") as bob:
        until(ann, "you"), until(bob, "you")
        ann.send_json({"type": "seek", "game": "takeaway", "options": {"stones": 9}})
        (settled,) = until(bob, "update")["seeks"]
        bob.send_json({"type": "seek", "game": "takeaway", "options": {"stones": 9}})
        assert len(until(bob, "you")["seeks"]) == 1
        listed = client.get("/api/lobby").json()["seeks"]
    assert (settled["by"], settled["rating"], settled["rating_text"]) == ("Ann", 1800, "1800")
    assert {seek["by"]: (seek["rating"], seek["rating_text"]) for seek in listed} == {
        "Ann": (1800, "1800"), "Bob": (1500, "1500?")}
