"""Words the engines build sentences from, so every front end says the same thing, in
any language.

Seats are people: a sentence names a seat by the name its front end gave (a player's name,
"Hard bot") and says "You" to the seat reading it. Seat numbers appear only in machine
output.

Every function here returns a `Text` (`chuko.core.text`) or a plain name, never English
glued together, so a sentence built from them is worded whole at the edge. Use them as
parameters of one sentence, never by concatenation:

    Text("{cards} are left.", cards=count(3, "card"))     # count() is a Plural
    Text("{winners} won.", winners=listing([who(0, names, 1), who(2, names, 1)]))

`who()` is `Text("You")` or the seat's name. Where the verb or the grammar changes with
the subject ("You play" / "Ann plays"; German "Du hast" / "Ann hat"), write two sentences
and choose with `seat == for_seat` instead of putting `who()` in one. Sentences that
follow one another ("Ann played 2. Chükö!") are joined by `sentences()`. `count()` knows the
nouns of `COUNTED` as catalogue messages; another noun still counts right in English but
stays English elsewhere, so add a noun there before a game uses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from .text import Plural, Text

# The nouns games count, each as a catalogue message; `{n:,}` writes 1,000 as English does.
COUNTED: dict[str, Callable[[int], Plural]] = {
    "bridge": lambda n: Plural("{n:,} bridge", "{n:,} bridges", n=n),
    "card": lambda n: Plural("{n:,} card", "{n:,} cards", n=n),
    "game": lambda n: Plural("{n:,} game", "{n:,} games", n=n),
    "hour": lambda n: Plural("{n:,} hour", "{n:,} hours", n=n),
    "minute": lambda n: Plural("{n:,} minute", "{n:,} minutes", n=n),
    "opponent": lambda n: Plural("{n:,} opponent", "{n:,} opponents", n=n),
    "player": lambda n: Plural("{n:,} player", "{n:,} players", n=n),
    "point": lambda n: Plural("{n:,} point", "{n:,} points", n=n),
    "round": lambda n: Plural("{n:,} round", "{n:,} rounds", n=n),
    "seat": lambda n: Plural("{n:,} seat", "{n:,} seats", n=n),
    "trial game": lambda n: Plural("{n:,} trial game", "{n:,} trial games", n=n),
}

# How each bot level is named to people.
LEVELS: dict[str, Callable[[], Text]] = {
    "random": lambda: Text("Random"),
    "easy": lambda: Text("Easy"),
    "hard": lambda: Text("Hard"),
    "perfect": lambda: Text("Perfect"),
}


def who(seat: int, names: Sequence[str], for_seat: int | None) -> str:
    """The subject of a sentence about `seat`, as `for_seat` reads it: Text("You") or the
    name as it is."""
    return Text("You") if seat == for_seat else names[seat]


def whose(seat: int, names: Sequence[str], for_seat: int | None) -> Text:
    """The possessive: "your" or "Ann's"."""
    return Text("your") if seat == for_seat else Text("{name}'s", name=names[seat])


def listing(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c': one Text for two or more (nested, a pair at the end),
    the item itself for one, "" for none."""
    if len(words) <= 1:
        return words[0] if words else ""
    if len(words) == 2:
        return Text("{first} and {last}", first=words[0], last=words[1])
    return Text("{first}, {rest}", first=words[0], rest=listing(words[1:]))


def sentences(first: str, *more: str) -> str:
    """Whole sentences said one after the other ("Ann played 2. Chükö!"): one Text, each
    sentence worded on its own; `first` itself when there is no other."""
    said = first
    for sentence in more:
        said = Text("{sentence} {next}", sentence=said, next=sentence)
    return said


def count(number: int, noun: str, plural: str | None = None) -> Plural:
    """'1 point', '3 points', '1,000 cards'; `plural` where adding s is wrong. A noun of
    `COUNTED` is a catalogue message; any other is worded in English only."""
    counted = COUNTED.get(noun)
    if counted is not None and plural is None:
        return counted(number)
    forms = ("{n:,} " + _literal(word) for word in (noun, plural or noun + "s"))
    return Plural(*forms, n=number)  # not in a catalogue: English wherever it is read


def _literal(word: str) -> str:
    return word.replace("{", "{{").replace("}", "}}")


def number_text(value: float) -> str:
    """A score as people write it: 3, not 3.0; 2.5 stays 2.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def score_line(scores: Sequence[float]) -> str:
    """'5–2', '3–3', '4–1–1' with an en dash, in seat order (notation, the same in every
    language)."""
    return "–".join(number_text(s) for s in scores)


def ordinal(number: int) -> Text:
    """A place: '1st', '2nd', '3rd', '11th' (each language writes its own: '2.', '2.º')."""
    if 10 <= number % 100 <= 20:
        return Text("{n}th", n=number)
    last = number % 10
    if last == 1:
        return Text("{n}st", n=number)
    if last == 2:
        return Text("{n}nd", n=number)
    return Text("{n}rd", n=number) if last == 3 else Text("{n}th", n=number)


def bot_name(level: str) -> Text:
    """How a bot of a level is named to people: Text("{level} bot") with the level a Text
    too ("Hard"), so "Hard bot" reads "Bot difícil" in Spanish."""
    named = LEVELS.get(level)
    return Text("{level} bot", level=named() if named else level.capitalize())


def seat_names(labels: Sequence[str]) -> list[str]:
    """Names for seats from labels that may repeat: two "Easy bot" seats become "Easy bot 1"
    and "Easy bot 2", so every sentence says which one is meant."""
    totals = Counter(labels)
    seen: Counter[str] = Counter()
    names: list[str] = []
    for label in labels:
        if totals[label] > 1:
            seen[label] += 1
            names.append(Text("{name} {number}", name=label, number=seen[label]))
        else:
            names.append(label)
    return names
