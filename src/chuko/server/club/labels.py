"""The server's own labels, which no player's name may pass for (docs/web-protocol.md,
"Accounts"): "You" (how each player reads themself), a guest's "Guest 4821", a bot's "Hard
bot" (and "Hard bot 1" beside a second one), "Host" and "Friend" (a seat nobody named),
"Spectator", "(not connected)" and the deleted players' label.

A name is compared by its skeleton (`skeleton`), after the idea of Unicode's confusables
(Unicode Technical Standard 39): NFKC, casefolded, look-alike letters of other scripts
read as the Latin ones they pass for, only its letters and digits kept, and a number at
its end dropped. So "Hаrd bot" with a Cyrillic а, "Yоu" with a Cyrillic о, "GUEST-1234"
and "Ｙｏｕ" are all refused, while names in any script that pass for none of the labels
are taken.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from chuko.core.words import bot_name
from chuko.games import descriptors
from chuko.server.store.standing_rows import DELETED

# The labels other than the bots' (`bot_names`); a deleted account's seats read `DELETED`.
LABELS = ("You", "Guest", "Host", "Friend", "Spectator", "Spectators", "not connected",
          "connected", "Bot", "Server", DELETED)

# Letters of other scripts (lower case: a name is casefolded first) and digits that read as
# a Latin letter: the common ones of Unicode's confusables.txt. NFKC has already made
# full-width, mathematical and other compatibility forms plain.
CONFUSABLES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ү": "y", "ӏ": "l", "ь": "b",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
    "ϲ": "c", "ϳ": "j",
    # Latin look-alikes, and digits inside a word
    "ı": "i", "ɑ": "a", "ɡ": "g", "0": "o", "1": "l", "5": "s",
})


def skeleton(name: str) -> str:
    """What `name` reads as, for comparing with the labels: see the module's docstring."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(char for char in folded if char.isalnum()).rstrip("0123456789")
    return kept.translate(CONFUSABLES)


@cache
def bot_names() -> frozenset[str]:
    """Every bot's name of every level of every registered game, as keys ("hard bot")."""
    return frozenset(bot_name(level).casefold() for game in descriptors()
                     for level in game.levels)


@cache
def _reserved() -> frozenset[str]:
    return frozenset(skeleton(label) for label in (*LABELS, *bot_names()))


def passes_for_a_label(name: str) -> bool:
    """Whether `name` could be read as one of the server's own labels."""
    return skeleton(name) in _reserved()
