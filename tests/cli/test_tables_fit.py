"""Tables fit where they are printed and never break a word: on a terminal 80 or 60 columns
wide, columns wrap only between words (or, too narrow for that, each row becomes lines of
its own); into a pipe or a file, every row is one line of aligned columns."""

import io
import itertools
import json
import re

import pytest
from rich.console import Console

from chuko.console import print_table
from terminal_session import chuko

# A study of bot games: its table has nine columns, long headers and intervals.
STUDY = ("study", "chuko", "--games", "4", "--seed", "1", "--players", "2,4")


@pytest.fixture
def study(run_chuko):
    status, out, _ = run_chuko(*STUDY, "--json")
    assert status == 0
    return json.loads(out)


def words_of(table):
    for cell in itertools.chain(table["columns"], *table["rows"]):
        yield from cell.split()


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize("columns", [80, 60])
def test_a_study_on_a_terminal_fits_its_width_and_breaks_no_word(study, columns):
    session = chuko(*STUDY, columns=columns)
    assert session.wait() == 0, session.text
    shown = session.text[session.text.index(study["title"]):]  # below the progress bar
    assert max(len(line) for line in shown.splitlines()) <= columns, shown
    tokens = set(re.split(r"[\s│┃─━]+", shown))
    broken = [word for table in study["tables"] for word in words_of(table)
              if word not in tokens]
    assert broken == [], shown


def test_a_study_into_a_pipe_is_one_aligned_line_per_row(run_chuko, study):
    status, out, _ = run_chuko(*STUDY)
    assert status == 0
    lines = out.splitlines()
    for table in study["tables"]:
        for row in [table["columns"], *table["rows"]]:
            pattern = " {2,}".join(re.escape(cell) for cell in row)
            line = next((line for line in lines if re.search(pattern, line)), None)
            assert line is not None, f"{row} is not one line of:\n{out}"
            starts, end = [], 0
            for cell in row:  # each cell after the one before
                starts.append(line.index(cell, end))
                end = starts[-1] + len(cell)
            if row is table["columns"]:
                header = starts
            else:
                assert starts == header, f"{line!r} is not aligned under its header"


@pytest.mark.parametrize("terminal", [True, False])
def test_markup_colours_a_cell_and_a_header_may_take_two_lines(terminal):
    out = Console(file=io.StringIO(), force_terminal=terminal, width=40, color_system=None)
    print_table("Packs", ["Pack", "Wins\n40–60%"], [["2, 3, 4", "[green]51.0 [48.1, 53.9][/]"]],
                right=[1], out=out)
    text = out.file.getvalue()
    assert "[green]" not in text and "51.0 [48.1, 53.9]" in text
    assert ("Wins 40–60%" in text) is not terminal  # a pipe gets the header on one line
