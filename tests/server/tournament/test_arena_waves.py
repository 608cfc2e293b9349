"""An arena led pass by pass on a real store and real rooms: a player is paired again at
the next pass after their game ends (never with the same opponent straight away), which
comes at once when the game ended on the leader's own worker; a player
who loses a game without making a move is paused, and not paired until they resume; at its
end time the arena ends, pairs nobody more, and a game still running then counts when it
ends. A game's result is read from its room, so however often its end is read (pass after
pass, by another director), it counts once."""

from __future__ import annotations

import asyncio
import contextlib

from tournament_kit import club, decide, opening, settings

from chuko.server.shared.bus import GameOver
from chuko.server.tournament.rounds import CoreRules


async def _arena(made, count: int = 3, minutes: int = 30):
    players = made.people(count)
    page = await made.director.create(players[0], settings("arena", minutes=minutes))
    for player in players:
        await made.director.join(player, page["id"])
    return page["id"], players


def test_a_player_is_paired_again_at_the_next_pass_after_their_game_ends(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            arena, (ann, bob, cid) = await _arena(made)
            await made.leader.tick()
            (first,) = await made.games(arena)
            assert set(first.players) == {ann.id, bob.id}  # cid waits
            await made.leader.tick()
            assert len(await made.games(arena)) == 1  # nobody else is free
            await decide(made.hub, first.room_id, loser=first.players.index(bob.id))
            await made.leader.tick()
            games = await made.games(arena)
            assert len(games) == 2
            assert set(games[1].players) == {ann.id, cid.id}  # not ann and bob again
            page = await made.director.page(arena, ann)
            assert page["you"]["room"] == games[1].room_id
            assert page["playing"][0]["watch"] == f"/room/{games[1].room_id}"

    asyncio.run(scenario())


def test_a_player_who_loses_without_a_move_is_paused_until_they_resume(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            arena, (ann, bob, cid) = await _arena(made)
            await made.leader.tick()
            (first,) = await made.games(arena)
            await decide(made.hub, first.room_id, loser=first.players.index(bob.id), moves=0)
            await made.leader.tick()
            page = await made.director.page(arena, bob)
            assert page["you"]["paused"]
            games = await made.games(arena)
            assert set(games[-1].players) == {ann.id, cid.id}
            await made.director.resume(bob, arena)
            await decide(made.hub, games[-1].room_id, loser=0)
            await made.leader.tick()
            assert bob.id in (await made.games(arena))[-1].players

    asyncio.run(scenario())


def test_the_arena_ends_at_its_time_and_a_game_running_then_counts_once(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            arena, (ann, bob) = await _arena(made, count=2, minutes=5)
            await made.leader.tick()
            (game,) = await made.games(arena)
            await opening(made.hub, game.room_id)
            made.wall.now += 5 * 60
            await made.leader.tick()
            page = await made.director.page(arena, ann)
            assert page["status"] == "over" and not page["final"] and page["podium"] is None
            await decide(made.hub, game.room_id, loser=game.players.index(bob.id), moves=0)
            for _ in range(3):
                await made.leader.tick()
            assert len(await made.games(arena)) == 1  # nobody is paired after the end
            again = made.leader_again().director  # another worker's director
            for director in (made.director, again, made.director):
                page = await director.page(arena, ann)
                assert [(line["name"], line["points"]) for line in page["standings"]] == [
                    (ann.name, 2.0), (bob.name, 0.0)]
                assert page["final"] and page["podium"][0]["name"] == ann.name

    asyncio.run(scenario())


def test_players_sharing_a_place_on_the_podium_all_stand_on_it(db_url):
    """Two winners share first place and two losers third: the podium holds all four, not
    the first three lines of the standings (ties in an arena share a place)."""
    async def scenario() -> None:
        async with club(db_url, rules=CoreRules()) as made:
            arena, players = await _arena(made, count=4, minutes=5)
            await made.leader.tick()
            games = await made.games(arena)
            assert len(games) == 2
            made.wall.now += 5 * 60
            await made.leader.tick()
            for game in games:
                await decide(made.hub, game.room_id, loser=1, moves=0)
            for _ in range(2):
                await made.leader.tick()
            page = await made.director.page(arena, players[0])
            assert page["final"]
            assert [line["rank"] for line in page["standings"]] == [1, 1, 3, 3]
            assert page["podium"] == page["standings"]

    asyncio.run(scenario())


def test_a_game_ending_on_the_leaders_worker_brings_the_next_pass_at_once(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            arena, (ann, bob, cid) = await _arena(made)
            made.hub.bus.subscribe(GameOver, made.leader.game_over)
            made.leader.every = 3600.0  # no pass but those a game's end brings
            await made.leader.tick()
            (first,) = await made.games(arena)
            running = asyncio.create_task(made.leader.run())
            try:
                await decide(made.hub, first.room_id, loser=first.players.index(bob.id))
                for _ in range(200):
                    if len(await made.games(arena)) == 2:
                        break
                    await asyncio.sleep(0.01)
                assert {ann.id, cid.id} == set((await made.games(arena))[1].players)
            finally:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running

    asyncio.run(scenario())
