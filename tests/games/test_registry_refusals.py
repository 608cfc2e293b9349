"""The registry refuses a game whose descriptor cannot be what it says: a reference to what
serves it that is malformed or names nothing there, a pool whose options seat another
number of players. Each refusal is one sentence naming the game and the field."""

from __future__ import annotations

import logging
import sys
from dataclasses import replace

import pytest

import chuko.games as games
from chuko.core import references
from chuko.core.descriptor import Descriptor, Integrations, Option, Pool, Traits
from chuko.games import game_ids, registry

PLAYERS = Option("players", "Players", "int", 2, min=2, max=4)


def toy(**serving: object) -> Descriptor:
    return Descriptor("toy", "Toy", "a toy", Traits(2, 2), integrations=Integrations(**serving))


def refusal(**serving: object) -> str:
    (sentence,) = references.problems(toy(**serving))
    return sentence


@pytest.mark.parametrize("field, reference", [
    ("hints", "chuko.bots.caravan.Adviser"),  # a dot where the colon goes
    ("bots", "chuko.bots.caravan"),  # a module alone
    ("review", "chuko.bots.caravan:review:again"),
    ("rules", "chuko.games:"),
    ("lessons", "chuko.games:../README.md"),  # outside its package
])
def test_a_malformed_reference_is_refused_naming_the_game_and_the_field(field, reference):
    shape = "package:path/of/file" if field in ("rules", "lessons") else "module:attribute"
    assert refusal(**{field: reference}) == (
        f"The game 'toy' has a {field} reference {reference!r} that is not of the form "
        f"\"{shape}\".")


def test_a_reference_to_an_attribute_its_module_lacks_is_refused():
    assert refusal(hints="chuko.bots.caravan:Advisor") == (
        "The game 'toy' has a hints reference 'chuko.bots.caravan:Advisor' that names "
        "'Advisor', which the module 'chuko.bots.caravan' does not define.")


def test_a_command_or_a_study_is_named_by_its_field_within_the_descriptor():
    assert refusal(commands={"play": "chuko.tui.generic:play"}).startswith(
        "The game 'toy' has a commands.play reference 'chuko.tui.generic:play' that names 'play'")
    assert "study.turn_kinds reference" in references.problems(replace(
        toy(), integrations=Integrations(study=replace(
            Integrations().study, turn_kinds="chuko.games.chuko:no_kinds"))))[0]


def test_a_module_that_is_not_installed_or_a_file_its_package_lacks_is_refused():
    assert refusal(twin="chuko_no_such.twin:twin").endswith(
        "names the module 'chuko_no_such.twin', which is not installed.")
    assert refusal(lessons="chuko.games:lessons/toy.json").endswith(
        "names the file 'lessons/toy.json', which the package 'chuko.games' does not hold.")


def test_a_screen_is_a_file_of_the_scripts_the_browser_loads():
    assert refusal(screen="chuko.games:rules/chuko.md").endswith(
        "is not a file of chuko.web:js/, where the browser loads screens.")
    assert references.problems(toy(screen="chuko.web:js/generic.js")) == []


def test_a_module_is_checked_from_its_source_without_running_it(tmp_path, monkeypatch):
    package = tmp_path / "chuko_unrun"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('a package that must not run')\n")
    (package / "bots.py").write_text(
        "raise RuntimeError('a module that must not run')\n\n"
        "def make_bot(level, rng):\n    return None\n\n"
        "from random import (\n    Random,\n    choice as pick,\n)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("make_bot", "Random", "pick"):
        assert references.problems(toy(bots=f"chuko_unrun.bots:{name}")) == [], name
    assert refusal(bots="chuko_unrun.bots:choice").endswith(
        "names 'choice', which the module 'chuko_unrun.bots' does not define.")
    assert "chuko_unrun" not in sys.modules


def test_every_registered_game_passes_the_check():
    assert all(references.problems(registry()[game].descriptor) == [] for game in game_ids())


def seats(pool: Pool, players_option: str | None = "players") -> Descriptor:
    return Descriptor("toy", "Toy", "a toy", Traits(2, 4, players_option=players_option),
                      options=(PLAYERS,), pools=(pool,))


def test_a_pool_whose_options_seat_another_number_of_players_is_refused():
    with pytest.raises(ValueError, match=r"^toy's pool 'four' seats 4 players but its "
                                         r"options set players to 2$"):
        seats(Pool("four", "Four", 4, {"players": 2}))
    with pytest.raises(ValueError, match="set players to 2"):  # by the option's default
        seats(Pool("four", "Four", 4))
    assert seats(Pool("four", "Four", 4, {"players": 4})).pools[0].players == 4


def test_a_game_whose_players_vary_names_the_option_that_sets_them():
    with pytest.raises(ValueError, match="toy seats a varying number of players"):
        seats(Pool("two", "Two", 2), players_option=None)
    with pytest.raises(ValueError, match="players_option 'seats'"):
        seats(Pool("two", "Two", 2), players_option="seats")


@pytest.fixture
def fresh_registry():
    registry.cache_clear()
    yield
    registry.cache_clear()


class Point:
    """An installed plug-in's entry point, as importlib.metadata gives it."""

    def __init__(self, value: str, loaded: object) -> None:
        self.value, self._loaded = value, loaded

    def load(self) -> object:
        return self._loaded


def test_a_plugin_with_a_bad_reference_is_left_out_in_one_logged_sentence(
        fresh_registry, monkeypatch, caplog):
    from chuko_takeaway.game import Game as Takeaway

    described = replace(Takeaway.descriptor, integrations=replace(
        Takeaway.descriptor.integrations, bots="chuko_takeaway.bots:make_bots"))
    broken = type("Broken", (Takeaway,), {"descriptor": described})
    monkeypatch.setattr(games, "entry_points",
                        lambda group: [Point("chuko_broken.game", broken)])
    with caplog.at_level(logging.ERROR, logger="chuko.games"):
        assert "takeaway" not in registry()
    assert caplog.messages == [
        "The game plug-in 'chuko_broken.game' is left out: The game 'takeaway' has a bots "
        "reference 'chuko_takeaway.bots:make_bots' that names 'make_bots', which the module "
        "'chuko_takeaway.bots' does not define."]


def test_a_built_in_game_with_a_bad_reference_stops_the_registry(fresh_registry, monkeypatch):
    from chuko.games import caravan

    described = replace(caravan.DESCRIPTOR, integrations=replace(
        caravan.DESCRIPTOR.integrations, rules="chuko.games:rules/caravan.txt"))
    monkeypatch.setattr(caravan.Game, "descriptor", described)
    with pytest.raises(games.ConfigError, match="The game 'caravan' has a rules reference"):
        registry()
