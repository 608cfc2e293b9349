"""Texts said in a language: parameters translated in turn, plural forms by the language's
rule, numbers in the locale's format, and the pseudo-language marking every message."""

from __future__ import annotations

from chuko.core.text import Plural, Text
from chuko.i18n import words
from chuko.i18n.catalogues import Catalogue
from chuko.i18n.pseudo import pseudo
from chuko.i18n.words import Words, plural_categories


def spanish() -> Words:
    return Words("es", Catalogue(
        "es", singular={"{a} and {b}": "{a} y {b}", "You": "Tú"},
        plurals={"{n} point": ("{n} punto", "{n} de puntos", "{n} puntos")},
        domains_of={"{a} and {b}": {"web", "pages"}}))


def test_english_says_a_text_as_it_reads():
    text = Text("{a} and {b}", a=Text("You"), b="Ann")
    assert words("en").say(text) == "You and Ann" == text


def test_parameters_that_are_texts_are_translated_too():
    assert spanish().say(Text("{a} and {b}", a=Text("You"), b="Ann")) == "Tú y Ann"


def test_a_count_takes_the_languages_plural_form():
    said = spanish()
    assert said.say(Plural("{n} point", "{n} points", n=1)) == "1 punto"
    assert said.say(Plural("{n} point", "{n} points", n=3)) == "3 puntos"
    assert said.say(Plural("{n} point", "{n} points", n=1_000_000)) == "1000000 de puntos"


def test_localize_says_every_text_in_a_payload_and_keeps_the_rest():
    payload = {"error": Text("You"), "seat": 1, "lines": [Text("{a} and {b}", a=1, b=2)]}
    assert spanish().localize(payload) == {"error": "Tú", "seat": 1, "lines": ["1 y 2"]}


def test_numbers_follow_the_locale():
    assert words("en").number(1234.5) == "1,234.5"
    assert words("de").number(1234.5) == "1.234,5"


def test_unknown_languages_speak_english():
    assert words("xx").lang == "en"


def test_the_scripts_catalogue_holds_the_web_domain_and_the_plural_categories():
    data = spanish().web_catalogue()
    assert data["messages"] == {"{a} and {b}": "{a} y {b}"}
    assert data["categories"] == plural_categories("es") == ["one", "many", "other"]
    assert data["languages"]["hu"] == "Magyar"


def test_pseudo_keeps_placeholders_tags_and_entities():
    assert pseudo('Play {card} <a href="/x">now</a> &middot;') == (
        '⟦Pláý {card} <a href="/x">ñów</a> &middot;⟧')
