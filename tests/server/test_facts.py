"""GET /api/facts reads the shipped facts: every registered game in the registry's order,
each with the studies of the files that name it, whatever shape a file has; a broken file
is left out rather than breaking the Lab."""

import json

from chuko.games import game_ids
from chuko.server import facts


def test_facts_are_grouped_by_registered_game_from_every_file_shape(tmp_path):
    one = {"game": "caravan", "title": "A"}
    (tmp_path / "a.json").write_text(json.dumps(one))
    (tmp_path / "b.json").write_text(json.dumps([{"game": "chuko", "title": "B"}, "junk"]))
    (tmp_path / "c.json").write_text(json.dumps({"studies": [{"game": "caravan", "title": "C"},
                                                             {"title": "no game"}]}))
    (tmp_path / "d.json").write_text("{broken")
    (tmp_path / "notes.txt").write_text("not a facts file")
    found = facts.shipped_facts(tmp_path)["games"]
    assert [g["id"] for g in found] == list(game_ids())
    studies = {g["id"]: [s["title"] for s in g["studies"]] for g in found}
    assert studies["caravan"] == ["A", "C"] and studies["chuko"] == ["B"]
    assert studies["crossroads"] == []


def test_no_facts_directory_means_no_studies(tmp_path):
    assert all(not g["studies"] for g in facts.shipped_facts(tmp_path / "none")["games"])


def test_the_shipped_facts_name_registered_games():
    shipped = facts.shipped_facts()["games"]
    assert [g["id"] for g in shipped] == list(game_ids())
    for game in shipped:
        assert all(s["game"] == game["id"] and s.get("title") for s in game["studies"])
