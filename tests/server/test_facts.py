"""GET /api/facts reads the shipped facts: every registered game in the registry's order,
each with the studies of the files that name it, whatever shape a file has, then those of
the file its own package ships; a broken file is left out rather than breaking the Lab."""

import dataclasses
import json

from chuko.games import descriptors, game_ids
from chuko.server.practice import facts

PLUGIN = "takeaway"  # tests/plugins/chuko_takeaway ships facts of its own


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


def test_no_facts_directory_leaves_only_the_facts_games_ship_with_them(tmp_path):
    found = facts.shipped_facts(tmp_path / "none")["games"]
    assert [g["id"] for g in found if g["studies"]] == [PLUGIN]
    (study,) = next(g for g in found if g["id"] == PLUGIN)["studies"]
    assert study["game"] == PLUGIN and study["findings"]


def test_a_games_own_file_speaks_for_that_game_alone_and_a_broken_one_is_left_out(
        tmp_path, monkeypatch):
    # Chükö's facts, named as the plug-in's own: none of their studies is the plug-in's.
    borrowed = {PLUGIN: "chuko:data/facts/chuko.json", "caravan": "chuko_takeaway:rules.md",
                "crossroads": "no_such_package:facts.json"}
    changed = [dataclasses.replace(d, integrations=dataclasses.replace(
        d.integrations, facts=borrowed.get(d.id, d.integrations.facts))) for d in descriptors()]
    monkeypatch.setattr(facts, "descriptors", lambda: changed)
    assert all(not g["studies"] for g in facts.shipped_facts(tmp_path / "none")["games"])


def test_the_shipped_facts_name_registered_games():
    shipped = facts.shipped_facts()["games"]
    assert [g["id"] for g in shipped] == list(game_ids())
    for game in shipped:
        assert all(s["game"] == game["id"] and s.get("title") for s in game["studies"])
