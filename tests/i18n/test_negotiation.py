"""The language a visitor gets from their browser's Accept-Language: the best shipped one,
English otherwise, and never an error whatever the header holds."""

from __future__ import annotations

import pytest

from chuko.i18n import direction, negotiate


@pytest.mark.parametrize(("header", "lang"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("fr-FR, hu;q=0.5, es;q=0.7", "es"),
    ("pt-BR", "en"),
    ("HU", "hu"),
    ("en;q=0.1, de;q=0.2", "de"),
    ("de;q=0, es", "es"),
])
def test_the_best_shipped_language_is_chosen(header, lang):
    assert negotiate(header) == lang


@pytest.mark.parametrize("header", [
    None, "", "de;q=nan", "de;q=inf", "de;q=-1", "de;q=2", ";;;,,,", "x" * 100_000,
    "es;q=" + "9" * 5000, "\x00\xff", ",".join(["zz"] * 10_000) + ",de",
])
def test_a_hostile_header_falls_back_to_english(header):
    assert negotiate(header) == "en"


def test_right_to_left_scripts_get_rtl():
    assert direction("ar") == "rtl" and direction("he-IL") == "rtl"
    assert direction("de") == "ltr" and direction("qps") == "ltr"
