"""The terminal speaks the language of `chuko --lang CODE`, else the locale's, else
English: every sentence of its own is a Text said at the edge, and so is an engine's
refusal read from the error's first argument; JSON stays as it is."""

from __future__ import annotations

import json

import pytest

import chuko.console
from chuko.console import locale_language, refusal, speaking, warn
from chuko.core.errors import IllegalMove
from chuko.core.text import Plural, Text
from chuko.i18n import Words
from chuko.i18n.catalogues import Catalogue, key
from chuko.i18n.extract import template
from chuko.i18n.pseudo import CLOSE, CODE, OPEN, pseudo

DAY = "2026-11-30"


@pytest.fixture(scope="module")
def terminal_messages():
    """The terminal's own messages as the sources hold them."""
    return [message for message in template("terminal") if message.id]


@pytest.fixture(scope="module")
def bracketed(terminal_messages) -> Words:
    """A language in which every message of the terminal and the engines reads ⟦bracketed⟧,
    so one that reaches the screen without its catalogue stands out as plain English."""
    found = Catalogue(CODE)
    for message in [*terminal_messages, *template("engines")]:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            found.plurals[key(message)] = (pseudo(message.id[0]), pseudo(message.id[1]))
        else:
            found.singular[key(message)] = pseudo(key(message))
    return Words(CODE, found)


@pytest.fixture
def languages_asked(monkeypatch, bracketed):
    """The codes the terminal asks words for: German answered in the bracketed language,
    the others as they are."""
    asked: list[str] = []
    shipped = chuko.console.words

    def words(lang: str) -> Words:
        asked.append(lang)
        return bracketed if lang == "de" else shipped(lang)

    monkeypatch.setattr(chuko.console, "words", words)
    for name in chuko.console.LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return asked


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LC_ALL": "es_ES@euro", "LANG": "de_DE.UTF-8"}, "es"),
    ({"LC_ALL": "", "LC_MESSAGES": "hu_HU.UTF-8", "LANG": "de_DE.UTF-8"}, "hu"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "pt_BR.UTF-8"}, "en"),  # not shipped
    ({}, "en"),
])
def test_the_locale_names_the_language_else_english(environ, lang):
    assert locale_language(environ) == lang


@pytest.mark.parametrize("argv", [["--lang", "xx", "play"], ["--lang=klingon", "rules"],
                                  ["--lang"]])
def test_an_unknown_lang_is_one_sentence_and_status_2(run_chuko, argv):
    status, out, err = run_chuko(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("chuko: There is no language ")
    assert "en, de, es, hu" in err


def test_lang_before_the_verb_beats_the_locale(run_chuko, languages_asked, monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    status, out, _ = run_chuko("--lang", "de", "play", stdin="help\nquit\n")
    assert status == 0 and languages_asked[-1] == "de"
    assert f"{OPEN}Píçk á gámé" in out  # the menu's prompt, said in the language
    status, out, _ = run_chuko("play", stdin="quit\n")
    assert status == 0 and languages_asked[-1] == "es" and OPEN not in out
    status, _, _ = run_chuko("--lang=HU", "play", stdin="quit\n")
    assert status == 0 and languages_asked[-1] == "hu"


def test_a_game_started_from_the_menu_keeps_the_language(run_chuko, languages_asked):
    status, out, _ = run_chuko("--lang", "de", "play", stdin="chuko\nquit\nquit\n")
    assert status == 0 and languages_asked == ["de"]
    assert f"{OPEN}Góódbýé.{CLOSE}" in out  # said by the game's own screen


def test_json_is_never_translated(run_chuko, languages_asked):
    _, english, _ = run_chuko("daily", "--date", DAY, "--json")
    _, said, _ = run_chuko("--lang", "de", "daily", "--date", DAY, "--json")
    assert said == english and json.loads(said)["date"] == DAY
    _, said, _ = run_chuko("--lang", "de", "puzzle", "--id", "5", "--answer", "DL", "--json")
    assert OPEN not in said and json.loads(said)["verdict"]["move"] == "DL"


@pytest.mark.parametrize(("argv", "script"), [
    (["play"], "help\nrules\nzz\nquit\n"),
    (["daily", "--date", DAY], "help\nhint\nundo\n99\nquit\n"),
    (["puzzle", "--id", "5"], "help\nzz\nquit\n"),
    (["play", "crossroads", "--seed", "1"], "help\nundo\n77\nquit\n"),
    (["play", "chuko", "--seed", "1"], "help\nquit\n"),
    (["play", "chuchula", "--seed", "1", "--players", "2"], "help\nAs\nquit\n"),
])
def test_no_sentence_of_the_terminals_own_reaches_the_screen_in_english(
        run_chuko, languages_asked, terminal_messages, argv, script):
    status, out, err = run_chuko("--lang", "de", *argv, stdin=script)
    assert status == 0 and "Traceback" not in err
    flat = " ".join(out.split())
    english = [message.id for message in terminal_messages
               if isinstance(message.id, str) and "{" not in message.id
               and len(message.id) > 12 and message.id in flat]
    assert english == []
    assert flat.count(OPEN) >= 5 and flat.count(OPEN) == flat.count(CLOSE)


def test_an_engines_refusal_is_said_from_the_errors_text_not_its_english(capsys):
    refused = IllegalMove(Text("{card} is not in your hand.", card="7"))
    found = Catalogue("xx", singular={"{card} is not in your hand.": "{card} hast du nicht."},
                      plurals={"{n} point": ("{n} Punkt", "{n} Punkte")})
    with speaking(Words("de", found)):
        assert refusal(refused) == "7 hast du nicht."
        assert refusal(ValueError(3)) == "3"  # not a sentence: as it is
        warn(Plural("{n} point", "{n} points", n=2))
    assert capsys.readouterr().out == "✗ 2 Punkte\n"
    assert refusal(refused) == "7 is not in your hand."  # English again after the block


def test_every_terminal_message_is_extracted_whole(capfd):
    # an f-string inside Text(...) is skipped by the extractor, with a warning
    messages = [message.id for message in template("terminal") if message.id]
    assert "Skipping f-string" not in capfd.readouterr().err
    assert "Your move ({accepts}):" in messages and "Goodbye." in messages
    assert all("[/]" not in str(message) for message in messages)  # no markup to keep
