"""Each player's own socket, `/me/ws`, and the channel behind it: a visitor with no player is
refused in one sentence; a page sends only pings; a player's pages are bounded; a player is
online while a page is open and lapses after the grace once none is; the finished games of
those one follows are listed for the home page."""

from __future__ import annotations

import asyncio

import pytest
from people_helpers import quick_hashing, three_accounts, until

from chuko.server.lobby.kv import MemoryKv
from chuko.server.notify.channel import Channel
from chuko.server.web import me_socket


@pytest.fixture
def people(make_client, monkeypatch):
    quick_hashing(monkeypatch)
    return three_accounts(make_client())


def test_a_visitor_with_no_player_is_refused_and_a_page_only_pings(people):
    with people.as_("").websocket_connect("/me/ws") as ws:
        assert ws.receive_json() == {"type": "error", "message": "The server does not know "
                                     "you yet: reload the page."}
    with people.as_("ann").websocket_connect("/me/ws") as ws:
        until(ws, "hello")
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "accept"})
        assert "only listens" in ws.receive_json()["message"]
        ws.send_text("[" * 100)
        assert "nests deeper" in ws.receive_json()["message"]


def test_a_players_pages_are_bounded(people, monkeypatch):
    monkeypatch.setattr(me_socket, "PAGES_PER_PLAYER", 1)
    with people.as_("ann").websocket_connect("/me/ws") as first:
        until(first, "hello")
        with people.as_("ann").websocket_connect("/me/ws") as second:
            assert "You have 1 pages open already" in second.receive_json()["message"]


def test_a_player_is_online_while_a_page_is_open_and_lapses_after_the_grace():
    now = [1000.0]
    channel = Channel(MemoryKv(lambda: now[0]), grace=30.0, clock=lambda: now[0])

    class Page:
        player = "ann"

        def send_text(self, text: str) -> None:
            pass

    async def go() -> list:
        page = Page()
        await channel.add(page)
        seen = [await channel.online(["ann", "bob"])]
        channel.remove(page)
        now[0] += 29
        seen.append(await channel.online(["ann"]))
        now[0] += 2
        seen.append(await channel.online(["ann"]))
        seen.append(await channel.forget_lapsed())
        return seen

    assert asyncio.run(go()) == [{"ann"}, {"ann"}, set(), 1]


def test_the_finished_games_of_those_one_follows_are_listed(people):
    sent = people.post("ann", "/api/challenges", to="bob", game="chuko").json()
    room_id = people.post("bob", "/api/challenges/accept", id=sent["id"]).json()["room"]
    hub = people.client.app.state.hub
    room = hub.rooms[room_id]
    people.client.portal.call(hub.resign, room, room.seats[0].seat)
    people.post("cid", "/api/people/follow", username="bob")
    games = people.as_("cid").get("/api/me/followed-games").json()["games"]
    assert [(g["room"], g["username"], g["title"], g["replay"]) for g in games] == [
        (room_id, "bob", "Chükö", f"/replay/{room_id}")]
    assert people.as_("ann").get("/api/me/followed-games").json() == {"games": []}
