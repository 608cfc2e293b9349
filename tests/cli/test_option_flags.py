"""Every command reads a game's options through its descriptor: each option is one flag,
spelt, defaulted and limited to the same choices on every command (`chuko <verb> <game>`
for every verb and every registered game, plug-ins included), built by one function and
read back by one function for built-in and plug-in games alike."""

import argparse

import pytest

import chuko.console
from chuko.cli.main import build_parser, commands
from chuko.console import OPTION_DEST, OptionFlag, option_flag
from chuko.core.errors import ChukoError
from chuko.games import descriptor, game_class

TABLE = commands()
PAIRS = [(verb, game) for verb, games in TABLE.items() for game in games if game]
# Commands that play whole games take every option of the game.
PLAYING = ("play", "simulate", "arena", "export")
# No command declares a game's option for itself. (The generic study's flags take several
# values of an option each, to vary it: they are read back by `option_values` like every
# other command's, under the option's own name.)
STUDY_OWN: set[tuple[str, str, str]] = set()
# A value no option of its kind takes.
BAD = {"int": "lots", "choice": "neither", "pack": "2,x", "text": "x" * 3000}


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    (choices,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return choices.choices[name]


def game_parser(verb: str, game: str) -> argparse.ArgumentParser:
    """The parser of `chuko VERB GAME`, built as the command builds it."""
    return _subparser(_subparser(build_parser([verb, game], TABLE), verb), game)


def option_actions(verb: str, game: str) -> list[OptionFlag]:
    return [a for a in game_parser(verb, game)._actions if isinstance(a, OptionFlag)]


def test_the_walk_covers_built_in_and_plug_in_games_on_every_verb():
    games = {game for _, game in PAIRS}
    assert {"chuko", "crossroads", "caravan", "chuchula", "takeaway"} <= games
    assert {verb for verb, _ in PAIRS} >= {*PLAYING, "solve", "advise", "study", "rules"}


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize(("verb", "game"), PAIRS)
def test_every_option_flag_has_the_descriptors_name_default_and_choices(verb, game):
    described = descriptor(game)
    for action in option_actions(verb, game):
        option = action.option
        assert option is described.option(option.name)
        assert action.option_strings == [option_flag(option)]
        assert action.default == option.default
        if option.kind == "choice":
            assert action.metavar == "{" + ",".join(map(str, option.choices)) + "}"
        assert (option.help or option.label) in action.help


@pytest.mark.parametrize(("verb", "game"), PAIRS)
def test_no_command_declares_a_game_option_of_its_own(verb, game):
    flags = {option_flag(option) for option in descriptor(game).options}
    rivals = {(verb, game, flag) for action in game_parser(verb, game)._actions
              if not isinstance(action, OptionFlag)
              for flag in action.option_strings
              if flag in flags and action.dest != OPTION_DEST + flag[2:].replace("-", "_")}
    assert rivals <= STUDY_OWN


@pytest.mark.parametrize(("verb", "game"), [p for p in PAIRS if p[0] in PLAYING])
def test_commands_that_play_games_take_every_option(verb, game):
    names = [action.option.name for action in option_actions(verb, game)]
    assert names == [option.name for option in descriptor(game).options]


def test_built_in_and_plug_in_play_screens_build_their_flags_alike():
    for game in ("chuko", "crossroads", "caravan", "chuchula", "takeaway"):
        flags = {option_flag(option) for option in descriptor(game).options}
        kinds = {type(a) for a in game_parser("play", game)._actions
                 if set(a.option_strings) & flags}
        assert kinds == {OptionFlag}, game


def test_every_play_screen_reads_its_game_through_the_flags(run_chuko, monkeypatch):
    read = []

    def spy(game_id):
        read.append(game_id)
        return game_class(game_id)

    monkeypatch.setattr(chuko.console, "game_class", spy)
    for game in TABLE["play"]:
        status, _, err = run_chuko("play", game, "--seed", "1", stdin="quit\n")
        assert status == 0, err
    assert read == list(TABLE["play"])


OPTIONS = [(game, option.name) for game in TABLE["play"] for option in descriptor(game).options]


@pytest.mark.parametrize(("game", "name"), OPTIONS)
def test_a_bad_option_value_is_refused_in_the_engines_sentence_with_status_2(run_chuko, game,
                                                                               name):
    option = descriptor(game).option(name)
    with pytest.raises(ChukoError) as refused:
        game_class(game).from_options({name: BAD[option.kind]})
    status, out, err = run_chuko("play", game, option_flag(option), BAD[option.kind],
                                 stdin="quit\n")
    assert status == 2 and out == ""
    assert err == f"chuko: {refused.value}\n"
