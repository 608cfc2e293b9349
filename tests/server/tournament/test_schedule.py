"""The operator's schedule (`chuko serve --schedule FILE`): each entry's next tournament is
made once, whichever leader makes it and however often; it starts at the entry's minute of
the hour or time of day (UTC); a wrong file or entry is refused in one sentence naming the
entry."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tournament_kit import NOW, club

from chuko.core.errors import ConfigError
from chuko.server.tournament.schedule import load_schedule

SCHEDULE = """
[[tournament]]
name = "Hourly Chükö arena"
system = "arena"
game = "chuko"
clock = { kind = "move", seconds = 10, reserve = 30 }
rated = true
minutes = 30
every = "hour"
minute = 15

[[tournament]]
name = "Daily Crossroads Swiss"
system = "swiss"
game = "crossroads"
clock = { kind = "move", seconds = 30, reserve = 60 }
rounds = 5
every = "day"
time = "18:30"
"""


def test_each_entrys_next_tournament_is_made_once_at_its_time(tmp_path, db_url):
    path = tmp_path / "schedule.toml"
    path.write_text(SCHEDULE, encoding="utf-8")
    entries = load_schedule(path, NOW)

    async def scenario() -> None:
        async with club(db_url) as made:
            first, second = (made.leader_again(schedule=entries) for _ in range(2))
            assert await first.make_scheduled() == 2
            assert await first.make_scheduled() == 0
            assert await second.make_scheduled() == 0  # another leader: the keys are taken
            listed = (await made.director.listing())["upcoming"]
            by_name = {t["name"]: t for t in listed}
            hourly, daily = by_name["Hourly Chükö arena"], by_name["Daily Crossroads Swiss"]
            assert hourly["starts_at"] % 3600 == 15 * 60 and hourly["starts_at"] >= NOW
            assert hourly["starts_at"] - NOW < 3600 and hourly["scheduled"]
            assert daily["starts_at"] % 86400 == 18 * 3600 + 30 * 60
            assert (daily["rounds"], hourly["minutes"], hourly["rated"]) == (5, 30, True)
            made.wall.now = hourly["starts_at"]
            await first.tick()  # the arena starts, and the next hour's is made
            listed = await made.director.listing()
            assert [t["name"] for t in listed["running"]] == ["Hourly Chükö arena"]
            assert sorted(t["starts_at"] - NOW for t in listed["upcoming"]
                          if t["name"] == "Hourly Chükö arena") == [
                hourly["starts_at"] + 3600 - NOW]

    asyncio.run(scenario())


@pytest.mark.parametrize(("text", "sentence"), [
    ("[[tournament]]\nname = 'x'", "tournament 1 recurs every"),
    ('[[tournament]]\nevery = "hour"\nminute = 60', "tournament 1 recurs every"),
    ('[[tournament]]\nevery = "day"\ntime = "25:00"', "tournament 1 recurs every"),
    ('[[tournament]]\nevery = "hour"\nminute = 0\nname = "Nightly"\nsystem = "swiss"\n'
     'game = "chuko"\nrounds = 99\nclock = { kind = "move", seconds = 10 }',
     "tournament 1: A Swiss has 2 to 15 rounds"),
    ("[server]\nport = 1", "only \\[\\[tournament\\]\\] entries"),
    ("not = toml = at all", "is not TOML"),
])
def test_a_wrong_schedule_is_refused_in_one_sentence(tmp_path, text, sentence):
    path = tmp_path / "schedule.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=sentence):
        load_schedule(path, NOW)


def test_the_docs_example_schedule_is_read():
    example = Path(__file__).resolve().parents[3] / "docs" / "schedule.example.toml"
    names = [entry.instance(NOW)[1].name for entry in load_schedule(example, NOW)]
    assert names == ["Hourly Chükö arena", "Daily Crossroads Swiss"]


def test_a_missing_schedule_file_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(ConfigError, match="cannot be read"):
        load_schedule(tmp_path / "nowhere.toml", NOW)
