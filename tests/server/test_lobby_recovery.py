"""A pairing left half made by a worker that died: taken up at once once that worker's
heartbeat has lapsed (not only after `keep_making`), and made in the room its maker may have
made already, so nobody sits in two rooms of one pairing."""

from __future__ import annotations

import asyncio

from lobby_helpers import Clock, Rooms, guests, matchmaker, present

from chuko.server.lobby.wiring import room_opener


def test_a_pairing_whose_maker_is_gone_is_made_at_once_and_one_whose_maker_runs_waits():
    clock, rooms = Clock(), Rooms()
    dying = matchmaker(clock=clock, rooms=rooms, me="dying")
    players = guests(2)
    rooms.fail = True  # dies between recording the pairing and making its room

    async def alive(worker: str) -> bool:
        return worker in running

    running = {"dying", "next"}

    async def go() -> int:
        await present(dying, players, 600)
        for player in players:
            await dying.toggle(player, "chuko/duel", None)
        assert await dying.wave() == 0
        rooms.fail = False
        follower = matchmaker(kv=dying.board.kv, clock=clock, rooms=rooms, me="next",
                              alive=alive)
        assert await follower.recover() == 0  # its maker runs: it may be making it still
        running.discard("dying")  # its heartbeat lapsed
        made = await follower.recover()
        assert await follower.board.records() == []
        return made

    assert asyncio.run(go()) == 1
    assert {p["player"] for p in rooms.made[0]["players"]} == {"p000", "p001"}


def test_a_pairing_made_twice_is_one_room(make_client):
    client = make_client()
    hub = client.app.state.hub
    open_room = room_opener(hub)
    record = {"id": "Zm9yLXRlc3Qx", "maker": "dying", "at": 1_000_000.0, "game": "chuko",
              "options": {}, "rated": False, "clock": None, "bots": 0,
              "players": [{"player": None, "name": "Ann"}, {"player": None, "name": "Bo"}]}

    async def twice() -> tuple[str, str]:
        first, _ = await open_room(record)
        hub.rooms.pop(first)  # as on the worker that made it, and died
        second, _ = await open_room(record)
        return first, second

    first, second = client.portal.call(twice)
    assert first == second
    assert hub.store.load(first) is not None
    names = [seat["name"] for seat in client.get(f"/api/rooms/{first}").json()["seats"]]
    assert sorted(names) == ["Ann", "Bo"]
