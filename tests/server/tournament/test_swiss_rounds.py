"""A Swiss driven through the director and its leader, on a real store and real rooms, with
each game ended by the test: five players over four rounds have one bye a round (each to
another player, worth a win) and never meet twice; a round is paired only once every game
of the one before is over; the tournament ends after its last round, every game counted.
Players who join late enter the next round with nothing; withdrawn players are not paired."""

from __future__ import annotations

import asyncio
import itertools

from tournament_kit import club, decide, settings


def test_five_players_over_four_rounds_have_a_bye_a_round_and_no_repeated_pairing(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            host, *others = made.people(5)
            page = await made.director.create(host, settings("swiss", rounds=4))
            for player in (host, *others):
                await made.director.join(player, page["id"])
            met, byes = set(), []
            for number in range(1, 5):
                await made.leader.tick()
                await made.leader.tick()  # a second pass pairs nothing more mid-round
                games = [g for g in await made.games(page["id"]) if g.round == number]
                rooms = [g for g in games if g.room_id is not None]
                bye = [g.players[0] for g in games if g.room_id is None]
                assert (len(rooms), len(bye)) == (2, 1)
                byes += bye
                for game in rooms:
                    pair = frozenset(game.players)
                    assert pair not in met
                    met.add(pair)
                    await decide(made.hub, game.room_id, loser=game.players.index(
                        max(game.players)))
                assert (await made.row(page["id"])).round == number
            await made.leader.tick()
            final = await made.director.page(page["id"], host)
            assert final["status"] == "over" and final["final"]
            assert len(set(byes)) == 4
            points = [line["points"] for line in final["standings"]]
            assert sum(points) == 4 * 2 + 4  # two games and a bye each round
            assert final["podium"] == final["standings"][:3]
            assert [len(r["games"]) for r in final["pairings"]] == [3, 3, 3, 3]

    asyncio.run(scenario())


def test_a_round_waits_for_every_game_and_late_and_withdrawn_players_are_seen_next(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            first, second, third, fourth, late = made.people(5)
            page = await made.director.create(first, settings("swiss", rounds=3))
            for player in (first, second, third, fourth):
                await made.director.join(player, page["id"])
            await made.leader.tick()
            one, two = [g for g in await made.games(page["id"]) if g.round == 1]
            await decide(made.hub, one.room_id, loser=1)
            await made.director.withdraw(fourth, page["id"])
            await made.director.join(late, page["id"])
            await made.leader.tick()
            assert (await made.row(page["id"])).round == 1  # a game of round 1 goes on
            await decide(made.hub, two.room_id, loser=1)
            await made.leader.tick()
            second_round = [g for g in await made.games(page["id"]) if g.round == 2]
            paired = set(itertools.chain.from_iterable(g.players for g in second_round))
            assert late.id in paired and fourth.id not in paired
            standing = await made.director.page(page["id"], late)
            line = next(s for s in standing["standings"] if s["name"] == late.name)
            assert line["points"] == 0  # nothing from round 1, and round 2 goes on
            assert standing["you"]["joined"]

    asyncio.run(scenario())
