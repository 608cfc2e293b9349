"""`chuko play` without a game: a menu of every registered game, from the registry."""

import io

from chuko.games import descriptor, descriptors, game_ids
from chuko.tui.menu import run_menu


def test_the_menu_lists_every_registered_game(run_chuko):
    status, out, _ = run_chuko("play", stdin="quit\n")
    flat = " ".join(out.split())  # the console wraps long lines
    assert status == 0
    for described in descriptors():
        assert f"{described.title} {described.summary}" in flat


def test_the_menu_starts_the_game_picked_by_number_title_or_id(monkeypatch, capsys):
    ids = game_ids()
    lines = ["2", "chess", "0", str(len(ids) + 1), descriptor(ids[-1]).title.upper(), ids[0]]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    started: list[str] = []
    assert run_menu(ids, lambda game: started.append(game) or 0) == 0
    assert started == [ids[1], ids[-1], ids[0]]
    out = capsys.readouterr().out
    assert out.count(f"Type a number from 1 to {len(ids)} or a game's name.") == 3


def test_a_game_runs_from_the_menu_and_the_menu_comes_back(run_chuko):
    described = descriptors()[-1]
    status, out, err = run_chuko("play", stdin=f"{len(descriptors())}\nquit\nquit\n")
    assert status == 0 and "Traceback" not in out + err
    assert "Goodbye." in out  # the game's own screen was left with quit
    assert out.count("Pick a game") == 2 and described.title in out


def test_the_menu_takes_help_and_a_games_rules(monkeypatch, capsys):
    ids = game_ids()
    lines = ["help", "rules", "rules 1", f"rules {ids[-1]}", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    started: list[str] = []
    assert run_menu(ids, lambda game: started.append(game) or 0) == 0
    out = capsys.readouterr().out
    assert started == [] and out.count("✗") == 1  # `rules` alone: name the game
    assert "rules and a game's number or name" in out and "Name the game after rules" in out
    menus = [line for line in out.splitlines() if line.startswith("─") and " Games " in line]
    assert out.count("Pick a game") == 5 and len(menus) == 3  # listed again after rules
