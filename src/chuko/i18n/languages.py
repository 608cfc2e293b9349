"""Which languages there are, and which one a visitor gets."""

from __future__ import annotations

DEFAULT = "en"

# Shipped languages, each named in itself (how the header's switch lists them).
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "es": "Español",
                             "hu": "Magyar"}

# Scripts written right to left: their pages get dir="rtl" (the CSS is logical).
RIGHT_TO_LEFT = frozenset({"ar", "he", "fa", "ur"})

# An Accept-Language header is a client's text: only so much of it is read.
_HEADER_LIMIT = 512
_RANGES_LIMIT = 32


def direction(lang: str) -> str:
    """"rtl" or "ltr" for the page's `dir`."""
    return "rtl" if lang.split("-")[0] in RIGHT_TO_LEFT else "ltr"


def negotiate(header: str | None, available: frozenset[str] | set[str] | None = None) -> str:
    """The best of `available` (the shipped languages) for an Accept-Language header,
    or English. Malformed parts are skipped, never an error: the header is hostile."""
    choices = set(available) if available is not None else set(LANGUAGES)
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:_HEADER_LIMIT].split(",")[:_RANGES_LIMIT]):
        tag, _, params = part.strip().partition(";")
        quality = _quality(params)
        if tag and quality > 0:
            ranked.append((-quality, index, tag.strip().lower()))
    for _, _, tag in sorted(ranked):
        for candidate in (tag, tag.split("-")[0]):
            if candidate in choices:
                return candidate
    return DEFAULT


def _quality(params: str) -> float:
    name, _, value = params.strip().partition("=")
    if name.strip() != "q":
        return 1.0
    try:
        quality = float(value)
    except ValueError:
        return 0.0
    return quality if 0.0 <= quality <= 1.0 else 0.0
