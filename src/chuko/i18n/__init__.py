"""The languages chuko speaks: catalogues per language, and wording at the edge.

The rules and the server build `Text` sentences (chuko.core.text) in English with their
message ids; an edge (a page, a socket, the terminal) says them through `words(lang)`.
Catalogues are gettext `.po` files under `chuko/locale/<lang>/LC_MESSAGES/<domain>.po`,
one domain per part of the program, read directly (no compiled `.mo` to keep in step);
`make i18n` extracts the sources and updates them.
"""

from __future__ import annotations

from chuko.i18n.languages import DEFAULT, LANGUAGES, RIGHT_TO_LEFT, direction, negotiate
from chuko.i18n.words import Words, words

__all__ = ["DEFAULT", "LANGUAGES", "RIGHT_TO_LEFT", "Words", "direction", "negotiate", "words"]
