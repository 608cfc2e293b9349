"""The browser's scripts put no English sentence on screen that a translator cannot reach:
every string literal a script shows (an element's text, a title, an aria-label, a
placeholder, a notice, a confirm dialog's words, a status line a function returns) goes
through `t()`/`tn()` of web/js/i18n.js, which `chuko.i18n.extract` collects for the `web`
catalogue. Read from the source with a small JavaScript scanner: nothing is run."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import chuko
from chuko.i18n.extract import template

# Scans every script and extracts the web domain: seconds, so in `make test`.
pytestmark = pytest.mark.slow

SCRIPTS = Path(chuko.__file__).resolve().parent / "web" / "js"

# The table's scripts: the room and every game's screen, with the pieces they share.
# Every script of the pages (the service worker says nothing to people).
NAMES = tuple(sorted(path.name for path in SCRIPTS.glob("*.js")))

# Where a literal is put on screen: an object's key (h()'s attributes, a dialog's words, a
# card's state), a property assigned, or the first argument of a call that shows it.
SHOWN_KEYS = ("text", "title", "placeholder", "alt", "label", "state", "yes", "no",
              "emptyText", "body", "message", "note")
SHOWN_QUOTED_KEYS = {"aria-label", "aria-description", "title", "placeholder", "alt"}
SHOWN_KEY = re.compile(r"(?<![\w$.])(?:" + "|".join(SHOWN_KEYS) + r"):")
SHOWN_PROPERTY = re.compile(
    r"(?:\.(?:textContent|innerText|title|placeholder|message)|document\.title)\s*=(?![=>])"
)
SHOWN_CALL = re.compile(r"(?<![\w$.])(?:notice|notify|alert|confirm|prompt)\s*\(")
ELEMENT = re.compile(r"(?<![\w$.])h\s*\(")
TRANSLATED_CALL = re.compile(r"(?<![\w$.])(?:t|tn)\s*$")

WORD = re.compile(r"[a-z]{3,}")
CAPITALIZED = re.compile(r"\s*[A-Z][a-z]{2,}")
# A literal that reads as a sentence wherever it stands: a word, a space, a word of three
# letters or more ("Good luck", "left end", "Waiting for").
SENTENCE = re.compile(r"[A-Za-z][a-z]+ [a-z]{3,}")
# Selectors, addresses and paths: code, not words.
NOT_WORDS = re.compile(r"^\s*[.#/\[?:]|://|=|[a-z]\.[a-z]")
# A literal compared with or looked up in: a value's code ("playing", "object"), not words.
COMPARED_BEFORE = re.compile(r"(?:[!=]==?|\bcase)\s*$")
COMPARED_AFTER = re.compile(r"^\s*(?:[!=]==?|in\b)")
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}
OPENERS, CLOSERS = "([{", ")]}"


@dataclass
class Literal:
    start: int
    end: int
    text: str     # the static text (a template's ${…} parts as NUL)
    depth: int    # brackets open around it, a template's ${ counted
    calls: int    # of which calls' and groups' "("
    wrapped: bool  # inside the arguments of t() or tn()


@dataclass
class Scan:
    code: str               # the source with comments blanked and literals' text masked
    depth: list[int]        # brackets open before each character
    calls: list[int]        # of which "("
    literals: list[Literal]


class _Scanner:
    """Walks a script once: comments, strings, templates (with their ${} code), regular
    expressions and brackets, noting each literal's depth and whether a t()/tn() call holds it."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.out = list(source)
        self.depth = [0] * (len(source) + 1)
        self.calls = [0] * (len(source) + 1)
        self.stack: list[tuple[str, bool]] = []  # open brackets: which, and whether t()/tn()'s "("
        self.literals: list[Literal] = []
        self.i = 0

    def run(self) -> Scan:
        self.code_until(len(self.src), stop_at_brace=False)
        return Scan("".join(self.out), self.depth, self.calls, self.literals)

    def blank(self, start: int, end: int) -> None:
        for k in range(start, end):
            if self.out[k] != "\n":
                self.out[k] = " "

    def previous_code(self) -> str:
        text = "".join(self.out[: self.i]).rstrip()
        return text[-1:] if text else ""

    def code_until(self, limit: int, stop_at_brace: bool) -> None:
        """Code up to `limit`, or (inside a template's ${) up to its closing brace."""
        base = len(self.stack)
        while self.i < limit:
            self.depth[self.i], self.calls[self.i] = len(self.stack), self.open_calls()
            c, two = self.src[self.i], self.src[self.i:self.i + 2]
            if two == "//":
                end = self.src.find("\n", self.i)
                end = len(self.src) if end < 0 else end
                self.blank(self.i, end)
                self.i = end
            elif two == "/*":
                end = self.src.index("*/", self.i) + 2
                self.blank(self.i, end)
                self.i = end
            elif c in "\"'":
                self.string(c)
            elif c == "`":
                self.template()
            elif c == "/" and (self.previous_code() in REGEX_BEFORE
                               or "".join(self.out[: self.i]).rstrip().endswith("return")):
                self.regex()
            elif c in OPENERS:
                before = "".join(self.out[max(0, self.i - 8): self.i])
                self.stack.append((c, c == "(" and bool(TRANSLATED_CALL.search(before))))
                self.i += 1
            elif c in CLOSERS:
                if stop_at_brace and c == "}" and len(self.stack) == base:
                    return
                if self.stack:
                    self.stack.pop()
                self.i += 1
            else:
                self.i += 1

    def open_calls(self) -> int:
        return sum(bracket == "(" for bracket, _ in self.stack)

    def note(self, start: int, text: str) -> None:
        wrapped = any(translated for _, translated in self.stack)
        depth = len(self.stack)
        self.literals.append(Literal(start, self.i, text, depth, self.open_calls(), wrapped))

    def string(self, quote: str) -> None:
        start, self.i = self.i, self.i + 1
        text = []
        while self.src[self.i] != quote:
            if self.src[self.i] == "\\":
                text.append(self.src[self.i + 1])
                self.i += 2
            else:
                text.append(self.src[self.i])
                self.i += 1
        self.i += 1
        self.note(start, "".join(text))
        self.mask(start + 1, self.i - 1)

    def template(self) -> None:
        start, self.i = self.i, self.i + 1
        text: list[str] = []
        while self.src[self.i] != "`":
            if self.src[self.i] == "\\":
                text.append(self.src[self.i + 1])
                self.mask(self.i, self.i + 2)
                self.i += 2
            elif self.src.startswith("${", self.i):
                text.append("\0")
                self.stack.append(("${", False))
                self.i += 2
                self.code_until(len(self.src), stop_at_brace=True)
                self.stack.pop()
                self.i += 1
            else:
                text.append(self.src[self.i])
                self.mask(self.i, self.i + 1)
                self.i += 1
        self.i += 1
        self.note(start, "".join(text))

    def regex(self) -> None:
        start, self.i, in_class = self.i, self.i + 1, False
        while in_class or self.src[self.i] != "/":
            c = self.src[self.i]
            self.i += 2 if c == "\\" else 1
            in_class = (in_class or c == "[") and c != "]"
        self.i += 1
        self.mask(start, self.i)

    def mask(self, start: int, end: int) -> None:
        for k in range(start, end):
            if self.out[k] not in "\n\"'`":
                self.out[k] = "x"


def scan(source: str) -> Scan:
    return _Scanner(source).run()


def extent(scan: Scan, start: int) -> tuple[int, int]:
    """The expression that starts at `start`: up to the first comma or semicolon at its own
    depth, or the bracket that closes around it."""
    base, k = scan.depth[start], start
    while k < len(scan.code):
        c, here = scan.code[k], scan.depth[k]
        if here == base and c in ",;":
            break
        if c in CLOSERS and here <= base:
            break
        k += 1
    return start, k


def arguments(scan: Scan, open_paren: int) -> list[tuple[int, int]]:
    """The arguments of the call whose "(" is at `open_paren`."""
    spans, start = [], open_paren + 1
    while start < len(scan.code):
        begin, end = extent(scan, start)
        spans.append((begin, end))
        if end >= len(scan.code) or scan.code[end] != ",":
            return spans
        start = end + 1
    return spans


# A span's literals are shown, or code that only looks like words (a class).
SHOWN, CODE = "shown", "code"
CLASS_KEY = re.compile(r"(?<![\w$.])class:|\.className\s*=|\.classList\.\w+\(")


@dataclass
class Span:
    begin: int
    end: int
    how: str
    children: bool = False  # an element's children: only what stands at their own depth

    def holds(self, scan: Scan, literal: Literal) -> bool:
        """Whether the span puts `literal` where it goes, not into some other call (or, for an
        element's children, some other object) first."""
        if not self.begin <= literal.start < self.end:
            return False
        if self.children:
            return literal.depth == scan.depth[self.begin]
        return literal.calls == scan.calls[self.begin]


def shown_spans(scan: Scan) -> list[Span]:
    """Where the script puts what it holds on screen, or into code that only looks like words."""
    spans = [Span(*extent(scan, m.end()), SHOWN) for m in SHOWN_KEY.finditer(scan.code)]
    spans += [Span(*extent(scan, m.end()), SHOWN) for m in SHOWN_PROPERTY.finditer(scan.code)]
    spans += [Span(*arguments(scan, m.end() - 1)[0], SHOWN) for m in SHOWN_CALL.finditer(scan.code)]
    spans += [Span(*extent(scan, m.end()), CODE) for m in CLASS_KEY.finditer(scan.code)]
    for m in ELEMENT.finditer(scan.code):
        # An element's children; its tag, the first argument, is code.
        spans += [Span(*span, SHOWN, children=True) for span in arguments(scan, m.end() - 1)[1:]]
    for literal in scan.literals:
        key = literal.text in SHOWN_QUOTED_KEYS
        if key and scan.code[literal.end:literal.end + 1] == ":":
            spans.append(Span(*extent(scan, literal.end + 1), SHOWN))
        if key and scan.code[:literal.start].endswith("setAttribute("):
            spans.append(Span(*extent(scan, literal.end + 1), SHOWN))
    return spans


def reads_as_words(text: str, how: str | None) -> bool:
    parts = text.split("\0")
    if how == CODE or NOT_WORDS.search(text):
        return False
    if any(SENTENCE.search(part) for part in parts):
        return True
    if any(CAPITALIZED.match(part) for part in parts):
        return True
    return how == SHOWN and any(WORD.search(part) for part in parts)


def unworded(source: str) -> list[str]:
    """The literals of `source` a person would read untranslated: shown directly (at the
    depth of where it is shown, not an argument of some other call) or reading as a
    sentence anywhere, and not inside t()/tn() nor compared with."""
    found = scan(source)
    spans = shown_spans(found)
    left = []
    for literal in found.literals:
        compared = (COMPARED_BEFORE.search(found.code[max(0, literal.start - 8):literal.start])
                    or COMPARED_AFTER.match(found.code[literal.end:literal.end + 8]))
        if literal.wrapped or compared:
            continue
        hows = {span.how for span in spans if span.holds(found, literal)}
        how = CODE if CODE in hows else SHOWN if hows else None
        if reads_as_words(literal.text, how):
            left.append(literal.text.replace("\0", "${…}"))
    return left


# Literals that read like words to the scan but are code: an HTTP header's name, a class
# list, and the keys a list keeps its rows by.
CODE_WORDS = {"Content-Type", "series series-${…}", "no pools", "no seeks"}


@pytest.mark.parametrize("name", NAMES)
def test_the_scripts_show_no_sentence_outside_t(name):
    left = [text for text in unworded((SCRIPTS / name).read_text(encoding="utf-8"))
            if text not in CODE_WORDS]
    assert not left, f"{name} shows these literals without t()/tn(): {left}"


# A t()/tn() call's first argument: a string, or strings joined with "+".
STRING = r'"(?:[^"\\\n]|\\.)*"'
TRANSLATED = re.compile(rf"(?<![\w$.])tn?\(\s*({STRING}(?:\s*\+\s*{STRING})*)")


def called_msgids(source: str) -> set[str]:
    """The message ids a script's t()/tn() calls name (tn's by its singular)."""
    return {"".join(json.loads(part) for part in re.findall(STRING, match.group(1)))
            for match in TRANSLATED.finditer(source)}


def test_every_sentence_the_scripts_word_reaches_the_web_catalogue():
    """The extractor reads what the scripts translate: a t() it cannot see (inside a
    template literal's ${…}, say) would be shown in English in every language."""
    extracted = {message.id[0] if isinstance(message.id, tuple | list) else message.id
                 for message in template("web") if message.id}
    missing = {name: sorted(called_msgids((SCRIPTS / name).read_text(encoding="utf-8")) - extracted)
               for name in NAMES}
    assert not {name: ids for name, ids in missing.items() if ids}


# Sentences of the table, each in a different place a script shows words: taken out of
# their t() in a copy of the script, the scan must find them.
UNWRAPPED = [
    ("room.js", "Your turn."),                         # a status line returned
    ("room.js", "Resign this game?"),                  # a confirm dialog's title
    ("room.js", "This address names no room."),        # a notice
    ("room.js", "online"),                             # a lookup table assigned to textContent
    ("chuchula.js", "Commit"),                         # a button's text
    ("chuchula.js", "drag to swap this group with another"),  # a title
    ("layout.js", "type a move"),                      # an aria-label
    ("layout.js", "no cards yet"),                     # a fallback inside a shown expression
    ("generic.js", "not your turn"),                   # a placeholder in a ternary
    ("chat.js", "Good luck"),                          # a table of phrases
    ("confirm.js", "Cancel"),                          # a default parameter
    ("signals.js", "Sound"),                           # a switch's label passed along
    ("cards.js", "face down"),                         # a card's name for screen readers
]


@pytest.mark.parametrize(("name", "msgid"), UNWRAPPED)
def test_a_sentence_taken_out_of_t_is_found(name, msgid):
    source = (SCRIPTS / name).read_text(encoding="utf-8")
    call = f't("{msgid}")'
    assert call in source, f"{name} no longer says {call}"
    assert msgid in unworded(source.replace(call, f'"{msgid}"', 1))


@pytest.mark.parametrize("snippet", [
    'fill(box, h("p.status", { text: "Your turn." }));',
    'h("button", { type: "button", text: ok ? "Resign" : "Play on" })',
    'h("input", { "aria-label": "your move", placeholder: "type a move" })',
    'el.title = "time left on this move";',
    'el.textContent = `${n} cards left`;',
    'notice("This address names no room.", "error");',
    'h("li", {}, "Recent games")',
    'function status() { return msg.result || "The game is over."; }',
    'const PHRASES = { gl: "Good luck", wp: "Well played" };',
    'confirmDialog({ title: t("Leave?"), yes: "Leave", no: "Stay" })',
])
def test_the_scan_finds_a_sentence_left_unwrapped(snippet):
    assert unworded(snippet), snippet


@pytest.mark.parametrize("snippet", [
    'fill(box, h("p.status", { text: t("Your turn.") }));',
    'h("button", { type: "button", text: ok ? t("Resign") : t("Play on") })',
    'h("input", { "aria-label": t("your move"), placeholder: t("type a move") })',
    'el.textContent = tn("{n} card left", "{n} cards left", n);',
    'notice(error.message, "error");',
    'h("div.seat-chip", { class: `seat-chip ${mine ? "me" : ""}`, dataset: { drop: "hand" } })',
    'document.addEventListener("keydown", onKey); const s = `.arrange [data-card="${card}"]`;',
    'const words = key.replace(/([a-z])([A-Z])/g, "$1 $2"); return `/room/${room}`;',
    'h("span", { text: `${t("Group {group}", { group })} · ${label}` })',
])
def test_the_scan_lets_code_and_worded_sentences_be(snippet):
    assert unworded(snippet) == [], snippet
