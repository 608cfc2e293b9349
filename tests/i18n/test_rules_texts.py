"""The rules texts in every shipped language: each game's rules translated whole into
each language beside the English (rules/<game>.<lang>.md), shaped as the English (the same
headings at the same levels, the same tables and lists, and every piece of code — the
commands, moves and card codes a player types — byte for byte), naming the browser's
controls in the words of docs/glossary.md, and served in the reader's language by the one
function every front end reads them through, English where there is no translation."""

from __future__ import annotations

import argparse
import json
import re
import warnings
from importlib import import_module
from importlib.resources import files
from pathlib import Path

import pytest

from chuko.cli import rules as rules_command
from chuko.games import BUILT_IN, game_ids, rules_text
from chuko.i18n import DEFAULT, LANGUAGES

GAMES = [import_module(name).Game for name in BUILT_IN]
TRANSLATED = sorted(set(LANGUAGES) - {DEFAULT})
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]+`")
GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"


def translation_file(game_id: str, lang: str) -> str:
    """The text of the file rules/<game>.<lang>.md beside the game's English rules."""
    package, _, path = next(g for g in GAMES if g.id == game_id).descriptor.integrations \
        .rules.partition(":")
    translated = path.removesuffix(".md") + f".{lang}.md"
    return files(package).joinpath(translated).read_text(encoding="utf-8")


def headings(text: str) -> list[int]:
    """The level of each heading, in order."""
    return [len(hashes) for hashes in re.findall(r"^(#+) ", FENCE.sub("", text), re.M)]


def code(text: str) -> list[str]:
    """Every fenced block, then every inline code span, in order: what is typed or read by
    the program, never translated."""
    return FENCE.findall(text) + CODE_SPAN.findall(FENCE.sub("", text))


def tables(text: str) -> list[int]:
    """Each table row's number of cells, in order."""
    return [line.count("|") for line in text.splitlines() if line.startswith("| ")]


def list_items(text: str) -> list[str]:
    """The marker of each line a Markdown reader takes for a list item ("1.", "-"), with
    its indent: a wrapped line that starts "30. " is one, by accident."""
    return re.findall(r"^( *(?:\d+[.)]|[-*+])) ", FENCE.sub("", text), re.M)


CASES = [(game.id, lang) for game in GAMES for lang in TRANSLATED]


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_every_shipped_language_has_every_games_rules_translated(game_id, lang):
    translated = translation_file(game_id, lang)
    english = rules_text(game_id)
    assert rules_text(game_id, lang) == translated != english
    assert translated.splitlines()[0] == english.splitlines()[0]  # "# Chükö": a name
    assert len(translated.split()) > 0.7 * len(english.split())  # whole, not a summary


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_a_translation_keeps_the_headings_tables_lists_and_code_of_the_english(game_id, lang):
    translated, english = translation_file(game_id, lang), rules_text(game_id)
    assert headings(translated) == headings(english)
    assert tables(translated) == tables(english)
    assert list_items(translated) == list_items(english)
    assert code(translated) == code(english)
    assert not re.search(r"\b[GCVKH]\d\b", translated)  # no ruling ids, as in English


def glossary_labels(lang: str) -> dict[str, str]:
    """The browser's labels docs/glossary.md gives: each English label in bold → the one
    in bold in the language's column, in the same order in the cell."""
    rows = [line.split("|")[1:-1] for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")]
    column = [cell.strip() for cell in rows[0]].index(LANGUAGES[lang])
    labels = {}
    for row in rows:
        english, translated = (re.findall(r"\*\*(.+?)\*\*", row[i]) for i in (0, column))
        assert len(english) == len(translated), row
        labels.update(zip(english, translated, strict=True))
    return labels


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_the_browsers_controls_are_named_in_the_glossarys_words(game_id, lang):
    """The controls "In the browser" names (its last section, in bold) are the glossary's
    translations of the English's, which the catalogues' translators follow too."""
    last_section = re.compile(r"^### [^\n]*\n(?:(?!^#).)*\Z", re.M | re.S)
    english, translated = (re.findall(r"\*\*(.+?)\*\*", last_section.search(text)[0])
                           for text in (rules_text(game_id), translation_file(game_id, lang)))
    labels = glossary_labels(lang)
    assert english, "the English rules name the browser's controls in bold"
    assert translated == [labels.get(control, f"(no word for {control!r})")
                          for control in english]


def test_the_shape_checks_catch_a_changed_heading_a_translated_command_and_a_stray_list():
    english = "# Game\n\n## Moves\n\nType `hint`.\n\n| a | b |\n| --- | --- |\n"
    assert headings("# Spiel\n\n### Züge\n") != headings(english)
    assert code("Gib `tipp` ein.") != code(english)
    assert tables("| a | b | c |\n") != tables(english)
    assert list_items("- 2 6 7 8 9 10 11 14 15 21\n  22 30. The") == ["-"]
    assert list_items("- 2 6 7 8 9 10 11 14 15 21 22\n  30. Das") == ["-", "  30."]


@pytest.mark.parametrize("lang", ["xx", "en", "../chuko", "DE", "", "de_DE"])
def test_a_language_without_a_translation_reads_the_english(lang):
    assert rules_text("chuko", lang) == rules_text("chuko") == rules_text("chuko", None)


def test_a_regional_language_reads_its_languages_translation():
    assert rules_text("caravan", "de-AT") == translation_file("caravan", "de")


def test_a_game_with_no_translations_reads_its_english_in_every_language():
    plug_ins = [game_id for game_id in game_ids() if game_id not in {g.id for g in GAMES}]
    for game_id in plug_ins:
        assert rules_text(game_id, "de") == rules_text(game_id)


def test_chuko_rules_prints_the_rules_in_the_callers_language(capsys):
    args = argparse.Namespace(game="crossroads", lang="es", json=True, plain=False)
    assert rules_command.run(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["markdown"] == translation_file("crossroads", "es")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from chuko.server import create_app

    folder = tmp_path_factory.mktemp("rules-server")
    with TestClient(create_app(f"sqlite:///{folder}/chuko.db", bot_delay=0)) as started:
        yield started


def served(client, game_id: str, **headers: str) -> str:
    answer = client.get(f"/api/games/{game_id}/rules", headers=headers)
    assert answer.status_code == 200
    assert "accept-language" in answer.headers["vary"].lower()
    return answer.json()["markdown"]


def test_the_served_rules_in_german_are_the_german_file(client):
    german = translation_file("chuko", "de")
    assert served(client, "chuko", **{"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}) == german
    assert served(client, "chuko", Cookie="chuko_lang=de") == german


def test_the_language_cookie_wins_over_the_browsers_and_a_strange_one_is_ignored(client):
    assert served(client, "chuchula", Cookie="chuko_lang=hu", **{"Accept-Language": "es"}) == \
        translation_file("chuchula", "hu")
    assert served(client, "chuchula", Cookie="chuko_lang=../x", **{"Accept-Language": "es"}) == \
        translation_file("chuchula", "es")


def test_the_served_rules_in_an_unknown_language_are_the_english(client):
    english = rules_text("caravan")
    assert served(client, "caravan", **{"Accept-Language": "xx-YY, tlh;q=0.8"}) == english
    assert served(client, "caravan") == english
