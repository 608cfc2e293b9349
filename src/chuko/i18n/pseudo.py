"""A pseudo-language for tests: every message shown in it is bracketed and accented, so
a string that reached the screen without a catalogue stands out as plain English."""

from __future__ import annotations

import re
from functools import lru_cache

from chuko.i18n.catalogues import DOMAINS, Catalogue, key, po_path

CODE = "qps"
OPEN, CLOSE = "⟦", "⟧"

_ACCENTED = str.maketrans("aeiouAEIOUcnsyCNSY", "áéíóúÁÉÍÓÚçñšýÇÑŠÝ")
# Placeholders, tags and entities pass through untouched.
_KEPT = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&[#\w]+;)")


def pseudo(text: str) -> str:
    """`Play {card}` → `⟦Pláý {card}⟧`."""
    parts = _KEPT.split(text)
    return OPEN + "".join(part if _KEPT.fullmatch(part) else part.translate(_ACCENTED)
                          for part in parts) + CLOSE


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """Every message id of the shipped catalogues (German's, which hold them all), each
    said in pseudo."""
    from babel.messages.pofile import read_po

    found = Catalogue(CODE)
    for domain in DOMAINS:
        path = po_path("de", domain)
        if not path.is_file():
            continue
        with path.open("rb") as file:
            for message in read_po(file, locale="de", domain=domain):
                if not message.id:
                    continue
                if isinstance(message.id, (tuple, list)):
                    found.plurals[key(message)] = (pseudo(message.id[0]), pseudo(message.id[1]))
                else:
                    found.singular[key(message)] = pseudo(key(message))
                found.domains_of.setdefault(key(message), set()).add(domain)
    return found
