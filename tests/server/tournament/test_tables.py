"""A Swiss of a game of four: each round seats tables by score, its players in the seats in
the order recorded, and bots in the seats a short table leaves."""

from __future__ import annotations

import asyncio

from tournament_kit import club, settings


def test_a_round_of_tables_seats_players_by_score_and_bots_fill_a_short_table(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            players = made.people(6)
            page = await made.director.create(players[0], settings(
                "swiss", options={"players": 4}, rounds=2))
            assert page["table_size"] == 4
            for player in players:
                await made.director.join(player, page["id"])
            await made.leader.tick()
            full, short = await made.games(page["id"])
            assert (len(full.players), len(short.players)) == (4, 2)
            for game in (full, short):
                room = await made.hub.room(game.room_id)
                people = [seat.player for seat in room.seats if seat.kind == "human"]
                assert people == list(game.players)
                assert [seat.kind for seat in room.seats].count("bot") == 4 - len(people)

    asyncio.run(scenario())
