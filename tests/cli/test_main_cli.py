"""The `chuko` command is built from the registry: every registered game appears in its
help under the verbs it serves, `chuko rules` shows any game's rules, and the dispatcher
and the terminal's generic screens name no game."""

import ast
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from chuko.cli.main import build_parser, commands
from chuko.cli.main import main as cli_main
from chuko.games import descriptor, descriptors, game_ids, rules_text

SOURCE = Path(__file__).resolve().parents[2] / "src" / "chuko"
# Every command-line module, the menu, the generic front ends and the environments name no
# game.
GAME_BLIND = [
    *(str(p.relative_to(SOURCE)) for p in sorted((SOURCE / "cli").glob("*.py"))),
    *(str(p.relative_to(SOURCE)) for p in sorted((SOURCE / "envs").glob("*.py"))),
    "tui/menu.py", "tui/generic.py", "analysis/simulate.py", "analysis/arena.py",
    "analysis/agents.py", "analysis/ladder.py",
    "analysis/study/__init__.py", "analysis/study/command.py", "analysis/study/play.py",
    "analysis/study/backends.py", "analysis/study/report.py",
]


def test_help_lists_every_registered_game_with_its_title_and_summary(run_chuko):
    status, out, _ = run_chuko("--help")
    assert status == 0
    for described in descriptors():
        assert described.id in out and f"{described.title} — {described.summary}" in out
    assert "rules" in out and "play" in out


@pytest.mark.parametrize("verb", ["play", "rules"])
def test_play_and_rules_help_list_every_registered_game(run_chuko, verb):
    status, out, _ = run_chuko(verb, "--help")
    flat = " ".join(out.split())  # argparse wraps long lines
    assert status == 0
    for described in descriptors():
        assert f"{described.id} {described.title} — {described.summary}" in flat


def test_a_verb_a_game_names_for_itself_lists_just_the_games_that_serve_it(run_chuko):
    verb = "solve"
    serving = [d for d in descriptors() if verb in d.integrations.commands]
    assert serving, "a game of this package names its own solve command"
    status, out, _ = run_chuko(verb, "--help")
    assert status == 0
    for described in descriptors():
        assert (f"{described.title} —" in out) == (described in serving)


def test_game_then_verb_works_like_verb_then_game(run_chuko):
    game = game_ids()[0]
    assert run_chuko(game, "rules", "--json") == run_chuko("rules", game, "--json")


@pytest.mark.parametrize("game", game_ids())
def test_rules_json_gives_the_id_title_and_markdown(run_chuko, game):
    status, out, err = run_chuko("rules", game, "--json")
    assert status == 0, err
    assert json.loads(out) == {"id": game, "title": descriptor(game).title,
                               "markdown": rules_text(game)}


def test_rules_off_a_terminal_are_the_markdown_as_written(run_chuko):
    game = game_ids()[0]
    for argv in (["rules", game], ["rules", game, "--plain"]):
        status, out, _ = run_chuko(*argv)
        assert status == 0 and out.strip() == rules_text(game).strip()


def test_missing_rules_are_one_line_and_status_2(run_chuko, monkeypatch):
    def missing(game_id, lang=None):
        raise FileNotFoundError(game_id)

    monkeypatch.setattr("chuko.console.rules_text", missing)
    status, out, err = run_chuko("rules", game_ids()[0])
    assert status == 2 and out == ""
    assert err.startswith("chuko: The rules of") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["dance"], ["play", "chess"], ["rules"], ["rules", "chess"], ["simulate"],
    ["rules", "--json"],
])
def test_errors_are_one_line_and_status_2(run_chuko, argv):
    status, out, err = run_chuko(*argv)
    assert status == 2
    assert err.startswith("chuko: ") and err.count("\n") == 1, err


def test_only_the_module_of_the_chosen_verb_and_game_is_imported():
    code = ("import sys; from chuko.cli.main import main; main(['rules', sys.argv[1], '--json']);"
            "print(sorted(m for m in sys.modules if m.startswith(('chuko.tui', 'chuko.server',"
            " 'chuko.analysis', 'chuko.cli.'))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, game_ids()[0]], capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stderr.splitlines()[-1] == "['chuko.cli.main', 'chuko.cli.rules']"


@pytest.mark.parametrize("path", GAME_BLIND)
def test_the_dispatcher_and_the_generic_screens_name_no_game(path):
    ids = set(game_ids())
    tree = ast.parse((SOURCE / path).read_text(encoding="utf-8"))
    named = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value in ids]
    assert named == []


def test_the_terminal_screens_never_import_the_command_line():
    for path in sorted((SOURCE / "tui").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names]
        assert not [m for m in imported if m and m.startswith("chuko.cli")], path.name


def documented_commands():
    """Each `chuko …` line of the shell examples in the README and docs/, as argv
    (continued lines joined, comments and redirections left out)."""
    root = SOURCE.parents[1]
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    lines = [line for page in pages
             for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
             for line in block.replace("\\\n", " ").splitlines() if line.startswith("chuko ")]
    return [shlex.split(line.split(" <")[0], comments=True)[1:] for line in lines]


@pytest.mark.parametrize("argv", documented_commands(), ids=" ".join)
def test_every_documented_command_is_one_the_parser_takes(argv):
    args = build_parser(argv, commands()).parse_args(argv)  # argparse exits on a bad flag
    assert args.verb == argv[0]


# What the base install (no extras) never loads for its commands: the browser app's stack,
# the environments' and the data formats' libraries.
EXTRAS_ONLY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "pyarrow",
               "gymnasium", "pettingzoo", "pyspiel")


@pytest.mark.slow  # a Python process per command
@pytest.mark.parametrize("argv", [
    ["--help"], ["rules", game_ids()[0], "--json"], ["simulate", "chuko", "--games", "2"],
    ["export", "caravan", "--games", "1"],
    ["solve", "caravan", "--deal", "6 15 10 7 / 9 14 8 11 / 2 21 22 30"],
], ids=" ".join)
def test_the_base_commands_import_no_module_of_an_extra(argv):
    code = ("import sys, contextlib, io; from chuko.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: main(sys.argv[1:])\n"
            "    except SystemExit: pass\n"
            "print(sorted({m.partition('.')[0] for m in sys.modules}), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          check=True, timeout=120)
    loaded = set(ast.literal_eval(done.stderr.splitlines()[-1]))
    assert loaded.isdisjoint(EXTRAS_ONLY), loaded & set(EXTRAS_ONLY)


def test_the_browser_app_without_its_extra_names_the_extra_to_install(run_chuko, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the web extra were missing
    status, out, err = run_chuko("serve", "--port", "8123")
    assert status == 2 and out == ""
    assert err == ("chuko: `chuko serve` needs uvicorn, which comes with the web extra: "
                   "pip install 'chuko[web]'.\n")


def test_a_missing_module_no_extra_brings_is_a_bug_and_not_hidden(monkeypatch):
    def broken(args):
        import chuko_no_such_module  # noqa: F401

    monkeypatch.setattr("chuko.cli.rules.run", broken)
    with pytest.raises(ModuleNotFoundError):
        cli_main(["rules", game_ids()[0]])


def test_a_command_whose_module_needs_a_missing_extra_says_so_before_parsing(run_chuko,
                                                                            monkeypatch):
    def without_extra(name):
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    monkeypatch.setattr("chuko.cli.main.import_module", without_extra)
    status, out, err = run_chuko("rules", game_ids()[0])
    assert status == 2 and out == ""
    assert err.startswith("chuko: `chuko rules` needs numpy, which comes with the rl")
    assert err.endswith(" extra: pip install 'chuko[rl]'.\n") and err.count("\n") == 1


def test_a_reader_that_stops_early_ends_the_command_quietly():
    # `chuko export ... | head`: the pipe closes while records are still being written.
    command = [sys.executable, "-m", "chuko.cli.main", "export", game_ids()[0], "--games", "400",
               "--seed", "1"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(10)
        process.stdout.close()
        error = process.stderr.read().decode()
        assert process.wait(timeout=120) == 0
    assert "Traceback" not in error
