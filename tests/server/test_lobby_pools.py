"""Quick pairing: the pools come from the games' descriptors (a plug-in's too); a player
joins and leaves with one toggle, waits in one pool at most, is paired once and never with
themself; waves make rooms with the players in seats; players gone are not paired; a
pairing left half made by a dead leader is made later, and players a dead leader read but
did not record stay for the next wave. A wave pairs in a thread, off the event loop, and
records its pairings each on its own. Each player seated is published on the bus
(`PlayerPaired`), the app's hub's own, and told their room by the board that hears it."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from lobby_helpers import (
    Clock,
    Rooms,
    guests,
    matchmaker,
    members,
    pair_in_order,
    present,
)

from chuko.core.descriptor import Descriptor, Pool, Traits
from chuko.core.errors import ConfigError
from chuko.server.lobby.matchmaking import LAPSES_EVERY, pool_catalog
from chuko.server.lobby.pairing.waves import Wave
from chuko.server.shared.bus import Bus, PlayerPaired


def run(coroutine):
    return asyncio.run(coroutine)


def test_pools_come_from_every_games_descriptor_and_a_plug_in_has_its_own():
    catalog = pool_catalog()
    assert {"chuko/duel", "chuko/four", "crossroads/match", "chuchula/four",
            "takeaway/twenty"} <= set(catalog)
    assert not [pool for pool in catalog if pool.startswith("caravan/")]  # played alone
    game, pool = catalog["takeaway/twenty"]
    assert game == "takeaway" and pool.players == 2 and pool.options == {"stones": 20}
    assert catalog["chuko/four"][1].players == 4


def test_a_descriptor_refuses_a_pool_the_game_cannot_seat_or_configure():
    base = dict(id="x", title="X", summary="", traits=Traits(min_players=2, max_players=2))
    with pytest.raises(ValueError, match="seats 3"):
        Descriptor(**base, pools=(Pool("three", "Three", 3),))
    with pytest.raises(ConfigError):
        Descriptor(**base, pools=(Pool("odd", "Odd", 2, {"nothing": 1}),))
    with pytest.raises(ValueError, match="twice"):
        Descriptor(**base, pools=(Pool("a", "A", 2), Pool("a", "B", 2)))


def test_one_toggle_joins_a_second_leaves_and_another_pool_moves_the_player():
    made = matchmaker()
    (me,) = guests(1)

    async def go():
        first = await made.toggle(me, "chuko/duel", None)
        assert first["pool"] == "chuko/duel"
        moved = await made.toggle(me, "crossroads/match", 30)
        assert moved["pool"] == "crossroads/match" and moved["bots_after"] == 30
        counts, _ = await made.board.snapshot(list(made.pools))
        assert counts["chuko/duel"] == 0 and counts["crossroads/match"] == 1
        left = await made.toggle(me, "crossroads/match", None)
        assert left["pool"] is None

    run(go())


@pytest.mark.parametrize("pool, bots_after, says", [
    ("chess/blitz", None, "There is no pool 'chess/blitz'"),
    (["chuko/duel"], None, "There is no pool"),
    ("chuko/duel", 1, "after 5 to 300 seconds"),
    ("chuko/duel", "soon", "after 5 to 300 seconds"),
])
def test_a_bad_pool_or_wait_is_refused_in_one_sentence(pool, bots_after, says):
    made = matchmaker()
    with pytest.raises(ConfigError, match=says) as refused:
        run(made.toggle(guests(1)[0], pool, bots_after))
    assert str(refused.value).count(". ") == 0 and str(refused.value).endswith(".")


def test_a_wave_pairs_the_waiting_players_once_each_with_the_pools_options():
    rooms = Rooms()
    made = matchmaker(rooms=rooms)
    players = members(7)

    async def go():
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 3
        assert await made.wave() == 0  # the seventh waits alone

    run(go())
    seated = [p["player"] for room in rooms.made for p in room["players"]]
    assert len(seated) == 6 == len(set(seated))
    assert all(room["game"] == "chuko" and room["options"] == {"players": 2, "pack": "standard"}
               and room["rated"] and room["bots"] == 0
               and room["clock"] == {"kind": "move", "seconds": 10, "reserve": 30}
               for room in rooms.made)


def test_a_pool_pairing_two_players_publishes_each_with_their_room_and_seat():
    bus = Bus()
    heard: list[PlayerPaired] = []
    bus.subscribe(PlayerPaired, heard.append)
    made = matchmaker(bus=bus)
    told: list[tuple[str, dict]] = []
    players = guests(2)

    async def go():
        await made.board.kv.start(lambda player, message: told.append((player, message)))
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 1

    run(go())
    assert heard == [PlayerPaired("p000", "room1", 0), PlayerPaired("p001", "room1", 1)]
    # The board heard them too, and told each player their room.
    assert told == [("p000", {"type": "paired", "room": "room1"}),
                    ("p001", {"type": "paired", "room": "room1"})]


def test_two_tabs_of_one_player_are_one_entry_never_paired_with_itself():
    rooms = Rooms()
    made = matchmaker(rooms=rooms)
    me, other = guests(2)

    async def go():
        await present(made, [me, other])
        await made.toggle(me, "chuko/duel", None)  # the first tab joins
        await made.toggle(me, "chuko/duel", None)  # the second tab's click leaves
        await made.toggle(me, "chuko/duel", None)
        assert (await made.board.snapshot(["chuko/duel"]))[0]["chuko/duel"] == 1
        assert await made.wave() == 0
        await made.toggle(other, "chuko/duel", None)
        assert await made.wave() == 1

    run(go())
    assert [p["player"] for p in rooms.made[0]["players"]] in (["p000", "p001"],
                                                                ["p001", "p000"])


def test_a_wave_skips_a_table_that_would_seat_a_player_twice():
    rooms = Rooms()
    made = matchmaker(rooms=rooms, pair=lambda pool, now: [("p000", "p000"), ("p000", "p001"),
                                                           ("p001", "p002")])
    players = guests(3)

    async def go():
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 1

    run(go())
    assert {p["player"] for p in rooms.made[0]["players"]} == {"p000", "p001"}


def test_tables_of_four_fill_and_bots_complete_a_table_only_after_the_chosen_wait():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    players = members(6)

    async def go():
        await present(made, players, 600)
        for player in players:
            await made.toggle(player, "chuko/four", 30)
        assert await made.wave() == 1  # four seated; two wait
        clock.now += 31
        assert await made.wave() == 1  # the two, with two bots

    run(go())
    assert [(len(r["players"]), r["bots"], r["rated"]) for r in rooms.made] == [(4, 0, True),
                                                                                (2, 2, False)]


def test_players_whose_lobby_closed_past_the_grace_are_taken_out_not_paired():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    stays, goes = guests(2)

    async def go():
        await present(made, [stays], 60)
        await present(made, [goes], 10)
        await made.toggle(stays, "chuko/duel", None)
        await made.toggle(goes, "chuko/duel", None)
        clock.now += 11
        assert await made.wave() == 0
        assert (await made.you(goes.id))["pool"] is None
        assert (await made.you(stays.id))["pool"] == "chuko/duel"

    run(go())


def test_a_leader_dying_after_recording_a_pairing_loses_no_player():
    clock = Clock()
    kv_rooms = Rooms()
    dying = matchmaker(clock=clock, rooms=kv_rooms, me="dying")
    players = guests(2)
    kv_rooms.fail = True  # dies between recording the pairing and making its room

    async def go():
        await present(dying, players, 600)
        for player in players:
            await dying.toggle(player, "chuko/duel", None)
        assert await dying.wave() == 0
        assert [r["players"] for r in await dying.board.records()]  # recorded, not lost
        follower = matchmaker(kv=dying.board.kv, clock=clock, me="next")
        assert await follower.recover() == 0  # not before its maker had its time
        clock.now += dying.limits.keep_making + 1
        assert await follower.recover() == 1
        assert await follower.board.records() == []
        return follower

    follower = run(go())
    assert {p["player"] for p in follower.open_room.made[0]["players"]} == {"p000", "p001"}


def test_a_leader_dying_between_reading_and_recording_leaves_the_players_waiting():
    made = matchmaker()
    players = guests(2)

    async def go():
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        read = await made.board.waiting("chuko/duel")  # ...and the leader dies here
        assert len(read) == 2
        assert await made.wave() == 1  # the next wave pairs them

    run(go())


def pair_two_guests_in_one_wave(client) -> None:
    """Two guests in the app's take-away pool, paired by its lobby in one wave."""
    lobby = client.app.state.lobby
    lobby.matchmaker.pair = lambda pool, now: [tuple(sorted(w.player for w in pool))]
    players = guests(2)

    async def go():
        await lobby.board.touch([p.id for p in players], lobby.board.clock() + 60, "alone")
        for player in players:
            await lobby.matchmaker.toggle(player, "takeaway/twenty", None)
        assert await lobby.matchmaker.wave() == 1

    client.portal.call(go)


def test_a_wave_makes_a_real_room_with_each_player_in_a_seat(make_client):
    client = make_client()
    pair_two_guests_in_one_wave(client)
    board = client.app.state.lobby.board
    first = client.portal.call(board.paired_room, "p000")
    second = client.portal.call(board.paired_room, "p001")
    assert first == second is not None
    state = client.get(f"/api/rooms/{first}").json()
    assert state["game"] == "takeaway" and state["status"] == "playing"
    room = client.app.state.hub.rooms[first]
    assert sorted(seat.player for seat in room.seats) == ["p000", "p001"]
    assert sorted(seat.name for seat in room.seats) == ["Guest 0", "Guest 1"]
    assert room.options["stones"] == 20


def test_the_apps_lobby_publishes_its_pairings_on_the_hubs_bus(make_client):
    client = make_client()
    hub = client.app.state.hub
    heard: list[PlayerPaired] = []
    hub.bus.subscribe(PlayerPaired, heard.append)
    pair_two_guests_in_one_wave(client)
    assert len(heard) == 2
    room = hub.rooms[heard[0].room_id]
    assert {(e.player, e.seat) for e in heard} == {
        (seat.player, seat.seat) for seat in room.seats}


def test_a_wave_pairs_off_the_event_loop_and_logs_a_wave_that_is_not_the_best(caplog):
    threads = []

    def pair(pool, now):
        threads.append(threading.current_thread())
        return Wave(pair_in_order(pool, now), exact=False, fallen_back=1)

    made = matchmaker(pair=pair)
    players = guests(4)

    async def go():
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        assert await made.wave() == 2

    with caplog.at_level(logging.WARNING, logger="chuko.server"):
        run(go())
    assert threads and threads[0] is not threading.main_thread()
    assert "not the best pairing" in caplog.text


def test_a_waves_pairings_are_recorded_each_on_its_own_and_one_changed_meanwhile_is_not():
    made = matchmaker()
    players = guests(6)

    async def go():
        await present(made, players)
        for player in players:
            await made.toggle(player, "chuko/duel", None)
        read = await made.board.waiting("chuko/duel")
        await made.toggle(players[2], "chuko/duel", None)  # p002 leaves after the read
        records = [{"id": f"r{n}", "players": [{"player": f"p{2 * n:03d}"},
                                               {"player": f"p{2 * n + 1:03d}"}]}
                   for n in range(3)]
        assert await made.board.claim("chuko/duel", read, records) == [True, False, True]
        assert sorted(r["id"] for r in await made.board.records()) == ["r0", "r2"]
        assert list(await made.board.waiting("chuko/duel")) == ["p003"]

    run(go())


DAILY = {"kind": "days", "days": 1}


def test_every_pool_offers_quick_clocks_and_days_a_move():
    for game_id, pool in pool_catalog().values():
        kinds = [clock["kind"] for clock in pool.clocks]
        assert "move" in kinds and "days" in kinds, game_id


def test_players_waiting_with_days_a_move_stay_while_away_and_are_paired():
    clock = Clock()
    rooms = Rooms()
    made = matchmaker(clock=clock, rooms=rooms)
    slow, slower, quick = guests(3)

    async def go():
        await present(made, [slow, slower, quick], 10)
        await made.toggle(slow, "chuko/duel", None, DAILY)
        await made.toggle(quick, "chuko/duel", None)
        # Their last sockets close: the quick wait ends, the slow one stays.
        assert await made.board.closed(quick.id, made.me) is True
        assert await made.board.closed(slow.id, made.me) is False
        clock.now += 3600  # an hour later, nobody at the lobby
        await made.toggle(slower, "chuko/duel", None, DAILY)
        assert (await made.you(slow.id))["clock"] == DAILY
        assert (await made.you(quick.id))["pool"] is None
        return await made.wave()

    assert run(go()) == 1
    (record,) = rooms.made
    assert sorted(p["player"] for p in record["players"]) == [slow.id, slower.id]
    assert record["clock"] == DAILY


def test_a_wait_with_days_a_move_lapses_after_the_lobbys_slow_wait():
    clock = Clock()
    made = matchmaker(clock=clock)
    (slow,) = guests(1)

    async def go():
        await present(made, [slow], 10)
        await made.toggle(slow, "chuko/duel", None, DAILY)
        clock.now += made.limits.slow_wait - LAPSES_EVERY
        await made.tidy()
        still = (await made.you(slow.id))["pool"]
        clock.now += LAPSES_EVERY  # the next look for lapsed waits
        await made.tidy()
        return still, (await made.you(slow.id))["pool"]

    assert run(go()) == ("chuko/duel", None)
