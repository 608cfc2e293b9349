"""Terminal Chükö played from scripted input, bad lines included."""

import argparse
import io
import random
import re

import pytest

from chuko.core.errors import ConfigError
from chuko.core.rng import make_rng
from chuko.games.chuko import Game, State
from chuko.tui import chuko as tui


def play(monkeypatch, capsys, lines, *argv):
    parser = argparse.ArgumentParser()
    tui.add_arguments(parser, "chuko")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = tui.run(parser.parse_args(list(argv)))
    return status, capsys.readouterr().out


def opening(seed):
    """The position the player sees first with this seed (seat 0 starts)."""
    return Game(players=2, first=0, turn_limit=None).new(rng=make_rng(seed))


def test_bad_lines_get_one_sentence_and_the_prompt_again(monkeypatch, capsys):
    state = opening(3)
    playable = {m.card for m in state.legal_moves(0)}
    stuck = next(c for c in state.hand(0) if c not in playable)
    lines = ["blah", "99", str(stuck), "help", "r", "reset", "a", "quit"]
    status, out = play(monkeypatch, capsys, lines, "--seed", "3", "--first", "0", "--vs", "easy")
    assert status == 0
    assert "'blah' is not a move" in out
    assert "99 is not in your hand" in out
    assert f"{stuck} cannot follow {state.top}" in out
    assert "You reset and drew" in out and "already drawn" in out
    assert out.count("Your move?") == len(lines)
    assert out.rstrip().endswith("Goodbye.")


def test_the_screen_shows_hand_factors_playable_marks_sizes_and_the_choices(monkeypatch, capsys):
    state = opening(3)
    status, out = play(monkeypatch, capsys, [], "--seed", "3", "--first", "0")
    assert status == 0  # end of input counts as quit
    assert f"Top card: {state.top}" in out and "Draw pile: 1" in out
    assert "Hands: You 5, Easy bot 5" in out
    assert "22 (2·11)" in out and "✓" in out
    assert "r) reset" in out and "a) play" in out


def test_a_scripted_game_runs_to_its_end_against_two_bots(monkeypatch, capsys):
    # Always reset and play the first card: legal in every position, so the game ends.
    lines = ["r", "a"] * 200
    status, out = play(
        monkeypatch, capsys, lines, "--players", "3", "--vs", "easy,random", "--seed", "5"
    )
    assert status == 0
    last = out.rstrip().splitlines()[-1]
    assert re.fullmatch(r"(You|Easy bot|Random bot) won by emptying (your|their) hand first\.",
                        last)
    assert "Easy bot played" in out and "Random bot played" in out
    assert "You reset and drew" in out and "Chükö!" in out
    assert "seat" not in out.lower()


def test_a_bad_lineup_or_budget_is_refused():
    parser = argparse.ArgumentParser()
    tui.add_arguments(parser, "chuko")
    with pytest.raises(ConfigError):
        tui.run(parser.parse_args(["--players", "3", "--vs", "easy,wizard"]))
    with pytest.raises(ConfigError):
        tui.run(parser.parse_args(["--vs", "hard", "--hard-time", "0"]))


def test_with_no_card_that_fits_the_screen_says_so_and_to_reset(capsys):
    # 9 and 22 on a 7: neither shares a factor with 7 nor is lower.
    game = Game(players=2, pack=(9, 22, 2, 6, 7), first=0, turn_limit=None)
    state = State(game, [[9, 22], [2, 6]], 7, [], 0, random.Random(0))
    session = tui.ChukoSession(state, {})
    moves = state.legal_moves(0)
    session.show(0, dict(zip(session.labels(moves, ()), moves, strict=True)))
    out = capsys.readouterr().out
    assert "No card fits on 7: reset." in out and "✓" not in out
    assert "r) reset" in out
