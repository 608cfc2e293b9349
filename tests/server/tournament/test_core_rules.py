"""The tournaments run by the pure modules of the package (`CoreRules`), through the seam
the director uses: a Swiss's standings with Buchholz and Sonneborn–Berger as worked by
hand, an arena's streak, tables with bots' seats left out, a Swiss that cannot be paired
without a repeat (it ends), and a Swiss of five over four rounds led to its end with the
real pairing: a bye a round, each to another player, and no repeated game."""

from __future__ import annotations

import asyncio

import pytest
from tournament_kit import club, decide, settings

from chuko.server.tournament.rounds import (
    Contender,
    CoreRules,
    Field,
    NoRound,
    Played,
)

RULES = CoreRules()


def test_swiss_standings_have_buchholz_and_sonneborn_berger_as_worked_by_hand():
    # Round 1: a beats b, c and d draw. Round 2: a beats c, b beats d.
    played = [Played(1, ("a", "b"), (0, 1)), Played(1, ("c", "d"), (0, 0)),
              Played(2, ("c", "a"), (1, 0)), Played(2, ("b", "d"), (0, 1))]
    entered = Field({"a": 1500.0, "b": 1500.0, "c": 1500.0, "d": 1400.0})
    lines = {line.player: line for line in RULES.standings("swiss", entered, played)}
    # Scores: a 2, b 1, c ½, d ½.
    assert [(p, lines[p].points) for p in "abcd"] == [("a", 2), ("b", 1), ("c", .5),
                                                      ("d", .5)]
    assert lines["a"].tiebreaks == {"buchholz": 1.5, "sonneborn_berger": 1.5}
    assert lines["b"].tiebreaks == {"buchholz": 2.5, "sonneborn_berger": 0.5}
    assert lines["c"].tiebreaks == {"buchholz": 2.5, "sonneborn_berger": 0.25}
    assert lines["a"].sheet == (1.0, 1.0) and lines["c"].sheet == (0.5, 0.0)
    assert [lines[p].rank for p in "abcd"] == [1, 2, 3, 4]


def test_an_arena_doubles_a_win_on_a_streak_and_breaks_ties_by_rating():
    played = [Played(n, ("a", "b"), (0, 1)) for n in range(1, 4)]
    entered = Field({"a": 1500.0, "b": 1600.0, "c": 1700.0})
    lines = RULES.standings("arena", entered, played)
    assert [(line.player, line.points, line.sheet, line.on_fire) for line in lines] == [
        ("a", 8.0, (2.0, 2.0, 4.0), True), ("c", 0.0, (), False),
        ("b", 0.0, (0.0, 0.0, 0.0), False)]


def test_tables_leave_the_bots_seats_out_and_a_swiss_without_a_round_says_so():
    seated = RULES.seat_tables([Contender(p, 0.0, 1500.0) for p in "abcde"], 4)
    assert sorted(len(table) for table in seated) == [2, 3]
    met = frozenset("ab")
    with pytest.raises(NoRound):
        RULES.pair_swiss([Contender("a", 1.0, 1500.0, met - {"a"}),
                          Contender("b", 1.0, 1500.0, met - {"b"})])


def test_a_swiss_of_five_over_four_rounds_with_the_real_pairing(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            made.director.rules = RULES
            players = made.people(5)
            page = await made.director.create(players[0], settings("swiss", rounds=4))
            for player in players:
                await made.director.join(player, page["id"])
            met, byes = set(), []
            for number in range(1, 5):
                await made.leader.tick()
                games = [g for g in await made.games(page["id"]) if g.round == number]
                byes += [g.players[0] for g in games if g.room_id is None]
                for game in (g for g in games if g.room_id is not None):
                    assert frozenset(game.players) not in met
                    met.add(frozenset(game.players))
                    await decide(made.hub, game.room_id, loser=0)
            await made.leader.tick()
            final = await made.director.page(page["id"], None)
            assert final["status"] == "over" and len(set(byes)) == 4
            assert sum(line["points"] for line in final["standings"]) == 12
            assert all(set(line["tiebreaks"]) == {"buchholz", "sonneborn_berger"}
                       for line in final["standings"])

    asyncio.run(scenario())
