"""The README is a short guide and the docs hold the manual: the README stays within 200
lines and keeps its two set-up commands, the Python examples of the README and the guides
run as written, and every relative link in them points at a file (and a heading) that
exists; the server's picture is what its script draws."""

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
# Pages whose Python blocks are excerpts of a longer program (they use names defined in
# the text around them), so they are read, not run.
EXCERPTS = {"envs.md", "training.md"}
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.+)$", re.M)


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


def relative_links(page: Path) -> list[str]:
    prose = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(prose)
            if not re.match(r"[a-z]+:", target) and not target.startswith("#")]


def anchor(heading: str) -> str:
    """The id a Markdown renderer (GitHub's) gives a heading: lower case, punctuation
    dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    prose = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {anchor(heading) for heading in HEADING.findall(prose)}


def test_the_readme_is_a_guide_of_at_most_200_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readmes_set_up_commands_are_make_serve_and_make_test():
    set_up = README.read_text(encoding="utf-8").split("## Set up\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", set_up, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block[1].splitlines()]
    assert commands == ["make serve", "make test"]


@pytest.mark.parametrize("page", [p for p in PAGES if p.name not in EXCERPTS],
                         ids=lambda page: page.relative_to(ROOT).as_posix())
def test_the_python_examples_run_as_written(page):
    for block in python_blocks(page):
        exec(compile(block, page.name, "exec"), {})


def test_the_readme_shows_python_examples():
    assert python_blocks(README)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_a_file_that_exists(page):
    broken = [target for target in relative_links(page) if not points_at_something(page, target)]
    assert broken == []


def points_at_something(page: Path, target: str) -> bool:
    """The linked file exists, and so does the heading a fragment names in a Markdown page."""
    path, _, fragment = target.partition("#")
    linked = (page.parent / path).resolve()
    if not linked.exists():
        return False
    return not fragment or linked.suffix != ".md" or fragment in anchors(linked)


def test_links_and_anchors_are_read_as_a_renderer_reads_them():
    assert anchor("The arena: rating any agent") == "the-arena-rating-any-agent"
    assert anchor("The designer's lab") == "the-designers-lab"
    assert anchor("Chükö") == "chükö"
    page = "[a](docs/a.md#b) ![c](c.svg) [d](https://e.org) [f](#g)\n```\n[h](i.md)\n```\n"
    assert LINK.findall(FENCE.sub("", page)) == ["docs/a.md#b", "c.svg", "https://e.org",
                                                 "#g"]


def test_the_servers_picture_is_what_its_script_draws():
    drawn = runpy.run_path(str(ROOT / "docs" / "server_picture.py"))["picture"]()
    assert drawn.startswith("<svg ") and "shared/bus.py" in drawn
    assert (ROOT / "docs" / "server.svg").read_text(encoding="utf-8") == drawn
