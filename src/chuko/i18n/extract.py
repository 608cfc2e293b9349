"""`make i18n`: every message of the sources extracted by domain, and each shipped
language's catalogue brought up to date (new ids added empty, gone ones dropped).

    python -m chuko.i18n.extract           # update src/chuko/locale/*/LC_MESSAGES/*.po
    python -m chuko.i18n.extract --check   # list what is untranslated; exit 1 if any
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from chuko.i18n import html
from chuko.i18n.catalogues import DOMAINS, key, po_path, strings
from chuko.i18n.languages import DEFAULT, LANGUAGES

PACKAGE = Path(__file__).resolve().parent.parent

# Calls whose literal arguments are messages: Text(msgid, ...), Plural(one, other, ...)
# in Python; t(msgid, ...) and tn(one, other, n, ...) in the pages' JavaScript.
PYTHON_KEYWORDS: dict[str, Any] = {"Text": None, "Plural": (1, 2)}
SCRIPT_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2)}
# The lesson fields people read (the rest are deals, moves and letters).
LESSON_FIELDS = ("title", "text", "right", "hint", "aside")


@dataclass(frozen=True)
class Source:
    folder: str  # under the package
    pattern: str
    method: str
    keywords: dict[str, Any]


SOURCES: dict[str, list[Source]] = {
    "engines": [Source(folder, "**.py", "python", PYTHON_KEYWORDS)
                for folder in ("core", "games", "practice", "bots")],
    "server": [Source("server", "**.py", "python", PYTHON_KEYWORDS)],
    "terminal": [*(Source(folder, "**.py", "python", PYTHON_KEYWORDS)
                   for folder in ("tui", "cli", "analysis")),
                 Source("", "console.py", "python", PYTHON_KEYWORDS)],
    "web": [Source("web/js", "*.js", "javascript", SCRIPT_KEYWORDS)],
    "pages": [Source("web", "*.html", "chuko.i18n.extract:extract_html", {})],
    "lessons": [Source("games/lessons", "*.json", "chuko.i18n.extract:extract_lessons", {})],
}
assert set(SOURCES) == set(DOMAINS)


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for pages: each unit of `chuko.i18n.html`."""
    for unit in html.units(fileobj.read().decode("utf-8")):
        yield 1, "", unit, []


def extract_lessons(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                    options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for lessons: the fields people read, and every "wrong" answer."""
    for step in json.load(fileobj).get("steps", []):
        for name in LESSON_FIELDS:
            if isinstance(step.get(name), str):
                yield 1, "", step[name], []
        for answer in (step.get("wrong") or {}).values():
            yield 1, "", answer, []


def template(domain: str) -> Catalog:
    """The domain's messages as they stand in the sources."""
    catalog = Catalog(domain=domain, project="chuko", charset="utf-8")
    for source in SOURCES[domain]:
        found = extract_from_dir(str(PACKAGE / source.folder),
                                 method_map=[(source.pattern, source.method)],
                                 keywords=source.keywords, strip_comment_tags=True)
        for filename, lineno, message, comments, context in found:
            if message and (message[0] if isinstance(message, tuple) else message):
                catalog.add(message, None, [(str(Path(source.folder, filename)), lineno)],
                            auto_comments=comments, context=context)
    return catalog


def shipped() -> list[str]:
    return [lang for lang in LANGUAGES if lang != DEFAULT]


def update(domain: str, lang: str, source: Catalog) -> Catalog:
    """`lang`'s catalogue of `domain` brought up to date with `source` and written."""
    path = po_path(lang, domain)
    if path.is_file():
        with path.open("rb") as file:
            catalog = read_po(file, locale=lang, domain=domain)
    else:
        catalog = Catalog(locale=lang, domain=domain, project="chuko", charset="utf-8")
    catalog.update(source, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=0, no_location=True, omit_header=False,
                 sort_output=True)
    return catalog


def untranslated(catalog: Catalog) -> list[str]:
    return [key(message) for message in catalog
            if message.id and (message.fuzzy or not all(strings(message)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report untranslated messages; exit 1 if there are any")
    parser.add_argument("--domain", choices=DOMAINS, action="append",
                        help="only this domain (may repeat)")
    args = parser.parse_args(argv)
    gaps = 0
    for domain in args.domain or DOMAINS:
        source = template(domain)
        for lang in shipped():
            if args.check:
                with po_path(lang, domain).open("rb") as file:
                    catalog = read_po(file, locale=lang, domain=domain)
                ids = {key(message) for message in catalog}
                missing = [key(message) for message in source
                           if message.id and key(message) not in ids]
                missing += untranslated(catalog)
            else:
                missing = untranslated(update(domain, lang, source))
            gaps += len(missing)
            print(f"{domain:9} {lang}: {len(source):5} messages, {len(missing):4} untranslated")
    return 1 if args.check and gaps else 0


if __name__ == "__main__":
    sys.exit(main())
