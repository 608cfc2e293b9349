"""The project stands on its own docs: each game's rules are one Markdown file, shipped in
the package and linked from docs/rules; every ruling the project cites is explained in
docs/rulings.md; and no tracked file points to a folder outside the repository."""

import re
import subprocess
from functools import cache
from importlib import import_module
from importlib.resources import files
from pathlib import Path

import pytest

from chuko.games import BUILT_IN, game_ids, rules_text

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN_GAMES = [import_module(name).Game for name in BUILT_IN]

_ID = r"[GCVKH]\d+"
_ITEM = rf"{_ID}(?:[–-][GCVKH]?\d+)?"  # K1 or a range K1–K8
_LIST = rf"{_ITEM}(?:(?:, | and | or |/){_ITEM})*"
# "ruling K1", "rulings G1, G2, K1–K8", "(H7, H8)", and a range such as K1–K8 anywhere.
_CITATIONS = (
    re.compile(rf"\brulings? ({_LIST})", re.IGNORECASE),
    re.compile(rf"\(({_LIST})\)"),
    re.compile(r"\b([GCVKH]\d+[–-][GCVKH]\d+)\b"),
)
_PARTS = re.compile(r"([GCVKH])(\d+)(?:[–-][GCVKH]?(\d+))?")
_DEFINED = re.compile(r"^- \*\*([GCVKH]\d+)\b", re.MULTILINE)
# Spelled in pieces so that this file does not match itself.
_OUTSIDE = re.compile(re.escape(".." + "/" + "shared"))


def cited_ids(text: str) -> set[str]:
    """Every ruling id a text cites, ranges spelled out (K1–K3 → K1, K2, K3)."""
    ids: set[str] = set()
    for pattern in _CITATIONS:
        for found in pattern.finditer(text):
            for letter, first, last in _PARTS.findall(found[1]):
                ids.update(f"{letter}{n}" for n in range(int(first), int(last or first) + 1))
    return ids


@cache
def tracked_texts() -> dict[str, str]:
    """Every file git tracks that is text, by its path (symlinks to folders are left out)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    texts = {}
    for name in listed.decode().split("\0"):
        path = ROOT / name
        if name and path.is_file():
            data = path.read_bytes()
            if b"\0" not in data:
                texts[name] = data.decode("utf-8", "replace")
    return texts


@pytest.mark.parametrize("game", BUILT_IN_GAMES, ids=lambda game: game.id)
def test_each_built_in_game_has_rules_that_open_with_its_title(game):
    text = rules_text(game.id)
    assert text.splitlines()[0] == f"# {game.title}"
    assert len(text.split()) > 500  # whole rules, not the one-line summary fallback


@pytest.mark.parametrize("game", BUILT_IN_GAMES, ids=lambda game: game.id)
def test_docs_rules_is_the_very_file_the_package_ships(game):
    package, _, path = game.descriptor.integrations.rules.partition(":")
    shipped = Path(str(files(package).joinpath(path)))
    in_docs = ROOT / "docs" / "rules" / f"{game.id}.md"
    assert in_docs.samefile(shipped)
    assert in_docs.read_text(encoding="utf-8") == rules_text(game.id)


def test_docs_rules_is_committed_as_a_link_into_the_package():
    tracked_texts()  # skips outside a git checkout
    staged = subprocess.run(["git", "ls-files", "--stage", "docs/rules"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    assert staged[0] == "120000"  # git's mode for a symbolic link
    assert (ROOT / "docs" / "rules").resolve() == (ROOT / "src/chuko/games/rules").resolve()


def test_citations_are_read_with_their_lists_and_ranges():
    text = "# ruling K1\n(rulings G1, G5 and C1–C3), see (H7, H8) and V1–V2, not K9 alone"
    assert cited_ids(text) == {"K1", "G1", "G5", "C1", "C2", "C3", "H7", "H8", "V1", "V2"}


def test_every_ruling_the_project_cites_is_explained_in_rulings_md():
    defined = set(_DEFINED.findall((ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")))
    cited = {
        (ruling, name)
        for name, text in tracked_texts().items()
        if name.startswith(("src/", "tests/", "docs/", "README"))
        for ruling in cited_ids(text)
    }
    assert {ruling for ruling, _ in cited} >= {"G1", "C1", "V1", "K1", "H1"}
    assert sorted((ruling, name) for ruling, name in cited if ruling not in defined) == []


def test_no_tracked_file_refers_to_a_folder_outside_the_project():
    outside = [name for name, text in tracked_texts().items() if _OUTSIDE.search(text)]
    assert outside == []


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_a_player_reads_carry_no_ruling_ids(game_id):
    """Ruling ids are for the code and docs/rulings.md; players read plain rules."""
    assert not re.search(r"\b[GCVKH]\d\b", rules_text(game_id))
