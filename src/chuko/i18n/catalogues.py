"""The shipped catalogues, read from their `.po` files once per process."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

# The parts of the program, each with its own catalogue (see babel-*.cfg and `make i18n`).
DOMAINS = ("engines", "server", "terminal", "web", "pages", "lessons")


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: a message id → its text, or its plural forms."""

    lang: str
    singular: dict[str, str] = field(default_factory=dict)
    plurals: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The domains each message id comes from: the JavaScript gets the web domain's only.
    domains_of: dict[str, set[str]] = field(default_factory=dict)


def key(message: Message) -> str:
    """A message's id: its singular form for a counted one."""
    return str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)


def strings(message: Message) -> tuple[str, ...]:
    """A message's translation: one text, or one per plural form."""
    found = message.string
    return tuple(found) if isinstance(found, (tuple, list)) else (str(found or ""),)


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=16)
def catalogue(lang: str) -> Catalogue:
    """Every domain's translated, non-fuzzy entries for `lang` (empty for English)."""
    found = Catalogue(lang)
    for domain in DOMAINS:
        path = po_path(lang, domain)
        if not path.is_file():
            continue
        with path.open("rb") as file:
            po = read_po(file, locale=lang, domain=domain)
        for message in po:
            if not message.id or message.fuzzy:
                continue
            forms = strings(message)
            if not all(forms):
                continue
            if isinstance(message.id, (tuple, list)):
                found.plurals[key(message)] = forms
            else:
                found.singular[key(message)] = forms[0]
            found.domains_of.setdefault(key(message), set()).add(domain)
    return found
