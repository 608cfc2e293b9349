"""Open seeks: posted for any game and options the descriptor allows, joined and cancelled;
bad input refused in one sentence; a cap per player and in all; a seek of 3+ seats makes its
room when its last seat is taken, with everyone out of their pools. And the feed: however
fast seeks come and go, a socket is sent at most two updates a second."""

from __future__ import annotations

import asyncio
import json

import pytest
from lobby_helpers import HOME, QUICK, Clock, Rooms, guests, matchmaker, members, present

from chuko.core.errors import ChukoError
from chuko.server.lobby.feed import Feed, LobbyClient
from chuko.server.lobby.seeks import LobbyLimits


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_seek_posted_is_listed_without_its_players_id_and_joined_makes_the_room():
    rooms = Rooms()
    made = matchmaker(rooms=rooms)
    host, guest = members(2)

    async def go():
        await present(made, [host, guest])
        you = await made.post(host, {"game": "crossroads", "options": {"rounds": 2},
                                     "rated": True, "range": [1400, 1600], "clock": QUICK},
                              HOME)
        (seek,) = (await made.listing())["seeks"]
        assert you["seeks"] == [seek["id"]]
        assert seek["by"] == "Member 0" and seek["rated"] and seek["seats_left"] == 1
        assert seek["options"]["rounds"] == 2 and "p000" not in str(seek)
        assert await made.accept(guest, seek["id"]) is None
        assert (await made.listing())["seeks"] == []
        assert (await made.you(host.id))["seeks"] == []

    run(go())
    (room,) = rooms.made
    assert room["game"] == "crossroads" and room["rated"]
    assert [p["player"] for p in room["players"]] == ["p000", "p001"]


def test_a_seek_of_four_seats_waits_for_its_last_and_takes_everyone_out_of_pools():
    rooms = Rooms()
    made = matchmaker(rooms=rooms)
    players = guests(4)

    async def go():
        await present(made, players)
        await made.post(players[0], {"game": "chuko", "options": {"players": 4}}, HOME)
        (seek,) = (await made.listing())["seeks"]
        await made.toggle(players[1], "chuko/duel", None)
        assert await made.accept(players[1], seek["id"]) == {"type": "joined",
                                                             "seek": seek["id"]}
        assert await made.accept(players[2], seek["id"]) is not None
        await made.cancel(players[2], seek["id"])  # a taker may step back
        assert (await made.listing())["seeks"][0]["seats_left"] == 2
        await made.accept(players[2], seek["id"])
        assert await made.accept(players[3], seek["id"]) is None
        assert (await made.you(players[1].id))["pool"] is None

    run(go())
    assert len(rooms.made[0]["players"]) == 4


def test_a_player_paired_leaves_the_seeks_they_had_joined():
    made = matchmaker()
    players = guests(4)

    async def go():
        await present(made, players)
        await made.post(players[0], {"game": "chuko", "options": {"players": 4}}, HOME)
        (seek,) = (await made.listing())["seeks"]
        await made.accept(players[1], seek["id"])
        for player in players[1:3]:
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 1
        return (await made.listing())["seeks"]

    (seek,) = run(go())
    assert seek["seats_left"] == 3


@pytest.mark.parametrize("message, says", [
    ({}, "Say which game the seek is for."),
    ({"game": "chess"}, "chess"),
    ({"game": "caravan"}, "Caravan is played alone"),
    ({"game": "chuko", "options": {"players": 99}}, "cannot be dealt to 99 players"),
    ({"game": "chuko", "options": {"colour": "red"}}, "no option 'colour'"),
    ({"game": "chuko", "rated": "yes"}, "true or false"),
    ({"game": "chuko", "range": [1600, 1400]}, "not 1600 to 1400"),
    ({"game": "chuko", "range": "strong"}, "two whole numbers"),
    ({"game": "chuko", "clock": {"kind": "move", "seconds": 7, "reserve": 0}},
     "The clocks of a seek are 10 s a move \\+ 30 s; "),
    ({"game": "chuko", "clock": {"kind": "move", "seconds": float("nan")}}, "whole number"),
    ({"game": "chuko", "clock": {"kind": "days", "days": 10**9}}, "whole number from 1 to 14"),
])
def test_a_bad_seek_is_refused_in_one_sentence(message, says):
    made = matchmaker()
    with pytest.raises(ChukoError, match=says) as refused:
        run(made.post(guests(1)[0], message, HOME))
    assert str(refused.value).endswith(".")


def test_joining_ones_own_a_gone_or_an_out_of_range_seek_is_refused():
    made = matchmaker()
    host, low, high = guests(3)  # rated 1500, 1501 and 1502 by the helpers

    async def go():
        await present(made, [host, low, high])
        await made.post(host, {"game": "chuko", "range": [1500, 1501]}, HOME)
        (seek,) = (await made.listing())["seeks"]
        for who, says in ((host, "That seek is yours"), (high, "rated 1500 to 1501; yours "
                                                              "is 1502"),
                          (low, None), (low, "That seek is gone")):
            if says is None:
                await made.accept(who, seek["id"])
                continue
            with pytest.raises(ChukoError, match=says):
                await made.accept(who, seek["id"])
        with pytest.raises(ChukoError, match="Say which seek"):
            await made.accept(low, 12)

    run(go())


def test_only_the_poster_cancels_a_seek_and_seeks_are_capped_per_player_and_in_all():
    made = matchmaker(limits=LobbyLimits(seeks_per_player=2, seeks_in_all=3))
    a, b, c = guests(3)

    async def go():
        await made.post(a, {"game": "chuko"}, HOME)
        seek = (await made.listing())["seeks"][0]["id"]
        with pytest.raises(ChukoError, match="Only the player who posted"):
            await made.cancel(b, seek)
        await made.post(a, {"game": "chuko"}, HOME)
        with pytest.raises(ChukoError, match="You have 2 open seeks already"):
            await made.post(a, {"game": "chuko"}, HOME)
        await made.post(b, {"game": "chuko"}, HOME)
        with pytest.raises(ChukoError, match="as many seeks as it can"):
            await made.post(c, {"game": "chuko"}, HOME)
        await made.cancel(a, seek)
        await made.post(c, {"game": "chuko"}, HOME)

    run(go())


def test_the_seeks_of_a_player_gone_are_taken_down():
    clock = Clock()
    made = matchmaker(clock=clock)
    stays, goes = guests(2)

    async def go():
        await present(made, [stays], 60)
        await present(made, [goes], 5)
        await made.post(stays, {"game": "chuko"}, HOME)
        await made.post(goes, {"game": "chuko"}, HOME)
        clock.now += 6 + made.limits.grace  # their presence lapsed, and the grace after it
        await made.tidy()
        return (await made.listing())["seeks"]

    assert [seek["by"] for seek in run(go())] == ["Guest 0"]


def test_a_socket_gets_at_most_two_updates_a_second_whatever_the_churn():
    clock = Clock(0.0)
    made = matchmaker()
    feed = Feed(made.board, list(made.pools), every=0.5, clock=clock)
    posters = guests(50)
    sockets = [LobbyClient(f"watcher{i}") for i in range(20)]

    async def go():
        for client in sockets:
            await feed.add(client)
        sent = 0
        # 10 simulated seconds, a seek posted or cancelled every 10 ms, the feed asked each time.
        for step in range(1000):
            clock.now = step / 100
            player = posters[step % 50]
            mine = await made.board.mine_of(player.id)
            if mine:
                await made.cancel(player, mine[0])
            else:
                await made.post(player, {"game": "chuko"}, f"192.0.2.{step % 50}")
            sent += await feed.refresh()
        return sent

    sent = run(go())
    assert 15 <= sent <= 20  # at most one update each half second of 10 s
    assert all(len(client._queue) == 1 + sent for client in sockets)  # the lists, then those
    # The updates, applied in order to the first list, give the seeks as they are.
    seeks = {}
    for text in sockets[0]._queue:
        message = json.loads(text)
        for seek in message["seeks"]:
            seeks[seek["id"]] = seek
        for gone in message.get("gone", ()):
            seeks.pop(gone)
    assert sorted(seeks) == sorted(feed.seeks)


def test_a_seek_with_days_a_move_stays_up_while_its_poster_is_away_until_it_lapses():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    poster, quick, taker = guests(3)
    daily = {"kind": "days", "days": 1}

    async def go():
        await present(made, [poster, quick], 5)
        await made.post(poster, {"game": "chuko", "clock": daily}, HOME)
        await made.post(quick, {"game": "chuko"}, HOME)
        clock.now += 6 + made.limits.grace  # both gone past the grace
        await made.tidy()
        open_now = [seek["by"] for seek in (await made.listing())["seeks"]]
        await present(made, [taker], 60)
        (seek,) = (await made.listing())["seeks"]
        await made.accept(taker, seek["id"])  # its poster away: joined all the same
        return open_now

    assert run(go()) == ["Guest 0"]
    (record,) = rooms.made
    assert record["clock"] == daily
    assert sorted(p["player"] for p in record["players"]) == [poster.id, taker.id]

    async def lapse():
        await made.post(poster, {"game": "chuko", "clock": daily}, HOME)
        clock.now += made.limits.slow_wait
        await made.tidy()
        return (await made.listing())["seeks"]

    assert run(lapse()) == []
