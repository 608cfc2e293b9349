"""A refusal on standard error is one line for programs, and on a terminal it is broken
between words at the terminal's width, never inside a word by the terminal itself."""

import pytest

from terminal_session import chuko

DEAL = "6 15 10 7 / 9 14 8 11 / 2 21 22 30"
SENTENCE = ("chuko: 'ZZ' is not a move: write the card's letter A–L, then L or R for the end "
            "(e.g. BR), or the letter alone for a first card.")


@pytest.mark.parametrize("columns", [70, 44])
def test_a_long_refusal_is_broken_between_words_at_the_terminals_width(columns):
    session = chuko("solve", "caravan", "--deal", DEAL, "--moves", "A ZZ", columns=columns)
    assert session.wait() == 2
    lines = session.text.strip().splitlines()
    assert len(lines) > 1 and max(map(len, lines)) <= columns, session.text
    assert " ".join(lines) == SENTENCE


def test_piped_the_refusal_stays_one_line(run_chuko):
    status, _, err = run_chuko("solve", "caravan", "--deal", DEAL, "--moves", "A ZZ")
    assert status == 2 and err == SENTENCE + "\n"
