"""A lobby players can trust: every rated game it makes has a clock (a seek's or a pool's,
chosen from a small menu); rated play needs an account, guests play casual; a player leaves
their pool the moment their last lobby socket closes, on every worker, and a player found
gone as a pairing is recorded is not paired; seeks are capped per address, whatever its
guests; and the first message a lobby socket is sent stays small, however many seeks are
open, with the older ones a page at a time."""

from __future__ import annotations

import asyncio
import json

import pytest
from lobby_helpers import (
    HOME,
    QUICK,
    Clock,
    Guest,
    Rooms,
    guests,
    matchmaker,
    members,
    pair_in_order,
    present,
)
from test_lobby_socket import identified, lobby_socket, until

from chuko.core.errors import ChukoError, ConfigError
from chuko.server.lobby.feed import Feed, LobbyClient
from chuko.server.lobby.kv import MemoryKv
from chuko.server.lobby.seeks import LobbyLimits, Standing, new_seek
from chuko.server.rooms.room import Forbidden

SLOW = {"kind": "move", "seconds": 60, "reserve": 120}
DAYS = {"kind": "days", "days": 3}


def run(coroutine):
    return asyncio.run(coroutine)


@pytest.mark.parametrize("clock", [None, {"kind": "move", "seconds": 45, "reserve": 0}])
def test_a_rated_seek_without_one_of_the_clocks_is_refused_in_one_sentence(clock):
    made = matchmaker()
    (host,) = members(1)
    message = {"game": "chuko", "rated": True, "clock": clock}
    with pytest.raises(ConfigError) as refused:
        run(made.post(host, message, HOME))
    said = str(refused.value)
    assert ("needs a clock" if clock is None else "The clocks of a seek are") in said
    assert said.endswith(".") and said.count(". ") == 0
    assert run(made.listing())["seeks"] == []


def test_a_rated_seeks_room_has_the_seeks_clock(make_client):
    client = make_client()
    lobby = client.app.state.lobby
    host, taker = members(2)

    async def go():
        await present(lobby.matchmaker, [host, taker])
        await lobby.matchmaker.post(host, {"game": "crossroads", "rated": True,
                                           "clock": DAYS}, HOME)
        (seek,) = (await lobby.matchmaker.listing())["seeks"]
        assert seek["clock"] == DAYS
        assert await lobby.matchmaker.accept(taker, seek["id"]) is None
        return await lobby.board.paired_room(host.id)

    room = client.app.state.hub.rooms[client.portal.call(go)]
    assert room.rated and room.clocks is not None and room.clocks.control == DAYS
    assert client.get(f"/api/rooms/{room.id}").json()["clock"]["control"] == DAYS


def test_a_pool_room_has_the_clock_its_players_chose_and_clocks_are_paired_apart(
        make_client):
    client = make_client()
    lobby = client.app.state.lobby
    lobby.matchmaker.pair = pair_in_order
    slow, quick, slow_too = members(3)

    async def go():
        made = lobby.matchmaker
        await present(made, [slow, quick, slow_too])
        await made.toggle(slow, "takeaway/twenty", None, SLOW)
        await made.toggle(quick, "takeaway/twenty", None, QUICK)
        assert await made.wave() == 0  # one on each clock: nobody to play
        await made.toggle(slow_too, "takeaway/twenty", None, SLOW)
        assert await made.wave() == 1
        assert (await made.you(quick.id))["clock"] == QUICK
        return await lobby.board.paired_room(slow.id)

    room = client.app.state.hub.rooms[client.portal.call(go)]
    assert sorted(seat.player for seat in room.seats) == [slow.id, slow_too.id]
    assert room.rated and room.clocks is not None and room.clocks.control == SLOW


def test_another_clock_of_ones_pool_moves_the_player_to_it_and_the_same_one_leaves():
    made = matchmaker()
    (player,) = members(1)

    async def go():
        await made.toggle(player, "chuko/duel", None, QUICK)
        moved = await made.toggle(player, "chuko/duel", None, SLOW)
        left = await made.toggle(player, "chuko/duel", None, SLOW)
        return moved, left

    moved, left = run(go())
    assert (moved["pool"], moved["clock"]) == ("chuko/duel", SLOW)
    assert left["pool"] is None


@pytest.mark.parametrize("clock, says", [
    ({"kind": "days", "days": 2}, "The clocks of this pool are 10 s a move \\+ 30 s; .*; "
                                  "3 days a move, not 2 days a move\\.$"),
    ({"kind": "move", "seconds": 20, "reserve": 30}, "not 20 s a move \\+ 30 s\\.$"),
    ({"kind": "move", "seconds": float("inf"), "reserve": 30}, "whole number from 5 to 600"),
    ("fast", "A clock is null"),
])
def test_a_pool_refuses_a_clock_off_its_menu_in_one_sentence(clock, says):
    made = matchmaker()
    with pytest.raises(ConfigError, match=says):
        run(made.toggle(members(1)[0], "chuko/duel", None, clock))
    assert run(made.you("p000"))["pool"] is None


def test_a_guest_is_refused_rated_seeks_and_is_paired_only_with_guests_casual():
    rooms = Rooms()
    made = matchmaker(rooms=rooms)
    (member,) = members(1)
    guest, other_guest = guests(3)[1:]

    async def go():
        await present(made, [member, guest, other_guest])
        with pytest.raises(Forbidden, match="sign up on the Account page \\(/account\\)"):
            await made.post(guest, {"game": "chuko", "rated": True, "clock": QUICK}, HOME)
        await made.post(member, {"game": "chuko", "rated": True, "clock": QUICK}, HOME)
        (seek,) = (await made.listing())["seeks"]
        with pytest.raises(Forbidden, match="Rated games are for players with an account"):
            await made.accept(guest, seek["id"])
        await made.cancel(member, seek["id"])
        for player in (member, guest):
            await made.toggle(player, "chuko/duel", None)
        assert (await made.you(guest.id))["rated"] is False
        assert await made.wave() == 0  # a guest is never paired with an account
        await made.toggle(other_guest, "chuko/duel", None)
        assert await made.wave() == 1

    run(go())
    (room,) = rooms.made
    assert {p["player"] for p in room["players"]} == {guest.id, other_guest.id}
    assert not room["rated"] and room["clock"] == {"kind": "move", "seconds": 10,
                                                   "reserve": 30}


def test_a_pool_is_left_when_the_last_lobby_socket_closes_on_every_worker_so_no_ghost_is_paired():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    one = Feed(made.board, list(made.pools), worker="one", clock=clock)
    two = Feed(made.board, list(made.pools), worker="two", clock=clock)
    ghost, waiting, late = members(3)

    async def go():
        tabs = [LobbyClient(ghost.id), LobbyClient(ghost.id)]
        await one.add(tabs[0])
        await two.add(tabs[1])  # the same player, on another worker
        await present(made, [waiting, late])
        await made.toggle(ghost, "chuko/duel", None)
        await one.remove(tabs[0])
        assert (await made.you(ghost.id))["pool"] == "chuko/duel"  # still open on two
        await two.remove(tabs[1])  # the tab closes: no time passes
        assert (await made.you(ghost.id))["pool"] is None
        await made.toggle(waiting, "chuko/duel", None)
        assert await made.wave() == 0  # nobody left to be paired with
        await made.toggle(late, "chuko/duel", None)
        assert await made.wave() == 1

    run(go())
    assert {p["player"] for p in rooms.made[0]["players"]} == {waiting.id, late.id}


def test_a_tab_closed_after_joining_a_pool_is_out_of_it_at_once_over_the_socket(make_client):
    client = make_client()
    identified(client)
    lobby = client.app.state.lobby
    lobby.matchmaker.pair = pair_in_order
    with lobby_socket(client, "ann") as ann:
        until(ann, "you")
        ann.send_json({"type": "pool", "pool": "chuko/duel"})
        assert until(ann, "you")["pool"] == "chuko/duel"
    with lobby_socket(client, "bob") as bob:
        until(bob, "you")
        assert client.portal.call(lobby.matchmaker.you, "ann")["pool"] is None
        bob.send_json({"type": "pool", "pool": "chuko/duel"})
        assert until(bob, "you")["pool"] == "chuko/duel"
        assert client.portal.call(lobby.matchmaker.wave) == 0


def test_a_socket_closing_while_its_worker_renews_presence_is_not_counted_here_again():
    clock = Clock()
    kv = MemoryKv(clock)
    made = matchmaker(kv=kv, clock=clock)
    feed = Feed(made.board, list(made.pools), clock=clock)
    (player,) = members(1)
    tab = LobbyClient(player.id)
    reading = kv.hmget

    async def closing_meanwhile(key, fields):
        read = await reading(key, fields)
        if key == made.board.here and feed.clients:
            await feed.remove(tab)  # the tab closes between the renewal's read and write
        return read

    async def go():
        await feed.add(tab)
        await made.toggle(player, "chuko/duel", None)
        kv.hmget = closing_meanwhile
        await feed._vouch(list(feed.clients))  # the feed's periodic renewal
        return await made.board.absent([player.id])

    assert run(go()) == {player.id}


def test_a_player_gone_while_a_wave_is_worked_out_is_dropped_and_the_others_wait_on():
    clock = Clock()
    rooms = Rooms()

    def slow_pairing(pool, now):  # the ghost's worker dies as the wave is worked out
        clock.now += 30
        return pair_in_order(pool, now)

    made = matchmaker(clock=clock, rooms=rooms, pair=slow_pairing)
    stays, ghost, third = members(3)

    async def go():
        await present(made, [stays, third], 600)
        await present(made, [ghost], 10)
        for player in (stays, ghost, third):
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 0  # (stays, ghost) was the pair: not recorded
        assert (await made.you(ghost.id))["pool"] is None
        assert (await made.you(stays.id))["pool"] == "chuko/duel"
        assert await made.board.records() == []
        assert await made.wave() == 1

    run(go())
    assert {p["player"] for p in rooms.made[0]["players"]} == {stays.id, third.id}


def test_a_seek_whose_poster_left_the_lobby_cannot_be_joined():
    clock = Clock()
    made = matchmaker(clock=clock)
    feed = Feed(made.board, list(made.pools), clock=clock)
    host, taker = guests(2)

    async def go():
        socket = LobbyClient(host.id)
        await feed.add(socket)
        await present(made, [taker])
        await made.post(host, {"game": "chuko"}, HOME)
        (seek,) = (await made.listing())["seeks"]
        await feed.remove(socket)
        with pytest.raises(ChukoError, match="its player has left the lobby"):
            await made.accept(taker, seek["id"])
        return (await made.listing())["seeks"]

    assert run(go()) == []


def test_a_taker_who_left_the_lobby_is_out_of_the_seek_before_it_fills():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    feed = Feed(made.board, list(made.pools), clock=clock)
    host, ghost, second, third = guests(4)

    async def go():
        socket = LobbyClient(ghost.id)
        await feed.add(socket)
        await present(made, [host, second, third])
        await made.post(host, {"game": "chuko", "options": {"players": 3}}, HOME)
        (seek,) = (await made.listing())["seeks"]
        await made.accept(ghost, seek["id"])
        await feed.remove(socket)
        assert await made.accept(second, seek["id"]) == {"type": "joined", "seek": seek["id"]}
        assert await made.accept(third, seek["id"]) is None

    run(go())
    (room,) = rooms.made
    assert [p["player"] for p in room["players"]] == [host.id, second.id, third.id]


def test_seeks_are_capped_per_address_counting_every_guest_of_it():
    made = matchmaker(limits=LobbyLimits(seeks_per_address=10))
    crowd = guests(12)
    elsewhere = Guest("far", "Far away")

    async def go():
        for guest in crowd[:10]:
            await made.post(guest, {"game": "chuko"}, HOME)
        with pytest.raises(ChukoError, match="Your address has 10 open seeks already"):
            await made.post(crowd[10], {"game": "chuko"}, HOME)
        await made.post(elsewhere, {"game": "chuko"}, "198.51.100.7")
        first = (await made.you(crowd[0].id))["seeks"][0]
        await made.cancel(crowd[0], first)
        await made.post(crowd[10], {"game": "chuko"}, HOME)  # a place came free
        for guest in crowd[1:11]:
            await made.cancel(guest, (await made.you(guest.id))["seeks"][0])
        await made.tidy()  # an address with none open is forgotten
        return await made.board.kv.hgetall(made.board.addresses)

    assert list(run(go())) == ["198.51.100.7"]


def test_a_lobby_socket_counts_its_clients_address_for_the_seek_cap(make_client):
    client = make_client()
    identified(client)
    client.app.state.lobby.matchmaker.limits = LobbyLimits(seeks_per_address=1)
    with lobby_socket(client, "ann") as ann, lobby_socket(client, "bob") as bob:
        until(ann, "you"), until(bob, "you")
        ann.send_json({"type": "seek", "game": "takeaway"})
        assert len(until(ann, "you")["seeks"]) == 1
        bob.send_json({"type": "seek", "game": "takeaway"})  # the same address
        assert "Your address has 1 open seeks already" in until(bob, "error")["message"]


async def open_seeks(made, count: int) -> None:
    """`count` seeks open, each of a player and an address of its own, a second apart."""
    for n in range(count):
        read = {"game": "chuko", "options": {"players": 2, "pack": "standard"}, "players": 2,
                "rated": False, "range": None, "clock": None}
        seek = new_seek(read, f"poster{n}", f"Guest {n}", Standing(), 1_000_000.0 + n,
                        f"10.0.{n // 256}.{n % 256}")
        await made.board.post(seek, 3, 10, 10_000)


def test_the_first_lobby_message_is_bounded_with_a_thousand_seeks_open_and_pages_reach_all():
    made = matchmaker()
    feed = Feed(made.board, list(made.pools), clock=Clock())
    socket = LobbyClient("watcher")

    async def go():
        await open_seeks(made, 1000)
        await feed.refresh()
        await feed.add(socket)
        first = socket._queue[0]
        pages = [json.loads(first)]
        while pages[-1]["next"] is not None:
            pages.append(feed.page(pages[-1]["next"]))
        return first, pages

    first, pages = run(go())
    assert len(first.encode()) < 32_000  # a hundred seeks, not a thousand
    lobby = pages[0]
    assert lobby["type"] == "lobby" and lobby["total"] == 1000 and len(lobby["seeks"]) == 100
    assert [s["by"] for s in lobby["seeks"]][-1] == "Guest 999"  # the newest, oldest first
    listed = [s["id"] for page in pages for s in page["seeks"]]
    assert len(pages) == 10 and len(listed) == 1000 == len(set(listed))


def test_the_lobby_api_pages_its_seeks_and_refuses_a_bad_cursor(make_client):
    client = make_client()
    client.portal.call(open_seeks, client.app.state.lobby.matchmaker, 150)
    first = client.get("/api/lobby").json()
    assert first["total"] == 150 and len(first["seeks"]) == 100 and first["clocks"]
    older = client.get("/api/lobby", params={"before": first["next"]}).json()
    assert len(older["seeks"]) == 50 and older["next"] is None
    assert {s["id"] for s in older["seeks"]}.isdisjoint(s["id"] for s in first["seeks"])
    for cursor in ("nan/x", "inf/x", "12", "x/y"):
        refused = client.get("/api/lobby", params={"before": cursor})
        assert refused.status_code == 400 and "cursor" in refused.json()["error"]
