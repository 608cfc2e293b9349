"""The generic terminal player, driven by scripted input: it plays any game from its
descriptor and protocol alone. Crossroads stands in for a game without a screen of its own
(its own screen is another module), called directly."""

import argparse
import io
import re

import pytest

from chuko.core.errors import ConfigError
from chuko.tui import generic
from chuko.tui.session import labels

GAME = "crossroads"
ENDING = re.compile(r"\n(You|Random bot) won \d+–\d+\.\n|\nDraw, \d+–\d+\.\n")


def play(monkeypatch, capsys, lines, *argv, game=GAME):
    parser = argparse.ArgumentParser()
    generic.add_arguments(parser, game)
    args = parser.parse_args(list(argv))
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = generic.run(args)
    return status, capsys.readouterr().out


def test_a_whole_game_against_a_bot_with_bad_lines_undo_and_every_move_told(monkeypatch,
                                                                             capsys):
    lines = ["zz", "99", "", "AL*", "help", "undo", "1", "undo", *["1"] * 6]
    status, out = play(monkeypatch, capsys, lines, "--first", "0", "--vs", "random",
                       "--seed", "4")
    assert status == 0
    assert "'zz' is not a move" in out and "'99' is not a move" in out
    assert "no bridges" in out  # the engine refuses AL*, in its words
    assert "take back your last move" in out  # help
    assert "nothing to undo" in out and "Your last move is taken back." in out
    # Every move is told by the engine, the undone pair included: 7 of mine, 7 of the bot's.
    assert out.count("\n  You took ") == 7 and out.count("\n  Random bot took ") == 7
    assert "Game over" in out and ENDING.search(out)
    assert out.count("✗") == 4  # zz, 99, AL* and the first undo
    assert "seat" not in out.lower()


def test_two_people_at_one_keyboard_are_player_1_and_player_2(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, ["1"] * 12 + ["undo"], "--vs", "human",
                       "--first", "1", "--rounds", "1")
    assert status == 0
    assert out.count("Player 2, your move?") == 6 and out.count("Player 1, your move?") == 6
    assert "Player 2 took " in out and "You " not in out
    assert re.search(r"\n(Player [12] won \d+–\d+|Draw, \d+–\d+)\.\n", out)


def test_quitting_and_the_end_of_input_say_goodbye(monkeypatch, capsys):
    for lines in (["quit"], []):
        status, out = play(monkeypatch, capsys, lines, "--vs", "human")
        assert status == 0 and out.rstrip().endswith("Goodbye.")


def test_the_descriptors_options_are_flags_checked_by_the_engine(monkeypatch, capsys):
    parser = argparse.ArgumentParser()
    generic.add_arguments(parser, GAME)
    assert "--rounds" in parser.format_help() and "--pack" in parser.format_help()
    status, out = play(monkeypatch, capsys, ["quit"], "--rounds", "2", "--vs", "human")
    assert status == 0 and "Rounds  2" in out


@pytest.mark.parametrize("argv", [["--rounds", "3"], ["--pack", "2-5"], ["--vs", "wizard"],
                                  ["--vs", "random,random"], ["--vs", ","]])
def test_bad_options_are_refused_in_one_sentence(monkeypatch, capsys, argv):
    with pytest.raises(ConfigError) as refused:
        play(monkeypatch, capsys, [], *argv)
    assert str(refused.value).count(".") >= 1 and "\n" not in str(refused.value)


def test_labels_never_read_as_moves_or_commands():
    assert labels(["AL", "BR"]) == ["1", "2"]
    assert labels([1, 2, 3]) == ["a", "b", "c"]
    assert labels(["1", "a"]) == []
    assert labels(list(range(1, 10)), reserved={"h", "u"})[6:] == ["g", "i", "j"]


def test_move_letters_never_spell_a_word_that_quits():
    from chuko.console import QUIT_WORDS
    from chuko.tui.session import labels

    assert not set(labels([str(n) for n in range(1, 25)])) & QUIT_WORDS
