"""Saying things in one language: messages looked up, counts given their plural form,
numbers written as the locale writes them."""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal

from chuko.core.text import Plural, Text
from chuko.i18n import pseudo
from chuko.i18n.catalogues import Catalogue, catalogue
from chuko.i18n.languages import DEFAULT, LANGUAGES


class Words:
    """How one language says the project's messages."""

    def __init__(self, lang: str, found: Catalogue) -> None:
        self.lang = lang
        self._catalogue = found
        self._locale = Locale.parse(lang if lang != pseudo.CODE else DEFAULT)

    def gettext(self, msgid: str) -> str:
        """The translation of `msgid`, or `msgid` itself where there is none."""
        return self._catalogue.singular.get(msgid, msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message the language's plural rule gives for `n`."""
        forms = self._catalogue.plurals.get(singular)
        if not forms:
            return singular if n == 1 else plural
        return forms[min(self.plural_index(n), len(forms) - 1)]

    def plural_index(self, n: int) -> int:
        """gettext's plural form index for `n` in this language."""
        return _plural_indexer(self._locale.language)(n)

    def say(self, value: Any) -> Any:
        """A Text worded in this language (its Text parameters in turn); anything else,
        a name or a number, as it is."""
        if not isinstance(value, Text):
            return value
        params = {name: self.say(param) for name, param in value.params.items()}
        if isinstance(value, Plural):
            template = self.ngettext(value.msgid, value.plural, int(params["n"]))
        else:
            template = self.gettext(value.msgid)
        return template.format(**params) if params else template

    def localize(self, payload: Any) -> Any:
        """`payload` (JSON-like) with every Text in it said in this language."""
        if isinstance(payload, Text):
            return self.say(payload)
        # Plain values and dicts first: checking against the Mapping ABC costs a
        # microsecond a value, which a server's state message of a few hundred values feels.
        if payload is None or isinstance(payload, (str, int, float)):
            return payload
        if isinstance(payload, (dict, Mapping)):
            return {key: self.localize(item) for key, item in payload.items()}
        if isinstance(payload, (list, tuple)):
            return [self.localize(item) for item in payload]
        return payload

    def number(self, value: float) -> str:
        """A number as this language writes it: 1,234.5 in English, 1.234,5 in German."""
        return str(format_decimal(value, locale=self._locale))

    def web_catalogue(self) -> dict[str, Any]:
        """What the page's JavaScript needs: the web domain's messages and the language's
        plural categories (Intl.PluralRules' names) in gettext's order."""
        found = self._catalogue
        return {
            "lang": self.lang,
            "messages": {key: text for key, text in found.singular.items()
                         if "web" in found.domains_of.get(key, ())},
            "plurals": {key: list(forms) for key, forms in found.plurals.items()
                        if "web" in found.domains_of.get(key, ())},
            "categories": plural_categories(self._locale.language),
            "languages": LANGUAGES,
        }


@lru_cache(maxsize=16)
def words(lang: str) -> Words:
    """The words of `lang` (a shipped language, or the test's pseudo-language); English
    for anything else."""
    if lang == pseudo.CODE:
        return Words(lang, pseudo.catalogue())
    if lang not in LANGUAGES:
        lang = DEFAULT
    return Words(lang, catalogue(lang))


@lru_cache(maxsize=16)
def _plural_indexer(language: str) -> Callable[[int], int]:
    """gettext's plural expression for `language` (C syntax), as a Python function."""
    return gettext.c2py(get_plural(language).plural_expr)


@lru_cache(maxsize=16)
def plural_categories(language: str) -> list[str]:
    """The CLDR category (one, few, many, other…) of each gettext plural index, found by
    asking both rules the same numbers."""
    locale = Locale.parse(language)
    index_of = _plural_indexer(language)
    categories: dict[int, str] = {}
    for n in [*range(0, 200), 1000, 1000000, 2000000]:
        categories.setdefault(index_of(n), locale.plural_form(n))
    return [categories.get(index, "other") for index in range(max(categories) + 1)]
