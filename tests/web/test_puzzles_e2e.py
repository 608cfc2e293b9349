"""/puzzles in Chromium: a Crossroads puzzle solved by clicking its answer on the table
(the card, then the end of the trail), the verdict with its theme, the puzzle rating and
its change, and the next puzzle; a wrong move keeps the answer until asked and may be
retried, unrated; a chosen theme gives its puzzles and is kept; a streak moves on with each
solve and ends at the first miss. At 1280×800 and 390×844, in both colour schemes;
screenshots under screenshots/web/puzzles-*.png."""

from __future__ import annotations

import re

import pytest
from contrast import low_contrast

from chuko.practice.puzzle_themes import BY_ID
from chuko.practice.puzzles import by_id, catalogue

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# Each size in one scheme: the page's look in both is the solved puzzle's test's.
LOOKS = [("desktop", "light"), ("phone", "dark")]


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


def wrong_move(ident: str) -> str:
    puzzle = by_id(ident)
    state = puzzle.state()
    return next(str(m) for m in state.legal_moves(state.to_move[0]) if str(m) != puzzle.answer)


def test_a_wrong_move_keeps_the_answer_until_asked_and_lowers_the_rating(pages, shot):
    page = pages.new(*SIZES["phone"])
    page.goto("/puzzles")
    puzzle = by_id(shown_puzzle(page))
    wrong = wrong_move(puzzle.id)
    click_move(page, wrong)
    page.wait_for_selector("#verdict.missed:not([hidden])")
    text = page.locator("#verdict-text").inner_text()
    assert text.startswith(f"Not this one: {wrong} (") and puzzle.answer not in text
    assert re.search(r"\(-\d+\)", page.locator("#rating").inner_text())
    shot(page, "puzzles-phone-light-missed")
    page.locator("#reveal").click()
    text = page.locator("#verdict-text").inner_text()
    assert text.startswith(f"Not this one: after {wrong} (") and f"after {puzzle.answer} (" in text
    assert page.locator("#theme").inner_text() == puzzle.sentence


@pytest.mark.parametrize(("size", "scheme"), LOOKS)
def test_a_retry_after_a_miss_is_judged_and_unrated(pages, shot, size, scheme):
    page = pages.new(*SIZES[size])
    page.emulate_media(color_scheme=scheme)
    page.goto("/puzzles")
    ident = shown_puzzle(page)
    click_move(page, wrong_move(ident))
    page.wait_for_selector("#verdict.missed:not([hidden])")
    rating = page.locator("#rating").inner_text()
    assert page.evaluate("document.activeElement.id") == "retry"
    page.locator("#retry").click()
    assert page.locator("#verdict").is_hidden()
    assert page.locator("#board").get_attribute("data-puzzle") == ident
    click_move(page, by_id(ident).answer)
    page.wait_for_selector("#verdict.solved:not([hidden])")
    assert page.locator("#unrated").inner_text() == "Solved on a retry: unrated."
    assert page.locator("#rating").inner_text() == rating
    assert low_contrast(page) == []
    shot(page, f"puzzles-{size}-{scheme}-retried")


def test_a_chosen_theme_gives_its_puzzles_and_is_kept(pages):
    page = pages.new(*SIZES["desktop"])
    page.goto("/puzzles")
    shown_puzzle(page)
    options = page.locator("#theme-choice option").all_inner_texts()
    assert options[0] == "Any theme" and any(re.fullmatch(r"Denying a point \([\d,]+\)", o)
                                             for o in options)
    with page.expect_response(lambda r: "/api/puzzles/next?theme=deny" in r.url) as asked:
        page.locator("#theme-choice").select_option("deny")
    ident = asked.value.json()["puzzle"]["id"]
    assert by_id(ident).theme == "deny"
    page.wait_for_function("(id) => document.querySelector('#board').dataset.puzzle === id",
                           arg=ident)
    with page.expect_response(lambda r: "/api/puzzles/next" in r.url) as asked:
        page.reload()
    assert asked.value.url.endswith("?theme=deny")
    assert by_id(asked.value.json()["puzzle"]["id"]).theme == "deny"
    assert page.locator("#theme-choice").input_value() == "deny"


# The page's guest tries each puzzle, as the page itself would send it.
TRY_EACH = """async (tries) => {
  const statuses = [];
  for (const [id, move] of tries) {
    const answer = await fetch("/api/puzzles/try", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({id, move})});
    statuses.push(answer.status);
  }
  return statuses;
}"""


def test_a_theme_with_none_left_says_so_and_another_gives_a_puzzle(pages):
    page = pages.new(*SIZES["phone"])
    page.goto("/puzzles")
    shown_puzzle(page)
    quiet = [p for p in catalogue().values() if p.theme in BY_ID["quiet"].codes]
    statuses = page.evaluate(TRY_EACH, [[p.id, p.answer] for p in quiet])
    assert statuses == [200] * len(quiet)
    page.locator("#theme-choice").select_option("quiet")
    page.wait_for_selector("#notice.error")
    assert page.locator("#notice").inner_text() == (
        "You have tried every puzzle of that theme: choose another.")
    assert page.locator("#board").get_attribute("data-puzzle") is None
    assert page.locator("#board .card").count() == 0
    page.locator("#theme-choice").select_option("")
    assert by_id(shown_puzzle(page)).theme not in BY_ID["quiet"].codes
    assert page.locator("#notice").inner_text() == ""


def play_on(page, move: str) -> None:
    page.locator("input.typed-move").fill(move.lower())
    page.keyboard.press("Enter")


@pytest.mark.parametrize(("size", "scheme"), LOOKS)
def test_a_streak_moves_on_with_each_solve_and_ends_at_the_first_miss(pages, shot, size,
                                                                       scheme):
    page = pages.new(*SIZES[size])
    page.emulate_media(color_scheme=scheme)
    page.goto("/puzzles")
    shown_puzzle(page)
    page.locator("#mode-streak").click()
    assert page.locator("#mode-streak").get_attribute("aria-pressed") == "true"
    page.wait_for_selector("#streak:has-text('0 solved in a row')")
    assert page.locator("#theme-field").is_hidden() and page.locator("#rating").is_hidden()
    for solved in range(1, 4):
        ident = shown_puzzle(page)
        play_on(page, by_id(ident).answer)
        page.wait_for_function(
            "(id) => document.querySelector('#board').dataset.puzzle !== id", arg=ident)
        assert page.locator("#streak").inner_text().startswith(f"{solved} solved in a row")
        assert page.locator("#notice").inner_text() == (
            f"Puzzle {ident} solved: on to a harder one.")
        latest = page.locator("#streak-log li").last
        assert latest.inner_text().startswith(f"Puzzle {ident} Right!")
        assert latest.get_attribute("value") == str(solved)
    shot(page, f"puzzles-{size}-{scheme}-streak")
    ident = shown_puzzle(page)
    play_on(page, wrong_move(ident))
    page.wait_for_selector("#streak-end:not([hidden])")
    assert page.locator("#streak-summary").inner_text() == (
        "Streak over: 3 solved in a row. Your best: 3.")
    assert f"after {by_id(ident).answer} (" in page.locator("#streak-answer").inner_text()
    assert low_contrast(page) == []
    shot(page, f"puzzles-{size}-{scheme}-streak-over")
    page.locator("#new-streak").click()
    page.wait_for_selector("#streak-end[hidden]", state="attached")
    page.wait_for_selector("#streak:has-text('0 solved in a row')")
    assert page.locator("#streak").inner_text().endswith("Best: 3")


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
