"""Every `python -m bench ...` command the README and docs/ show is one the benches accept as
written: the names pick benches and each picked bench's parser takes the options. Parsed
only; no bench runs."""

import re
import shlex
from importlib import import_module
from pathlib import Path

import pytest
from bench.__main__ import NAMES, UnknownBench, main, plan

ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"`([^`\n]*python -m bench(?![.\w])[^`\n]*)`")


def documented() -> list[tuple[str, str]]:
    """(file, the words after `python -m bench`) for each command shown in backquotes."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for command in COMMAND.findall(path.read_text(encoding="utf-8")):
            found.append((path.relative_to(ROOT).as_posix(),
                          command.split("python -m bench", 1)[1].strip()))
    return found


def test_the_docs_show_bench_commands_with_and_without_options():
    words = {words for _, words in documented()}
    assert "server" in words  # a bench named alone, with no option
    assert any(w.startswith("server --") for w in words)


@pytest.mark.parametrize(("where", "words"), documented(), ids=lambda x: x)
def test_each_documented_bench_command_is_accepted_by_the_benches_parsers(where, words):
    planned = plan(shlex.split(words))
    assert planned, f"{where}: `python -m bench {words}` names no bench"
    for module, options in planned:
        import_module(module).parser().parse_args(options)  # argparse exits on a refusal


def test_a_bench_named_alone_gets_no_options_and_its_exact_name_wins():
    assert plan(["server"]) == [("bench.bench_server", [])]
    assert plan(["chuchula"]) == [("bench.bench_chuchula", [])]
    assert plan(["soak", "--minutes", "1"]) == [("bench.soak", ["--minutes", "1"])]
    assert [module for module, _ in plan([])] == [f"bench.bench_{n}" for n in NAMES]


def test_an_unknown_bench_is_refused_in_one_sentence(capsys):
    with pytest.raises(UnknownBench, match="No bench is named 'nosuch'"):
        plan(["nosuch"])
    assert main(["nosuch"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("name", [*NAMES, "soak"])
def test_every_bench_has_a_parser_named_after_its_command(name):
    module = import_module(f"bench.{name if name == 'soak' else 'bench_' + name}")
    assert module.parser().prog == f"python -m bench {name}"
