"""A pairing is recorded, with its rooms' ids, before any room is made: a leader killed in
between (here, its room maker dies at its first room) loses no pairing, and whoever leads
next makes every recorded game whose room does not exist, once; making one again is refused
by the database, and a pass after that makes nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from tournament_kit import club, settings

from chuko.server.store.writes import Conflict


class Killed(BaseException):
    """The leader's process ends here (`kill -9`): nothing after it runs."""


async def dies(*_):
    raise Killed


def test_recorded_pairings_are_made_once_by_the_next_leader(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            players = made.people(6)
            page = await made.director.create(players[0], settings("swiss", rounds=3))
            for player in players:
                await made.director.join(player, page["id"])
            with pytest.raises(Killed):
                await made.leader_again(open_game=dies).tick()
            recorded = await made.games(page["id"])
            assert len(recorded) == 3 and all(g.status is None for g in recorded)
            assert (await made.row(page["id"])).round == 1

            heir = made.leader_again()
            await heir.tick()
            games = await made.games(page["id"])
            assert [g.room_id for g in games] == [g.room_id for g in recorded]
            assert all(g.status == "playing" for g in games)
            assert len(games) == 3  # the round was not paired again
            tournament = await made.row(page["id"])
            names = {p.id: p.name for p in players}
            for game in games:  # a second making is refused: nobody is seated twice
                assert not await heir.open_game(tournament, game.room_id, game.players, names)
            await made.leader_again().tick()
            assert await made.games(page["id"]) == games

    asyncio.run(scenario())


def test_a_round_recorded_by_one_leader_is_not_recorded_again_by_another(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            players = made.people(4)
            page = await made.director.create(players[0], settings("swiss", rounds=3))
            for player in players:
                await made.director.join(player, page["id"])
            await made.leader.tick()
            stale = replace(await made.row(page["id"]), round=0)  # as read before round 1
            with pytest.raises(Conflict):
                await made.leader_again().record(stale, [(players[0].id, players[1].id)], [],
                                                 made.wall.now)
            assert len(await made.games(page["id"])) == 2

    asyncio.run(scenario())
