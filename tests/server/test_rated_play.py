"""A rated game played to its end through the server changes both players' ratings once, in
the transaction that stores its final move: they are there as soon as the end is told."""

from __future__ import annotations

from server_helpers import drive, join, new_room, random_chooser, state_at
from sqlalchemy import select, update

from chuko.server.club.ratings import Shown
from chuko.server.store.schema import rating_history, ratings, rooms, seats
from club_seed import add_player


def test_a_finished_rated_duel_rates_both_players_once(make_client):
    client = make_client(seed=3)
    engine = client.app.state.hub.store.engine
    ann, bob = add_player(engine, "ann"), add_player(engine, "bob")
    room = new_room(client, "crossroads", [{"kind": "me", "name": "Ann"}, {"kind": "friend"}],
                    first="0")
    tokens = {0: room["token"], 1: join(client, room, name="Bob")["token"]}
    # As the lobby makes a rated room: both seats held by known players.
    with engine.begin() as conn:
        conn.execute(update(rooms).where(rooms.c.id == room["room"]).values(rated=True))
        for seat, player in enumerate((ann, bob)):
            conn.execute(update(seats).where(seats.c.room == room["room"], seats.c.seat == seat)
                         .values(player=player))
    held = client.app.state.hub.rooms[room["room"]]
    held.rated = True
    for seat, player in zip(held.seats, (ann, bob), strict=True):
        seat.player = player
    base = f"/ws/{room['room']}"
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1:
        ends = drive({0: ws0, 1: ws1}, random_chooser(1))
    assert ends[0]["rated"] is True and ends[0]["unrated"] is None
    with engine.connect() as conn:
        points = conn.execute(select(rating_history.c.player)
                              .where(rating_history.c.room == room["room"])).all()
    assert sorted(player for (player,) in points) == sorted([ann, bob])
    with engine.connect() as conn:
        games = conn.execute(select(ratings.c.games)).scalars().all()
    assert games == [1, 1]


def _rated_duel(client, names=("ann", "bob")):
    """A crossroads room between two accounts made rated as the lobby makes one; (room,
    tokens by seat, players by seat)."""
    engine = client.app.state.hub.store.engine
    players = [add_player(engine, name) for name in names]
    room = new_room(client, "crossroads", [{"kind": "me", "name": names[0].title()},
                                           {"kind": "friend"}], first="0")
    tokens = {0: room["token"], 1: join(client, room, name=names[1].title())["token"]}
    with engine.begin() as conn:
        conn.execute(update(rooms).where(rooms.c.id == room["room"]).values(rated=True))
        for seat, player in enumerate(players):
            conn.execute(update(seats).where(seats.c.room == room["room"], seats.c.seat == seat)
                         .values(player=player))
    # Out of memory, so that it is read again as the database now says.
    client.app.state.hub.rooms.pop(room["room"])
    return room, tokens, players


def _play_out(client, room, tokens) -> tuple[dict, dict]:
    """Play the room to its end; (the state a spectator is sent first, the end's)."""
    base = f"/ws/{room['room']}"
    with client.websocket_connect(base) as watcher:
        first = state_at(watcher, 0)
    with client.websocket_connect(f"{base}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"{base}?token={tokens[1]}") as ws1:
        ends = drive({0: ws0, 1: ws1}, random_chooser(1))
    return first, ends[0]


def _shown(client, player: str) -> Shown:
    engine = client.app.state.hub.store.engine
    with engine.connect() as conn:
        row = conn.execute(select(ratings).where(ratings.c.player == player)).one()
    return Shown.of(row.mu, row.sigma, row.games)


def test_a_rated_room_shows_each_seats_rating_and_at_its_end_the_change(make_client):
    client = make_client(seed=3)
    room, tokens, players = _rated_duel(client)
    first, end = _play_out(client, room, tokens)
    newcomer = {"rating": 1500, "provisional": True, "text": "1500?", "change": None}
    assert [seat["rating"] for seat in first["seats"]] == [newcomer, newcomer]
    scores = end["view"]["outcome"]["scores"]
    for seat, player in enumerate(players):
        after = _shown(client, player)
        assert end["seats"][seat]["rating"] == {
            "rating": after.rating, "provisional": True, "text": f"{after.rating}?",
            "change": after.rating - 1500}
    changes = [seat["rating"]["change"] for seat in end["seats"]]
    assert scores[0] != scores[1]  # this seed's game has a winner
    winner = 0 if scores[0] > scores[1] else 1
    assert changes[winner] > 0 > changes[1 - winner]
    # A spectator, and a room read again from the database, show the same.
    client.app.state.hub.rooms.pop(room["room"], None)
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        assert [s["rating"] for s in state_at(watcher, 0)["seats"]] == [
            s["rating"] for s in end["seats"]]


def test_a_second_rated_game_starts_from_the_first_ones_ratings(make_client):
    client = make_client(seed=5)
    room, tokens, players = _rated_duel(client)
    _, first_end = _play_out(client, room, tokens)
    before = [seat["rating"]["rating"] for seat in first_end["seats"]]
    again, tokens_again, _ = _rated_duel(client, ("ann2", "bob2"))
    # The same two players: the second room's seats are theirs.
    engine = client.app.state.hub.store.engine
    with engine.begin() as conn:
        for seat, player in enumerate(players):
            conn.execute(update(seats).where(seats.c.room == again["room"],
                                             seats.c.seat == seat).values(player=player))
    start, end = _play_out(client, again, tokens_again)
    assert [seat["rating"]["rating"] for seat in start["seats"]] == before
    assert all(seat["rating"]["change"] is None for seat in start["seats"])
    for seat, player in enumerate(players):
        after = _shown(client, player).rating
        assert end["seats"][seat]["rating"]["change"] == after - before[seat]


def test_a_casual_room_shows_no_ratings(make_client):
    client = make_client(seed=3)
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "random"}])
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        assert [seat["rating"] for seat in state_at(ws, 0)["seats"]] == [None, None]
