"""Each game's rules file is the one text on how to play it in every front end: the
browser's rules page, `chuko rules GAME` and the `rules` command in a game all show it. Its
"Playing here" section says how a move is made in each front end, and what it names must
exist there, so the two cannot drift apart:

- "In the browser": every control is named in bold, as the browser labels it, and each
  such label is in the browser's code (a string of its scripts or a text of its pages; the
  arrows some labels carry, ◀ and ▶, aside);
- "In the terminal": every command in backquotes is one the game's terminal screen takes
  (as its `help` lists them) or a value of one of its options, every `--flag` one that
  `chuko play GAME` takes, and every `chuko ...` line a command that parses."""

import re
import shlex
from importlib import import_module
from pathlib import Path

import pytest

import chuko
from chuko.cli.main import build_parser, commands
from chuko.games import BUILT_IN, rules_text

WEB = Path(chuko.__file__).resolve().parent / "web"
GAMES = [import_module(name).Game for name in BUILT_IN]
# How each game's terminal screen starts, to ask it for `help`.
PLAY = {"caravan": ["--seed", "1"], "crossroads": ["--seed", "1", "--first", "0"],
        "chuko": ["--seed", "1"], "chuchula": ["--seed", "1", "--players", "2"]}


def section(game_id: str, heading: str) -> str:
    """The text under `### heading` in the game's rules, to the next heading."""
    found = re.search(rf"^### {heading}\n(.*?)(?=^#|\Z)", rules_text(game_id), re.M | re.S)
    assert found, f"the rules of {game_id} have no '### {heading}' section"
    return found[1]


def label(text: str) -> str:
    """A label as the test compares it: the arrows and the spaces around it aside."""
    return " ".join(text.replace("◀", " ").replace("▶", " ").split())


def browser_labels() -> set[str]:
    """Every string of the browser's scripts (template strings cut at their ${…}) and every
    text between tags of its pages."""
    found = set()
    for path in sorted((WEB / "js").glob("*.js")):
        code = path.read_text(encoding="utf-8")
        found.update(re.findall(r'"((?:[^"\\\n]|\\.)*)"', code))
        found.update(re.findall(r"'((?:[^'\\\n]|\\.)*)'", code))
        for template in re.findall(r"`([^`]*)`", code):
            found.update(re.split(r"\$\{[^}]*\}", template))
    for path in sorted(WEB.glob("*.html")):
        found.update(re.findall(r">([^<>]+)<", path.read_text(encoding="utf-8")))
    return {label(text) for text in found} - {""}


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_every_control_the_rules_name_for_the_browser_is_in_the_browsers_code(game):
    controls = re.findall(r"\*\*(.+?)\*\*", section(game.id, "In the browser"))
    assert controls, "the browser's controls are named in bold"
    labels = browser_labels()
    assert [name for name in controls if label(name) not in labels] == []


def test_a_control_the_browser_does_not_have_is_caught():
    labels = browser_labels()
    assert {"Place for me", "Commit", "bridge", "left end", "Play", "Hint"} <= labels
    assert label("Face down (bridge)") not in labels and "Suggest" not in labels


def in_game_commands(run_chuko, game_id: str) -> set[str]:
    """The words the game's `help` lists at the start of its lines."""
    status, out, _ = run_chuko("play", game_id, *PLAY[game_id], stdin="help\nquit\n")
    assert status == 0
    return set(re.findall(r"^(\w+) {2,}", out, re.M))


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_every_command_the_rules_name_for_the_terminal_is_one_it_takes(run_chuko, game):
    spans = re.findall(r"`([^`]+)`", section(game.id, "In the terminal"))
    taken = in_game_commands(run_chuko, game.id)
    values = {str(value) for option in game.descriptor.options
              for value in (*(option.choices or ()), *(name for name, _ in option.named))}
    table = commands()
    for span in spans:
        words = shlex.split(span)
        if words[0] == "chuko":
            argv = words[1:]
            assert argv[1] in table.get(argv[0], {}), f"`{span}` is no command"
            if "--help" not in argv:
                build_parser(argv, table).parse_args(argv)  # exits on a refusal
        elif words[0].startswith("--"):
            argv = ["play", game.id, *words]
            if "--help" not in argv:
                build_parser(argv, table).parse_args(argv)
        elif re.fullmatch(r"[a-z]+", span):
            assert span in taken | values, f"`{span}` is neither a command nor a value"


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_no_line_of_the_rules_reads_as_a_list_item_by_accident(game):
    """A wrapped line that starts "10) face up" is a numbered list item to a Markdown
    reader; the rules number their lists "1." and never start a line with "N)"."""
    assert re.findall(r"^\d+\) .*", rules_text(game.id), re.M) == []
