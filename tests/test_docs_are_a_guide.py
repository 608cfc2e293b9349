"""Docs, code and tests say what is, not how it came to be: no issue numbers anywhere in the
project's text, and no diary of work sessions ("this round's code", "two rounds ago", "this
session") — history goes in CHANGELOG.md. A game's own rounds ("the last round of a match")
are the games' words and stay."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ISSUE = re.compile(r"\bissues? #?\d+\b|#\d+\b(?=\s*(?:\)|,|:|$))", re.IGNORECASE)
DIARY = re.compile(r"\b(?:this|last|previous) (?:round|session)'s (?:final |first )?"
                   r"(?:code|runs?|figures?|soak|commits?)\b"
                   r"|\brounds? ago\b|\bthis session\b|\btried this round\b", re.IGNORECASE)
# Where a project's number is another project's (an upstream bug tracker), it says whose.
UPSTREAM = re.compile(r"\b(?:numba|uvicorn|starlette|websockets|python|cpython|sqlalchemy)"
                      r" issues?\b", re.IGNORECASE)


def project_text() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "src", "tests", "bench", "docs", "README.md",
                             "examples", "Makefile", "pyproject.toml"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    suffixes = {".py", ".md", ".js", ".html", ".css", ".toml", ""}
    return [ROOT / name for name in listed.split()
            if Path(name).suffix in suffixes and Path(name).name != Path(__file__).name]


def offending(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for path in project_text():
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):  # binary, or a link to a folder
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line) and not UPSTREAM.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_issue_numbers_in_code_tests_or_docs():
    assert offending(ISSUE) == []


def test_no_diary_of_work_sessions_in_code_tests_or_docs():
    assert offending(DIARY) == []


def test_the_patterns_catch_what_they_are_for():
    assert ISSUE.search("search packs for a profile (issue 12, point 2)")
    assert ISSUE.search("Issue 10: a room keeps its options")
    assert DIARY.search("on this round's final code")
    assert DIARY.search("two rounds ago the runs had errors")
    assert not DIARY.search("every hand of the last round is shown")
    assert not DIARY.search("the seat's 13 cards this round (the engine's own use)")
    assert UPSTREAM.search("(numba issues 6061 and 6713)")
