"""Clocks, resigning and leaving: the server keeps each seat's clock (worked out from what the
database stores, so a restart changes nothing), a clock run out or a resignation ends a
heads-up game and hands a seat of a bigger table to the easy bot, and a player gone for the
grace period lets the others claim the game or go on with a bot. Between people, each of
these before the game's second move aborts it instead (test_aborts.py), so the games here
open with two moves. Time is the hub's clock, a fake one here: nothing sleeps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from random import Random

import pytest

from chuko.core.errors import ChukoError, ConfigError
from chuko.server.rooms.clocks import read_control
from chuko.server.rooms.endings import forfeit_sentence, ranks
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.outbox import Client
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.store import database as db
from chuko.server.store.database import Store
from chuko.server.web.app import CLUB_TERMS

PER_MOVE = {"kind": "move", "seconds": 30, "reserve": 60}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def run(url: str, scenario: Callable[[Store, Clock], Awaitable[None]]) -> None:
    async def go() -> None:
        store = Store(url)
        store.start()
        try:
            await scenario(store, Clock())
        finally:
            store.close()

    asyncio.run(go())


def hub_on(store: Store, clock: Clock, seed: int = 1, **options) -> Hub:
    return Hub(store, CLUB_TERMS, bot_delay=0, round_pause=0, rng=Random(seed), clock=clock,
               **options)


async def open_table(hub: Hub, game: str, people: int, clock: dict | None = PER_MOVE,
                     **options) -> tuple[Room, list[str]]:
    """A room of `people` people (the creator and friends who join); each seat's token."""
    made = await hub.create(game, options, [{"kind": "me"}] + [{"kind": "friend"}] * (people - 1),
                            clock)
    tokens = [made["token"]]
    for invite in made["invites"]:
        joined = await hub.join(made["room"], invite["url"].rsplit("/", 1)[1])
        tokens.append(joined["token"])
    return hub.rooms[made["room"]], tokens


def seated(hub: Hub, room: Room) -> list[Client]:
    """A socket on every person's seat, so nobody counts as gone."""
    clients = [Client(room, seat.seat) for seat in room.seats if seat.kind == "human"]
    for client in clients:
        hub.connect(room, client)
    return clients


async def move(hub: Hub, room: Room, seat: int, rng: Random) -> None:
    await hub.play(room, seat, str(room.state.random_move(seat, rng)))


async def opening(hub: Hub, room: Room, rng: Random, moves: int = 2) -> None:
    """The game's first `moves` moves, each by the first seat to move."""
    for _ in range(moves):
        await move(hub, room, room.state.to_move[0], rng)


def clock_of(room: Room, seat: int | None = None) -> list[dict]:
    return room.snapshot(seat)["clock"]["seats"]


async def settle(hub: Hub, room: Room) -> None:
    """Let the room's bots play until a person is to move or the game is over."""
    for _ in range(4000):  # the bots think in threads, and the store writes in one
        if not room.bots_to_move() and not hub.bots.thinking(room):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("The bots did not finish.")


def test_a_per_move_clock_counts_each_move_and_eats_the_reserve(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, first="0")
        seated(hub, room)
        assert room.started == clock.now
        # A first move has the first-move limit's 30 s at most, none of it reserve.
        assert clock_of(room) == [{"left": 30.0, "reserve": 0.0, "running": True},
                                  {"left": 30.0, "reserve": 0.0, "running": False}]
        for seat in (0, 1):
            clock.now += 29
            await move(hub, room, seat, Random(seat))
        assert clock_of(room) == [{"left": 90.0, "reserve": 60.0, "running": True},
                                  {"left": 90.0, "reserve": 60.0, "running": False}]
        clock.now += 40  # ten seconds over the move's thirty: off the reserve
        assert clock_of(room)[0] == {"left": 50.0, "reserve": 50.0, "running": True}
        await move(hub, room, 0, Random(1))
        assert clock_of(room) == [{"left": 80.0, "reserve": 50.0, "running": False},
                                  {"left": 90.0, "reserve": 60.0, "running": True}]
        clock.now += 12  # within the move's time: the reserve stays
        await move(hub, room, 1, Random(2))
        state = room.snapshot(None)
        assert state["clock"]["seats"][1] == {"left": 90.0, "reserve": 60.0, "running": False}
        assert state["clock"]["control"] == PER_MOVE and state["clock"]["now"] == clock.now
        # The reserve does not refill: the next move has 30 s and the 50 s left of it.
        assert state["clock"]["seats"][0]["left"] == 80.0

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_correspondence_clock_gives_days_a_move(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, {"kind": "days", "days": 2},
                                   first="1")
        clock.now += 3600
        assert clock_of(room) == [{"left": 172_800.0, "reserve": 0.0, "running": False},
                                  {"left": 169_200.0, "reserve": 0.0, "running": True}]
        # Correspondence has no grace for absent players: the clock is the limit.
        clock.now += 86_400
        await hub.check_clocks()
        assert room.status == "playing" and room.claimable(0) == []

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_running_out_of_time_heads_up_ends_the_game_and_the_player_loses(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, tokens = await open_table(hub, "crossroads", 2, first="0", )
        room.seats[1].name = "Bob"
        seated(hub, room)
        await opening(hub, room, Random(5))
        clock.now += 89.9
        await hub.check_clocks()
        assert room.status == "playing"
        clock.now += 0.1
        with pytest.raises(ConfigError, match="^Your time has run out.$"):
            await move(hub, room, 0, Random(1))  # late: refused, even before the timer
        assert await hub.check_clocks() == 1
        assert room.status == "over" and room.ended == clock.now
        assert room.result == {"kind": "timeout", "seat": 0}
        assert room.snapshot(0)["result"] == "You ran out of time: Bob wins."
        assert room.snapshot(1)["result"] == "Host ran out of time: you win."
        assert room.snapshot(None)["result"] == "Host ran out of time: Bob wins."
        assert [s["running"] for s in clock_of(room)] == [False, False]
        assert room.places() == [1, 0]
        row = store.load(room.id)
        assert (row.status, row.result, row.ended) == ("over", room.result, clock.now)
        with pytest.raises(ConfigError, match="^The game is over.$"):
            await hub.play(room, 1, "anything")

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_running_out_of_time_at_a_table_of_three_hands_the_seat_to_the_easy_bot(tmp_path):
    """Chuchula's seats place at once, each on its own clock: the one that does not is
    timed out, the easy bot plays it from then, and the game goes on to its end."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuchula", 3, players=3, length=2)
        seated(hub, room)
        assert [s["running"] for s in clock_of(room)] == [True, True, True]
        clock.now += 20
        for seat in (0, 1, 2):  # the first round, every seat's first move in time
            await move(hub, room, seat, Random(seat))
        clock.now += 20
        await move(hub, room, 0, Random(1))
        await move(hub, room, 2, Random(2))
        clock.now += 70  # seat 1 has used its 30 s and its 60 s of reserve
        await hub.check_clocks()
        one = room.seats[1]
        assert (one.kind, one.level, one.gone, room.status) == ("bot", "easy", "timeout",
                                                                 "playing")
        assert room.snapshot(1)["seats"][1]["gone"] == "timeout"
        assert "legal" not in room.snapshot(1)  # Chuchula lists no moves
        with pytest.raises(Forbidden, match="^A bot plays this seat now.$"):
            await move(hub, room, 1, Random(3))
        stored = store.load(room.id)
        assert (stored.seats[1].kind, stored.seats[1].gone) == ("bot", "timeout")
        assert stored.result == {"gone": [1]}
        rng = Random(4)
        for _ in range(500):  # the others play on, the bot with them, to the end
            await settle(hub, room)
            if room.status == "over":
                break
            for seat in room.state.to_move:
                if room.seats[seat].kind == "human":
                    await move(hub, room, seat, rng)
        assert room.status == "over" and room.ended is not None
        assert room.places()[1] == 2  # the timed-out player finishes last

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_resigning_heads_up_ends_the_game(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, None, first="0")
        room.seats[1].name = "Bob"
        await opening(hub, room, Random(1))
        await hub.resign(room, 1)
        assert room.status == "over" and room.result == {"kind": "resigned", "seat": 1}
        assert room.snapshot(0)["result"] == "Bob resigned: you win."
        assert room.snapshot(1)["result"] == "You resigned: Host wins."
        assert room.places() == [0, 1]
        assert store.load(room.id).status == "over"
        with pytest.raises(ConfigError, match="^Only a game in play can be given up or "
                                              "claimed.$"):
            await hub.resign(room, 0)

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_resigning_at_a_table_of_three_passes_the_seat_to_the_bot(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuko", 3, None, players=3)
        seated(hub, room)
        await opening(hub, room, Random(1))
        await hub.resign(room, 2)
        await hub.resign(room, 0)
        assert [s.gone for s in room.seats] == ["resigned", None, "resigned"]
        assert room.status == "playing" and room.result == {"gone": [2, 0]}
        assert room.snapshot(2)["legal"] == [] and room.snapshot(2)["seats"][2]["kind"] == "bot"
        assert room.snapshot(2)["seats"][2]["name"] == "Friend 2"  # its player's still
        with pytest.raises(ConfigError, match="^A bot plays this seat now.$"):
            await hub.resign(room, 2)
        # Gone seats finish last, the earliest gone lowest.
        assert ranks(3, [5, 1, 9], room.result) == [1, 0, 2]

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_player_gone_for_the_grace_period_lets_the_opponent_claim_the_game(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "crossroads", 2, None, first="0")
        room.seats[0].name = "Ann"
        host, friend = seated(hub, room)
        await opening(hub, room, Random(1))
        hub.schedule(room)
        hub.disconnect(room, friend)  # every socket of seat 1 gone
        clock.now += 59
        await hub.check_clocks()
        assert room.snapshot(0)["claimable"] == []
        with pytest.raises(ConfigError, match="^There is nothing to claim: your opponent "
                                              "has not been away for 60 seconds.$"):
            await hub.claim(room, 0)
        clock.now += 1
        while host._queue:
            host._queue.popleft()
        await hub.check_clocks()
        told = json.loads(await host.next_message())  # a state that says so, unasked
        assert told["claimable"] == [1]
        assert room.snapshot(1)["claimable"] == [] and room.snapshot(None)["claimable"] == []
        with pytest.raises(Forbidden, match="^Spectators cannot claim a game.$"):
            await hub.claim(room, None)
        await hub.claim(room, 0)
        assert room.status == "over" and room.result == {"kind": "left", "seat": 1}
        assert room.snapshot(0)["result"] == "Friend left the game: you win."
        assert room.snapshot(1)["result"] == "You left the game: Ann wins."

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_coming_back_within_the_grace_period_keeps_the_seat(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuko", 3, None, players=3)
        clients = seated(hub, room)
        hub.disconnect(room, clients[2])
        clock.now += 30
        hub.connect(room, Client(room, 2))
        clock.now += 60
        await hub.check_clocks()
        assert [s.gone for s in room.seats] == [None, None, None]

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_player_gone_from_a_table_of_three_is_handed_to_the_bot(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock, grace=10)
        room, _ = await open_table(hub, "chuko", 3, None, players=3)
        clients = seated(hub, room)
        await opening(hub, room, Random(1))
        hub.disconnect(room, clients[1])
        clock.now += 10
        await hub.check_clocks()
        assert [s.gone for s in room.seats] == [None, "left", None]
        assert room.seats[1].kind == "bot" and room.status == "playing"
        assert store.load(room.id).seats[1].gone == "left"

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_clocked_game_survives_a_restart_with_its_clocks_as_they_were(tmp_path):
    """Nothing of the clocks is kept but what the database says: a new hub on the same
    database (a restart, `kill -9` included) works them out from when play began and each
    move's stored time, Chuchula's seats placing at once too."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuchula", 3, players=3, length=3)
        rng = Random(5)
        # Seats 0 and 1 place, then 2 (each first move within 30 s), then 0 and 1 again,
        # twenty seconds over their move's thirty.
        for wait in (10, 15, 50):
            clock.now += wait
            for seat in room.state.to_move[:2]:
                await move(hub, room, seat, rng)
        clock.now += 3
        before = room.snapshot(0)["clock"]
        assert before["seats"] == [{"left": 70.0, "reserve": 40.0, "running": False},
                                   {"left": 70.0, "reserve": 40.0, "running": False},
                                   {"left": 37.0, "reserve": 37.0, "running": True}]
        await hub.close()

        again = hub_on(store, clock, seed=9)
        rebuilt = await again.room(room.id)
        assert rebuilt is not room and rebuilt.snapshot(0)["clock"] == before
        assert rebuilt.started == room.started
        # And they run out after the restart as they would have.
        deadline, first = rebuilt.clocks.earliest()
        assert (deadline, first) == room.clocks.earliest()
        clock.now = deadline
        await again.check_clocks()
        assert rebuilt.seats[first].gone == "timeout"

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_room_waiting_for_players_starts_its_clocks_when_the_last_seat_is_taken(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        made = await hub.create("crossroads", {"first": "0"}, [{"kind": "me"},
                                                               {"kind": "friend"}], PER_MOVE)
        room = hub.rooms[made["room"]]
        assert room.started is None and clock_of(room)[0]["running"] is False
        clock.now += 500
        await hub.join(room.id, made["invites"][0]["url"].rsplit("/", 1)[1])
        assert room.started == clock.now and clock_of(room)[0]["left"] == 30
        assert store.load(room.id).started == clock.now

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_bots_seats_have_no_clock_and_a_normal_end_is_stored_when_it_came(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        made = await hub.create("crossroads", {"first": "1"}, [
            {"kind": "me"}, {"kind": "bot", "level": "random"}], PER_MOVE)
        room = hub.rooms[made["room"]]
        seated(hub, room)
        rng = Random(3)
        while room.status != "over":
            await settle(hub, room)
            assert clock_of(room)[1]["running"] is False
            if room.status == "playing":
                await move(hub, room, 0, rng)
        assert room.ended == clock.now and room.result is None
        outcome = room.state.outcome
        assert room.places() == ranks(2, outcome.scores, None)
        assert store.load(room.id).ended == clock.now

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_places_follow_scores_with_ties_shared():
    assert ranks(3, [3, 7, 3], None) == [1, 0, 1]
    assert ranks(2, [1, 2], {"kind": "timeout", "seat": 1}) == [0, 1]
    assert ranks(4, [9, 1, 5, 5], {"gone": [0]}) == [3, 2, 0, 0]


def test_a_forfeit_sentence_for_a_seat_alone():
    assert forfeit_sentence({"kind": "timeout", "seat": 0}, ["Host"], 0) == \
        "You ran out of time."


@pytest.mark.parametrize(("clock", "sentence"), [
    ({"kind": "move", "seconds": 4}, "A clock's seconds a move must be a whole number from 5 "
                                     "to 600, not 4."),
    ({"kind": "move", "seconds": 30, "reserve": 4000},
     "A clock's reserve in seconds must be a whole number from 0 to 3600, not 4000."),
    ({"kind": "move", "seconds": 30.5}, "A clock's seconds a move must be a whole number "
                                        "from 5 to 600, not 30.5."),
    ({"kind": "days", "days": 15}, "A clock's days a move must be a whole number from 1 to "
                                   "14, not 15."),
    ({"kind": "days", "days": 2, "extra": 1}, 'A correspondence clock takes only "days".'),
    ({"kind": "blitz"}, 'A clock is null (none), {"kind": "move", "seconds": …, "reserve": …} '
                        'or {"kind": "days", "days": …}, not {\'kind\': \'blitz\'}.'),
    ("fast", 'A clock is null (none), {"kind": "move", "seconds": …, "reserve": …} or '
             '{"kind": "days", "days": …}, not \'fast\'.'),
])
def test_a_wrong_clock_is_refused_with_one_sentence(clock, sentence):
    with pytest.raises(ConfigError) as refused:
        read_control(clock)
    assert str(refused.value) == sentence


def test_spectators_and_bots_cannot_resign(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, _ = await open_table(hub, "chuko", 3, None, players=3)
        await opening(hub, room, Random(1))
        with pytest.raises(Forbidden, match="^Spectators cannot resign.$"):
            await hub.resign(room, None)
        await hub.resign(room, 1)
        with pytest.raises(ChukoError, match="^A bot plays this seat now.$"):
            await hub.resign(room, 1)
        assert db.secret_hash  # the store is untouched by the refusals
        assert store.load(room.id).result == {"gone": [1]}

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_game_against_bots_waits_for_its_player(tmp_path):
    """Leaving counts only while another person plays: a player of bots comes back to find
    the game as it was."""

    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock, grace=10)
        made = await hub.create("chuko", {"players": 3}, [
            {"kind": "me"}, {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"}])
        room = hub.rooms[made["room"]]
        (player,) = seated(hub, room)
        hub.disconnect(room, player)
        clock.now += 3600
        await hub.check_clocks()
        assert room.seats[0].kind == "human" and room.seats[0].gone is None

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_forfeit_racing_a_move_stored_by_another_worker_looks_again(tmp_path):
    """Two hubs on one database, as two workers: a move stored by one makes the other's
    forfeit a Conflict; it catches up and decides again on the game as it now is."""

    async def scenario(store: Store, clock: Clock) -> None:
        one = hub_on(store, clock)
        room, _ = await open_table(one, "crossroads", 2, first="0")
        other = hub_on(store, clock, seed=2)
        there = await other.room(room.id)
        clock.now += 29  # seat 0 moves, just in time, on the other worker
        await move(other, there, 0, Random(1))
        clock.now += 1  # this worker's memory says seat 0 has run out: the store disagrees
        one.schedule(room)
        await one.check_clocks()
        assert room.status == "playing" and room.version == 1
        assert store.load(room.id).result is None
        # A resignation races the same way and is stored at the version it now is.
        await move(other, there, 1, Random(2))
        await one.resign(room, 0)
        row = store.load(room.id)
        assert (row.version, row.status, row.result) == (2, "over",
                                                          {"kind": "resigned", "seat": 0})
        assert room.version == 2 and room.status == "over"

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_move_on_a_worker_that_missed_a_resignation_is_refused_and_the_end_kept(tmp_path):
    """Two hubs on one database, as two workers: the other resigns seat 1 (an abort, before
    any move; the version stays), and this one, never told, is sent seat 0's move: refused
    as a game over, this worker's room takes the stored end, and the stored game stays
    over."""

    async def scenario(store: Store, clock: Clock) -> None:
        one = hub_on(store, clock)
        room, _ = await open_table(one, "crossroads", 2, first="0")
        other = hub_on(store, clock, seed=2)
        await other.resign(await other.room(room.id), 1)
        with pytest.raises(ConfigError, match="The game is over."):
            await move(one, room, 0, Random(1))
        row = store.load(room.id)
        assert (row.version, row.status, row.moves) == (0, "over", [])
        assert row.result is not None and row.result["kind"] == "aborted"
        assert room.status == "over" and room.result == row.result

    run(f"sqlite:///{tmp_path}/c.db", scenario)


def test_a_rematch_keeps_the_clock_and_gives_gone_seats_back_to_their_players(tmp_path):
    async def scenario(store: Store, clock: Clock) -> None:
        hub = hub_on(store, clock)
        room, tokens = await open_table(hub, "chuko", 3, players=3)
        seated(hub, room)
        await opening(hub, room, Random(1))
        await hub.resign(room, 1)
        room.status = "over"  # as if the game had gone on to its end
        made = await hub.rematch(room.id, tokens[0])
        again = hub.rooms[made["room"]]
        assert again.clocks is not None and again.clocks.control == PER_MOVE
        assert [s.kind for s in again.seats] == ["human", "human", "human"]
        assert again.seats[1].gone is None and again.status == "waiting"

    run(f"sqlite:///{tmp_path}/c.db", scenario)
