"""Whose turn it is, on each player's own socket: a page is first told the rooms where it is
its player's turn, as the engine says, and then, as each move is stored, whether it is their
turn in that room now."""

from __future__ import annotations

import pytest
from people_helpers import quick_hashing, three_accounts, until
from server_helpers import random_chooser, state_at


@pytest.fixture
def people(make_client, monkeypatch):
    quick_hashing(monkeypatch)
    return three_accounts(make_client())


def challenge_room(people) -> str:
    sent = people.post("ann", "/api/challenges", to="bob", game="chuko").json()
    return people.post("bob", "/api/challenges/accept", id=sent["id"]).json()["room"]


def test_a_page_is_told_its_turns_first_and_again_after_each_move(people):
    room_id = challenge_room(people)
    room = people.client.app.state.hub.rooms[room_id]
    names = {seat.seat: seat.name for seat in room.seats}
    mover = names[room.state.to_move[0]]
    waiter = next(name for name in names.values() if name != mover)
    with people.as_(mover).websocket_connect("/me/ws") as mine, \
            people.as_(waiter).websocket_connect("/me/ws") as theirs:
        assert until(mine, "hello")["turns"] == [room_id]
        assert until(theirs, "hello")["turns"] == []
        with people.as_(mover).websocket_connect(f"/ws/{room_id}") as table:
            state = state_at(table, 0)
            table.send_json({"type": "move", "move": random_chooser(1)(state)})
            state_at(table, 1)
        after = {names[seat]: seat in room.state.to_move for seat in names}
        assert until(mine, "turn") == {"type": "turn", "room": room_id, "yours": after[mover]}
        assert until(theirs, "turn") == {"type": "turn", "room": room_id,
                                         "yours": after[waiter]}
        assert after[waiter]  # the engine passed the turn on
