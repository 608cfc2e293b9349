"""/puzzles in Chromium: a Crossroads puzzle solved by clicking its answer on the table
(the card, then the end of the trail), the verdict with its theme, the puzzle rating and
its change, and the next puzzle; a wrong move says the answer. At 1280×800 and 390×844, in
both colour schemes; screenshots under screenshots/web/puzzles-*.png."""

from __future__ import annotations

import re

import pytest
from contrast import low_contrast

from chuko.practice.puzzles import by_id

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def click_move(page, move: str) -> None:
    """Pick the move's card on the layout, then the end of the trail it goes to."""
    page.locator(f".layout .card[data-pos='{move[0]}']").click()
    end = move[1] if len(move) > 1 else "start"
    page.locator(f".end-zone.ready[data-end='{end}']").click()


def shown_puzzle(page) -> str:
    page.wait_for_selector("#board[data-puzzle] .layout .card")
    return page.locator("#board").get_attribute("data-puzzle")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_a_puzzle_is_solved_by_clicking_its_answer(pages, shot, size, scheme):
    page = pages.new(*SIZES[size])
    page.emulate_media(color_scheme=scheme)
    page.goto("/puzzles")
    ident = shown_puzzle(page)
    assert re.search(r"Your puzzle rating: \d+", page.locator("#rating").inner_text())
    shot(page, f"puzzles-{size}-{scheme}-asked")
    puzzle = by_id(ident)
    click_move(page, puzzle.answer)
    page.wait_for_selector("#verdict.solved:not([hidden])")
    assert page.locator("#verdict-text").inner_text().startswith("Right!")
    assert page.locator("#theme").inner_text() == puzzle.sentence
    assert re.search(r"\(\+\d+\)", page.locator("#rating").inner_text())
    assert low_contrast(page) == []
    shot(page, f"puzzles-{size}-{scheme}-solved")
    page.locator("#next").click()
    page.wait_for_function("(id) => document.querySelector('#board').dataset.puzzle !== id",
                           arg=ident)
    assert page.locator("#verdict").is_hidden()


def test_a_wrong_move_names_the_answer_and_lowers_the_rating(pages, shot):
    page = pages.new(*SIZES["phone"])
    page.goto("/puzzles")
    puzzle = by_id(shown_puzzle(page))
    state = puzzle.state()
    wrong = next(str(m) for m in state.legal_moves(state.to_move[0]) if str(m) != puzzle.answer)
    click_move(page, wrong)
    page.wait_for_selector("#verdict.missed:not([hidden])")
    text = page.locator("#verdict-text").inner_text()
    assert text.startswith(f"Not this one: after {wrong} (") and f"after {puzzle.answer} (" in text
    assert re.search(r"\(-\d+\)", page.locator("#rating").inner_text())
    shot(page, "puzzles-phone-light-missed")


def test_a_puzzle_is_answered_from_the_keyboard_and_the_next_comes_with_enter(pages):
    page = pages.new(*SIZES["phone"])
    page.goto("/puzzles")
    ident = shown_puzzle(page)
    page.locator("input.typed-move").fill(by_id(ident).answer.lower())
    page.keyboard.press("Enter")
    page.wait_for_selector("#verdict.solved:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "next"
    page.keyboard.press("Enter")
    page.wait_for_function("(id) => document.querySelector('#board').dataset.puzzle !== id",
                           arg=ident)
