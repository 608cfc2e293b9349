"""The club in every shipped language, and laid out right to left: the home page, a game
played to its end, a lesson and the daily, with nothing shown untranslated (the home page,
a table and a lesson right to left, with their overlaps measured: test_rtl_e2e.py).

A shipped language shows no sentence of the English catalogue whose translation differs.
The pseudo-language (`qps`) accents every letter a catalogue translates, so any English word
left on screen is a string that bypassed the catalogues altogether: written in a page, a
script or the server without going through them."""

from __future__ import annotations

import datetime
import re
from functools import cache

import pytest
from play_helpers import create_room, play_out

from chuko.games import BUILT_IN, registry
from chuko.i18n.catalogues import catalogue
from chuko.i18n.extract import shipped
from chuko.practice.daily import facts_for

pytestmark = pytest.mark.e2e

DAY = "2026-11-29"
# Every visible text node and every attribute people read (hidden ones left out), less
# what is marked never to be translated.
SHOWN = """(plugins) => {
  const found = [];
  // A plug-in game's words are its own: it ships its translations or none.
  const foreign = plugins.map((id) => `[data-game="${id}"]`).join(", ") || "#none";
  const readable = (el) => el && !el.closest(`script, style, [translate='no'], ${foreign}`)
    && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    if (text && readable(walker.currentNode.parentElement)) found.push(text);
  }
  for (const el of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (!readable(el)) continue;
    for (const name of ["title", "placeholder", "aria-label"]) {
      const value = el.getAttribute(name);
      if (value) found.push(value);
    }
  }
  return found;
}"""
# Words with a letter the pseudo-language would have accented: English left as it was.
PLAIN_WORD = re.compile(r"\b[A-Za-z]*[aeiouAEIOUcnsyCNSY][A-Za-z]*\b")
# Names people and the server chose, and the games' names: never translated. ("and" and
# the months are the browser's own: Intl formats lists and dates, and knows no
# pseudo-language.)
NAMES = re.compile(r"^(Guest( \d+)?|Ann|Bea|chükö|Chükö|Caravan|Chuchula|Crossroads|and"
                   r"|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|[A-L]|\d+[a-z]?)$")
PLUGINS = sorted(set(registry()) - {name.rsplit(".", 1)[-1] for name in BUILT_IN})
# A message's own words, outside its placeholders.
_OWN_WORDS = re.compile(r"[A-Za-z]{3,}")


@cache
def english_sentences(lang: str) -> list[re.Pattern[str]]:
    """The source sentences whose `lang` translation differs, as patterns (a placeholder
    matches anything) — what must not appear while the page speaks `lang`."""
    found = catalogue(lang)
    patterns = []
    for msgid, text in found.singular.items():
        own = _OWN_WORDS.findall(re.sub(r"\{[^{}]*\}", " ", msgid))
        if text != msgid and len(own) >= 2:
            pattern = re.escape(msgid)
            pattern = re.sub(r"\\\{\w+\\\}", ".+", pattern)
            patterns.append(re.compile(pattern))
    return patterns


def untranslated(page, lang: str) -> list[str]:
    shown = page.evaluate(SHOWN, PLUGINS)
    if lang == "qps":
        left = [text for text in shown for word in PLAIN_WORD.findall(text)
                if len(word) > 2 and not NAMES.match(word) and not NAMES.match(text)]
        return sorted(set(left))
    return sorted({text for text in shown
                   if any(pattern.fullmatch(text) for pattern in english_sentences(lang))})


def assert_all_said(page, lang: str) -> None:
    left = untranslated(page, lang)
    assert not left, f"shown untranslated in {lang}: {left}"


def speaking(pages, lang: str, *, width=1280, height=800):
    page = pages.new(width, height)
    page.context.add_cookies([{"name": "chuko_lang", "value": lang,
                               "url": pages.base_url}])
    return page


LANGUAGES = [*shipped(), "qps"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_speaks_the_language(pages, shot, lang):
    page = speaking(pages, lang)
    page.goto("/")
    page.locator("#games form").first.wait_for()
    assert page.locator("html").get_attribute("lang") == lang
    assert_all_said(page, lang)
    shot(page, f"lang-home-{lang}", full_page=False)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_played_to_its_end_speaks_the_language(pages, shot, lang):
    page = speaking(pages, lang, width=390, height=844)
    create_room(page, "chuko", {"players": 2}, [("me",), ("bot", "easy")], name="Ann")
    page.wait_for_url("**/room/**")
    page.locator(".hand .card").first.wait_for()
    assert_all_said(page, lang)
    play_out(page)
    page.locator("#result, .result, .end-panel").first.wait_for()
    assert_all_said(page, lang)
    shot(page, f"lang-game-end-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lesson_speaks_the_language_and_its_refusal_too(pages, shot, lang):
    page = speaking(pages, lang)
    page.goto("/learn/chuko")
    page.locator("#step-title").wait_for()
    page.locator(".hand .card[data-card='21']").click()  # refused: no common factor
    page.locator("#verdict.error").wait_for()
    refusal = page.locator("#verdict").inner_text()
    assert ("21 and 10 share no prime factor" in refusal) == (lang == "en")
    assert_all_said(page, lang)
    shot(page, f"lang-lesson-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_daily_speaks_the_language_to_its_share_line(pages, shot, lang):
    page = speaking(pages, lang)
    page.goto(f"/daily/{DAY}")
    page.locator("#board[data-version='0'] .layout").wait_for()
    for number, move in enumerate(str(move) for move in facts_for(
            datetime.date.fromisoformat(DAY)).line):
        page.locator(f".layout .card[data-pos='{move[0]}']").click()
        page.locator(f".end-zone[data-end='{move[1:] or 'start'}']").click()
        page.locator(f"#board[data-version='{number + 1}']").wait_for()
    page.locator("body[data-finished='true']").wait_for()
    assert_all_said(page, lang)
    shot(page, f"lang-daily-{lang}")


def mirrored(page) -> None:
    """The page laid out right to left: its brand at the right, nothing wider than the
    window."""
    page.evaluate("document.documentElement.dir = 'rtl'")
    width = page.evaluate("window.innerWidth")
    assert page.locator("header.top .brand").bounding_box()["x"] > width / 2
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_game_to_its_end_and_the_daily_lay_out_right_to_left(pages, shot):
    page = pages.new(390, 844)
    create_room(page, "chuko", {"players": 2}, [("me",), ("bot", "easy")], name="Ann")
    page.wait_for_url("**/room/**")
    page.locator(".hand .card").first.wait_for()
    mirrored(page)
    play_out(page)
    page.locator("#result, .result, .end-panel").first.wait_for()
    mirrored(page)
    shot(page, "rtl-game-end")
    daily = pages.new(390, 844)
    daily.goto(f"/daily/{DAY}")
    daily.locator("#board[data-version='0'] .layout").wait_for()
    mirrored(daily)
    shot(daily, "rtl-daily", full_page=False)


def test_the_headers_switch_changes_the_language_and_keeps_it(pages, shot):
    page = pages.new(1280, 800)
    page.goto("/", wait_until="domcontentloaded")
    switch = page.locator("header.top select.language")
    switch.wait_for()
    assert page.locator("html").get_attribute("lang") == "en"
    with page.expect_navigation():
        switch.select_option("hu")
    page.locator("header.top select.language").wait_for()
    assert page.locator("html").get_attribute("lang") == "hu"
    assert page.locator("header.top select.language").input_value() == "hu"
    page.goto("/lobby")
    assert page.locator("html").get_attribute("lang") == "hu"
    shot(page, "lang-switched-hu", full_page=False)
