"""The rules page in the reader's language: a browser asking for German, Spanish or
Hungarian (its Accept-Language) is shown the game's rules in that language, headings and
tables drawn as the English's are, and a language chuko does not ship gets the English."""

from __future__ import annotations

import re

import pytest

from chuko.games import rules_text

SHIPPED = ["de", "es", "hu"]


def headings(markdown: str) -> list[str]:
    return [line.lstrip("#").strip().replace("`", "").replace("*", "")
            for line in markdown.splitlines() if re.match(r"#{1,6} ", line)]


def open_rules(pages, game: str, accept_language: str, **size):
    page = pages.new(**size)
    page.set_extra_http_headers({"Accept-Language": accept_language})
    page.goto(f"/rules/{game}")
    article = page.locator(f"#rules[data-game='{game}']")
    article.wait_for()
    return page, article


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_rules_page_shows_the_rules_in_the_browsers_language(pages, shot, lang):
    page, article = open_rules(pages, "chuchula", f"{lang},en;q=0.5")
    shown = article.locator("h1, h2, h3, h4, h5, h6").all_inner_texts()
    assert shown == headings(rules_text("chuchula", lang)) != headings(rules_text("chuchula"))
    assert article.locator("table").first.locator("tbody tr").count() == 6  # the six types
    shot(page, f"rules-chuchula-{lang}")
    phone, _ = open_rules(pages, "caravan", lang, width=390, height=844)
    shot(phone, f"rules-caravan-{lang}-phone", full_page=False)


def test_a_language_chuko_does_not_ship_gets_the_english_rules(pages):
    _, article = open_rules(pages, "crossroads", "tlh,xx;q=0.9")
    shown = article.locator("h1, h2, h3, h4, h5, h6").all_inner_texts()
    assert shown == headings(rules_text("crossroads"))
