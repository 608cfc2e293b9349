"""The built wheel, installed without extras into a fresh virtual environment, is the engines,
solvers, bots and command line alone: `chuko solve caravan` and `chuko simulate chuko` give
the answers the development install gives, the browser app's libraries are absent and
`chuko serve` says which extra to install. The wheel carries its license, URLs,
classifiers, rules texts and record schemas.

Building needs PyPI for the build backend and for rich, the one base dependency.
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from chuko.games import BUILT_IN, registry
from chuko.i18n import LANGUAGES
from chuko.i18n.catalogues import DOMAINS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DEAL = "6 15 10 7 / 9 14 8 11 / 2 21 22 30"
SIMULATE = ["simulate", "chuko", "--games", "30", "--seed", "7", "--bots", "easy,random",
            "--json"]
SOLVE = ["solve", "caravan", "--deal", DEAL, "--json"]


def run(*argv, cwd, env=None, check=True):
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                          text=True, check=check, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel path, the venv's bin directory, a clean environment for it)."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Built from a copy, so the shared working tree gets no build/ or egg-info.
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp / "dist",
        source, cwd=tmp, env=env)
    (wheel,) = (tmp / "dist").glob("chuko-*.whl")
    run(sys.executable, "-m", "venv", tmp / "venv", cwd=tmp, env=env)
    bin_dir = tmp / "venv" / "bin"
    run(bin_dir / "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp,
        env=env)
    return wheel, bin_dir, env, tmp


def test_the_wheel_carries_license_urls_classifiers_rules_and_schemas(installed):
    wheel = installed[0]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(metadata_name).decode())
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert metadata["License-Expression"] == "MIT"
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert urls["Source"].startswith("https://github.com/")
    assert "Topic :: Games/Entertainment" in metadata.get_all("Classifier")
    base = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert [r.split("<")[0].split(">")[0] for r in base] == ["rich", "babel"]
    for game in registry().values():
        if game.__module__ in BUILT_IN:
            package, _, path = game.descriptor.integrations.rules.partition(":")
            assert f"{package.replace('.', '/')}/{path}" in names
    # Every shipped language's catalogues, and its rules texts.
    for lang in LANGUAGES.keys() - {"en"}:
        assert {f"chuko/locale/{lang}/LC_MESSAGES/{domain}.po" for domain in DOMAINS} <= names
        assert f"chuko/games/rules/chuko.{lang}.md" in names
    assert {"chuko/data/record.schema.json", "chuko/data/position.schema.json",
            "chuko/data/ladder-v1.json", "chuko/data/bot-versions.json",
            "chuko/py.typed"} <= names


def test_solve_caravan_from_the_wheel_agrees_with_the_development_install(installed):
    _, bin_dir, env, tmp = installed
    theirs = json.loads(run(bin_dir / "chuko", *SOLVE, cwd=tmp, env=env).stdout)
    ours = json.loads(run(sys.executable, "-m", "chuko.cli.main", *SOLVE, cwd=ROOT).stdout)
    assert theirs["winnable"] is True
    assert {k: theirs[k] for k in ("winnable", "options")} == {
        k: ours[k] for k in ("winnable", "options")}
    assert len(theirs["solution"]) == 12


def test_simulate_chuko_from_the_wheel_plays_the_same_games(installed):
    _, bin_dir, env, tmp = installed
    theirs = json.loads(run(bin_dir / "chuko", *SIMULATE, cwd=tmp, env=env).stdout)
    ours = json.loads(run(sys.executable, "-m", "chuko.cli.main", *SIMULATE, cwd=ROOT).stdout)
    assert theirs["games"] == 30 and sum(s["wins"] for s in theirs["seats"]) == 30
    assert theirs == ours


def test_the_extras_are_absent_and_their_commands_say_what_to_install(installed):
    _, bin_dir, env, tmp = installed
    for module in ("fastapi", "sqlalchemy", "uvicorn", "numpy", "numba", "pyarrow"):
        done = run(bin_dir / "python", "-c", f"import {module}", cwd=tmp, env=env, check=False)
        assert done.returncode != 0, f"{module} is installed without its extra"
    for argv, extra in ((["serve"], "web"),
                        (["export", "caravan", "--games", "1", "--format", "parquet", "--out",
                          tmp / "x.parquet"], "rl")):
        done = run(bin_dir / "chuko", *argv, cwd=tmp, env=env, check=False)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and f"pip install 'chuko[{extra}]'" in done.stderr
