"""A plug-in runs the conformance suite on its own game through `chuko.testing`, with chuko
imported as a package: a project in a temporary folder (its pyproject, its package, the
entry-point metadata an install writes, and a test file of one line) run by pytest in a
process of its own, where neither chuko's tests nor its other plug-ins are on the path.
A broken plug-in fails it with the rule it broke, or with the reason the registry left it
out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chuko
from chuko.core.conformance import broke
from chuko.testing import check_game

# The toy take-away game of tests/plugins, copied under a package name of its own.
TOY = Path(__file__).parent / "plugins" / "chuko_takeaway"
PACKAGE = "chuko_kit_toy"

PYPROJECT = f"""\
[project]
name = "chuko-kit-toy"
version = "1.0"
dependencies = ["chuko[testing]"]

[project.entry-points."chuko.games"]
takeaway = "{PACKAGE}.game"

[tool.setuptools.package-data]
{PACKAGE} = ["*.md", "*.json"]

[tool.pytest.ini_options]
markers = ["slow: takes seconds"]
"""
TESTS = """\
from chuko.testing import conformance_tests

TestConformance = conformance_tests("takeaway")
"""


def make_plugin(root: Path, breaking: tuple[str, str] = ("", "")) -> Path:
    """The plug-in's project under `root`, its package on a source folder next to the
    metadata an install writes; `breaking` replaces a text of its game module by another."""
    source = root / "src"
    shutil.copytree(TOY, source / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (source / PACKAGE).iterdir():
        path.write_text(path.read_text().replace(TOY.name, PACKAGE))
    game = source / PACKAGE / "game.py"
    assert breaking[0] in game.read_text()
    game.write_text(game.read_text().replace(*breaking))
    metadata = source / f"{PACKAGE}-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: chuko-kit-toy\n"
                                       "Version: 1.0\n")
    (metadata / "entry_points.txt").write_text(f"[chuko.games]\ntakeaway = {PACKAGE}.game\n")
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "tests").mkdir()
    (root / "tests" / "test_conformance.py").write_text(TESTS)
    return root


def run_pytest(project: Path) -> subprocess.CompletedProcess[str]:
    """pytest in the plug-in's project, with chuko found where this process imports it
    from; nothing is written outside the project (no bytecode, no cache)."""
    path = [str(project / "src"), str(Path(chuko.__file__).parents[1])]
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST", "HYPOTHESIS", "PYTHON"))}
    env |= {"PYTHONPATH": os.pathsep.join(path), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-m", "not slow", "tests"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)


# What the plug-in's process imports: chuko as a package, and neither chuko's tests nor
# the plug-ins they put on the path.
ALONE = """\
import importlib.util


def test_chuko_comes_as_a_package_without_its_tests():
    assert importlib.util.find_spec("chuko_takeaway") is None
    assert importlib.util.find_spec("conftest") is None
"""


@pytest.mark.slow
def test_a_plugin_runs_the_conformance_suite_on_its_game_and_passes(tmp_path):
    project = make_plugin(tmp_path)
    (project / "tests" / "test_alone.py").write_text(ALONE)
    done = run_pytest(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "error" not in done.stdout.lower()


@pytest.mark.slow
def test_a_plugin_that_breaks_a_rule_fails_with_the_rules_sentence(tmp_path):
    copy = "    def copy(self) -> State:\n"
    done = run_pytest(make_plugin(tmp_path, breaking=(copy, copy + "        return self\n")))
    assert done.returncode == 1
    assert broke("copies are independent") in done.stdout


@pytest.mark.slow
def test_a_plugin_the_registry_refuses_fails_with_the_reason(tmp_path):
    bots = f"{PACKAGE}.bots:make_bot"
    done = run_pytest(make_plugin(tmp_path, breaking=(bots, bots + "s")))
    assert done.returncode != 0
    assert (f"The plug-in '{PACKAGE}.game' was left out: The game 'takeaway' has a bots "
            f"reference '{bots}s' that names 'make_bots', which the module '{PACKAGE}.bots' "
            "does not define.") in done.stdout


def test_check_game_names_the_rule_a_game_breaks(monkeypatch):
    from chuko_takeaway.game import State

    monkeypatch.setattr(State, "copy", lambda self: self)
    with pytest.raises(AssertionError) as failure:
        check_game("takeaway")
    assert str(failure.value) == broke("copies are independent")


def test_check_game_passes_a_game_that_keeps_the_protocol():
    check_game("goofspiel")
