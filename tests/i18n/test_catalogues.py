"""Every message of the sources is translated in every shipped language, and no
translation drops, adds or renames a placeholder or a tag: a sentence shown untranslated,
or one that would fill the wrong blank, fails here first."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from chuko.core.text import placeholders
from chuko.i18n.catalogues import DOMAINS, key, po_path, strings
from chuko.i18n.extract import shipped, template

# Each reads every domain's sources and catalogues: seconds, so in `make test`.
pytestmark = pytest.mark.slow

_TAG = re.compile(r"<[^<>]+>")


@cache
def source_ids(domain: str) -> frozenset[str]:
    return frozenset(key(message) for message in template(domain) if message.id)


@cache
def catalogue(lang: str, domain: str):
    with po_path(lang, domain).open("rb") as file:
        return {key(message): message for message in read_po(file, locale=lang, domain=domain)
                if message.id}


CASES = [(lang, domain) for lang in shipped() for domain in DOMAINS]


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_every_message_is_translated(lang, domain):
    found = catalogue(lang, domain)
    missing = sorted(msgid for msgid in source_ids(domain)
                     if msgid not in found or found[msgid].fuzzy
                     or not all(strings(found[msgid])))
    assert not missing, f"{len(missing)} untranslated in {lang}/{domain}.po: {missing[:8]}"


def changed(messages) -> list[tuple[str, str]]:
    """The translations among `messages` (msgid → babel Message) whose placeholders or tags
    are not their source's."""
    wrong = []
    for msgid, message in messages.items():
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        wanted = set().union(*(placeholders(source) for source in sources))
        tags = sorted(_TAG.findall(sources[0]))
        for index, text in enumerate(strings(message)):
            got = placeholders(text)
            # The singular form of a count may say "one" in words instead of {n}.
            words_for_one = len(sources) > 1 and index == 0 and got == wanted - {"n"}
            if text and (got != wanted and not words_for_one
                         or sorted(_TAG.findall(text)) != tags):
                wrong.append((msgid, text))
    return wrong


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_translations_keep_the_placeholders_and_tags_of_their_source(lang, domain):
    wrong = changed(catalogue(lang, domain))
    assert not wrong, f"{len(wrong)} in {lang}/{domain}.po change placeholders or tags: {wrong[:5]}"


def test_a_renamed_placeholder_a_lost_tag_and_a_dropped_count_are_caught():
    def entry(msgid, string):
        return Message(msgid, string)

    messages = {
        "{a} and {b}": entry("{a} and {b}", "{a} und {c}"),
        'See <a href="/x">this</a>': entry('See <a href="/x">this</a>', "Siehe dies"),
        "{n} card": entry(("{n} card", "{n} cards"), ("eine Karte", "Karten")),
        "Fine {x}": entry("Fine {x}", "Gut {x}"),
        "{n} point": entry(("{n} point", "{n} points"), ("ein Punkt", "{n} Punkte")),
    }
    assert [msgid for msgid, _ in changed(messages)] == [
        "{a} and {b}", 'See <a href="/x">this</a>', "{n} card"]


@pytest.mark.parametrize("lang", shipped())
def test_a_message_shown_in_several_parts_reads_the_same_in_each(lang):
    """Catalogues are merged per language at the edge: a message in two domains must not
    say two things, or which one shows would depend on the order they are read in."""
    first: dict[str, tuple[str, tuple[str, ...]]] = {}
    differ = []
    for domain in DOMAINS:
        for msgid, message in catalogue(lang, domain).items():
            said = strings(message)
            if msgid in first and first[msgid][1] != said:
                differ.append((msgid, first[msgid][0], domain))
            first.setdefault(msgid, (domain, said))
    assert not differ, f"{lang}: worded differently across domains: {differ[:5]}"
