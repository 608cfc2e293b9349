"""Sentences that know their message id, so the rules word them once and every edge can
say them in the reader's language.

A `Text` is the English sentence itself (a `str`), so code and tests that read English
are unchanged; it also keeps the message id (the English template, as gettext has it)
and the parameters, which an edge looks up in a catalogue (`chuko.i18n`). The engines
import nothing else to speak: no catalogue, no locale.
"""

from __future__ import annotations

import string
from typing import Any


class Text(str):
    """`Text("{a} and {b} share no prime factor", a=21, b=10)` reads as its English
    sentence; `msgid` and `params` let an edge translate it. Parameters may be Texts
    themselves (translated in turn) or plain values (names, numbers: kept)."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Text:
        text = super().__new__(cls, msgid.format(**params) if params else msgid)
        text.msgid = msgid
        text.params = params
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.msgid, self.params))


class Plural(Text):
    """A sentence with a count: `Plural("{n} point", "{n} points", n=3)`; the catalogue
    picks the form the language's plural rule gives for `n`."""

    plural: str

    def __new__(cls, singular: str, plural: str, /, **params: Any) -> Plural:
        english = singular if params["n"] == 1 else plural
        text = str.__new__(cls, english.format(**params))
        text.msgid = singular
        text.plural = plural
        text.params = params
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_plural, (self.msgid, self.plural, self.params))


def _rebuild(cls: type[Text], msgid: str, params: dict[str, Any]) -> Text:
    return cls(msgid, **params)


def _rebuild_plural(singular: str, plural: str, params: dict[str, Any]) -> Plural:
    return Plural(singular, plural, **params)


def placeholders(template: str) -> set[str]:
    """The names of a template's `{placeholders}`: a translation must keep the same set."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
