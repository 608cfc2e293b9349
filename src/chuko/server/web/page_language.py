"""A page of the front end in the visitor's language: its text translated unit by unit
(`chuko.i18n.html`), `<html lang dir>` set, and the scripts' JSON catalogue put in its head,
so the first paint already reads in that language."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from chuko.i18n import direction, words

_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_HEAD_END = re.compile(r"</head>", re.IGNORECASE)
# What makes every page part of the installable app (`installable.py`).
INSTALLABLE = ('<link rel="manifest" href="/manifest.webmanifest">'
               '<link rel="apple-touch-icon" href="/icons/192.png">'
               '<meta name="theme-color" content="#174f35">\n')


def translated_page(path: Path, lang: str) -> str:
    """The page at `path` in `lang` (made once per file version and language)."""
    stat = path.stat()
    return _translated(path, stat.st_mtime_ns, stat.st_size, lang)


@lru_cache(maxsize=256)
def _translated(path: Path, version: int, size: int, lang: str) -> str:
    from chuko.i18n.html import render

    said = words(lang)
    page = render(path.read_text(encoding="utf-8"), said.gettext)
    page = _HTML_TAG.sub(f'<html lang="{said.lang}" dir="{direction(said.lang)}">', page,
                         count=1)
    return _HEAD_END.sub(lambda _: INSTALLABLE + catalogue_script(lang) + "\n</head>", page,
                         count=1)


def catalogue_script(lang: str) -> str:
    """The scripts' catalogue as a JSON data block (no script runs it: the CSP allows it)."""
    data = json.dumps(words(lang).web_catalogue(), ensure_ascii=False, separators=(",", ":"))
    return ('<script type="application/json" id="catalogue">'
            + data.replace("</", "<\\/") + "</script>")
