"""Every setting of a new tournament comes from a hostile client: each wrong one is refused
in one sentence naming what is wrong, and nothing is stored. Joining is refused without
the password, outside the rating range, and for a guest in a rated tournament; an account
may have only a few upcoming tournaments of its own; only an arena may be paused."""

from __future__ import annotations

import asyncio
import math

import pytest
from tournament_kit import NOW, club, settings

from chuko.core.errors import ChukoError, ConfigError
from chuko.server.shared.limits import TooMany
from chuko.server.tournament.settings import read_settings

REFUSED = [
    ({"name": "ab"}, "3 to 40 printable"),
    ({"name": "a\x00bcd"}, "printable"),
    ({"name": "x" * 41}, "3 to 40"),
    ({"name": 12}, "name"),
    ({"game": "chess"}, "no game 'chess'"),
    ({"game": "caravan", "options": {}}, "no pool of 1 players"),
    ({"options": {"players": 3}}, "no pool of 3 players"),
    ({"options": [2]}, "options are a JSON object"),
    ({"options": {"colour": "red"}}, "colour"),
    ({"clock": None}, "need a clock"),
    ({"clock": {"kind": "move", "seconds": 10**9}}, "seconds"),
    ({"clock": "fast"}, "clock"),
    ({"system": "knockout"}, '"arena" or "swiss"'),
    ({"rated": "yes"}, "true or false"),
    ({"starts_at": NOW - 3600}, "between now and 30 days"),
    ({"starts_at": NOW + 31 * 86400}, "between now and 30 days"),
    ({"starts_at": math.nan}, "between now and 30 days"),
    ({"starts_at": True}, "between now and 30 days"),
    ({"rounds": 1}, "2 to 15 rounds"),
    ({"rounds": 16}, "2 to 15 rounds"),
    ({"rounds": 4.0}, "2 to 15 rounds"),
    ({"rating_min": -5}, "0 to 4000"),
    ({"rating_min": 1800, "rating_max": 1700}, "below its highest"),
    ({"password": "p" * 65}, "up to 64"),
    ({"password": 1234}, "up to 64"),
    ({"prize": "a cup"}, "no setting 'prize'"),
]


@pytest.mark.parametrize(("change", "sentence"), REFUSED)
def test_each_wrong_setting_is_refused_in_one_sentence(change, sentence):
    with pytest.raises(ConfigError, match=sentence) as refused:
        read_settings({**settings("swiss"), **change}, NOW, account=True)
    assert str(refused.value).count(". ") == 0


@pytest.mark.parametrize(("change", "sentence"), [
    ({"minutes": 4}, "5 to 720 minutes"), ({"minutes": 721}, "5 to 720 minutes"),
    ({"options": {"players": 4}}, "heads-up"),
    ({"clock": {"kind": "days", "days": 1}}, "per-move clock"),
])
def test_an_arena_is_heads_up_on_a_move_clock_for_5_to_720_minutes(change, sentence):
    with pytest.raises(ConfigError, match=sentence):
        read_settings(settings("arena", **change), NOW, account=True)


def test_good_settings_are_read_with_the_games_own_options():
    swiss = read_settings(settings("swiss", options={"players": 4}, password="door",
                                   name="  Friday   night  "), NOW - 30, account=True)
    assert (swiss.table_size, swiss.rounds, swiss.minutes) == (4, 4, None)
    assert swiss.options["pack"] == "standard" and swiss.name == "Friday night"
    assert swiss.starts_at == NOW and swiss.password == "door"
    arena = read_settings(settings("arena", rated=True), NOW, account=True)
    assert (arena.system, arena.minutes, arena.rated) == ("arena", 30, True)
    with pytest.raises(ConfigError, match="Only an account"):
        read_settings(settings("arena", rated=True), NOW, account=False)


def test_joining_is_refused_without_the_password_outside_the_range_or_rated_as_a_guest(
        db_url):
    async def rating_of(player, game, size):
        return 1900.0 if player == strong.id else 1500.0

    async def scenario() -> None:
        nonlocal strong
        async with club(db_url, rating_of=rating_of) as made:
            host, strong = made.people(2)
            (guest,) = made.people(1, accounts=False)
            locked = await made.director.create(host, settings(
                "swiss", password="door", rating_max=1800, rated=True))
            with pytest.raises(ChukoError, match="not the tournament's password"):
                await made.director.join(host, locked["id"], "window")
            with pytest.raises(ChukoError, match="ratings 0 to 1800; yours is 1900"):
                await made.director.join(strong, locked["id"], "door")
            with pytest.raises(ChukoError, match="Only accounts"):
                await made.director.join(guest, locked["id"], "door")
            with pytest.raises(ChukoError, match="Log in"):
                await made.director.create(guest, settings("swiss"))
            page = await made.director.join(host, locked["id"], "door")
            assert page["you"]["joined"] and page["password"]
            with pytest.raises(ConfigError, match="Only an arena"):
                await made.director.pause(host, locked["id"])
            with pytest.raises(ChukoError, match="no tournament"):
                await made.director.join(host, "nope")
            assert len((await made.director.listing())["upcoming"]) == 1

    strong = None
    asyncio.run(scenario())


def test_an_account_may_have_three_upcoming_tournaments_of_its_own(db_url):
    async def scenario() -> None:
        async with club(db_url) as made:
            (host,) = made.people(1)
            for _ in range(3):
                await made.director.create(host, settings("swiss"))
            with pytest.raises(TooMany, match="3 upcoming tournaments"):
                await made.director.create(host, settings("swiss"))
            assert len((await made.director.listing())["upcoming"]) == 3

    asyncio.run(scenario())
