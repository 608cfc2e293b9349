"""A rated game played to its end through the server changes both players' ratings once, in
the transaction that stores its final move: they are there as soon as the end is told."""

from __future__ import annotations

from server_helpers import drive, join, new_room, random_chooser
from sqlalchemy import select, update

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
