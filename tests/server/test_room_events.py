"""What the rooms tell the bus, once it is committed: each stored move (`MoveStored`), a clock
run out (`ClockFlagged`), and what the forfeit that follows did: a seat handed to a bot at a
table of three (`SeatLeft`), or the end of a heads-up game (`GameOver`, its places as the
room ranks them). The clock is the hub's fake one: nothing sleeps."""

from __future__ import annotations

from random import Random

from test_clocks import Clock, hub_on, move, open_table, opening, run, seated

from chuko.server.shared.bus import ClockFlagged, GameOver, MoveStored, SeatLeft
from chuko.server.store.database import Store

Heard = MoveStored | GameOver | SeatLeft | ClockFlagged


def listening(hub) -> list[Heard]:
    heard: list[Heard] = []
    for kind in (MoveStored, GameOver, SeatLeft, ClockFlagged):
        hub.bus.subscribe(kind, heard.append)
    return heard


def test_each_stored_move_is_told_with_its_version_and_seat(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, first="0")
        seated(hub, room)
        heard = listening(hub)
        await move(hub, room, 0, Random(1))
        await move(hub, room, 1, Random(2))
        assert heard == [MoveStored(room.id, 1, 0), MoveStored(room.id, 2, 1)]

    run(f"sqlite:///{tmp_path}/e.db", scenario)


def test_a_clock_run_out_heads_up_is_told_then_the_game_over(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, first="0")
        seated(hub, room)
        await opening(hub, room, Random(5))
        heard = listening(hub)
        clock.now += 90
        await hub.check_clocks()
        assert room.status == "over"
        assert heard == [ClockFlagged(room.id, 0),
                         GameOver(room.id, "crossroads", False, (1, 0),
                                  {"kind": "timeout", "seat": 0})]

    run(f"sqlite:///{tmp_path}/e.db", scenario)


def test_a_seat_handed_to_a_bot_at_a_table_of_three_is_told_as_left(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuko", 3, None, players=3)
        seated(hub, room)
        await opening(hub, room, Random(1))
        heard = listening(hub)
        await hub.resign(room, 1)
        assert room.seats[1].kind == "bot" and room.status == "playing"
        assert heard == [SeatLeft(room.id, 1, "resigned")]

    run(f"sqlite:///{tmp_path}/e.db", scenario)
