"""Pages in a language: the text of an HTML page found in units a translator can word
whole, and the page rendered with each unit translated.

A unit is a run of text and inline markup inside one element ("New to these games? <a
href="/learn">Learn one</a>: …"), its whitespace collapsed; the inline tags stay in the
message so a translation can move them. A run with no text of its own (a nav of links) is
split into its elements. Attributes people read (title, placeholder, aria-label, alt)
are units of their own. Nothing in <script>, <style> or under translate="no" is touched.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser

INLINE = frozenset({"a", "abbr", "b", "br", "cite", "code", "em", "i", "kbd", "mark", "q",
                    "s", "small", "span", "strong", "sub", "sup", "time", "u"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                  "meta", "source", "track", "wbr"})
MARKUP = "#markup"  # a comment or a declaration, kept as written
RAW = frozenset({"script", "style", MARKUP})
READ_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_SPACE = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")

Translate = Callable[[str], str]


@dataclass
class Element:
    tag: str
    start: str  # the start tag as written
    attrs: list[tuple[str, str | None]]
    children: list[Element | str] = field(default_factory=list)
    closed: bool = False


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.root = Element("#root", "", [])
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, self.get_starttag_text() or "", attrs)
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, self.get_starttag_text() or "", attrs))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                self.stack[depth].closed = True
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)

    def handle_entityref(self, name: str) -> None:
        self.stack[-1].children.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.stack[-1].children.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.stack[-1].children.append(Element(MARKUP, f"<!--{data}-->", []))

    def handle_decl(self, decl: str) -> None:
        self.stack[-1].children.append(Element(MARKUP, f"<!{decl}>", []))


def parse(page: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(page)
    builder.close()
    return builder.root


def render(page: str, translate: Translate) -> str:
    """`page` with every unit replaced by `translate(unit)`."""
    return _children(parse(page).children, translate)


def units(page: str) -> list[str]:
    """The page's units, in order, for extraction."""
    found: list[str] = []

    def keep(unit: str) -> str:
        found.append(unit)
        return unit

    render(page, keep)
    return found


def _raw(node: Element | str) -> str:
    if isinstance(node, str):
        return node
    inner = "".join(_raw(child) for child in node.children)
    return node.start + inner + (f"</{node.tag}>" if node.closed else "")


def _is_inline(node: Element | str) -> bool:
    return isinstance(node, str) or (
        node.tag in INLINE and not _untranslated(node)
        and all(_is_inline(child) for child in node.children))


def _untranslated(node: Element) -> bool:
    return node.tag in RAW or dict(node.attrs).get("translate") == "no"


def _children(children: list[Element | str], translate: Translate) -> str:
    out: list[str] = []
    run: list[Element | str] = []
    for child in children:
        if _is_inline(child):
            run.append(child)
            continue
        out.append(_run(run, translate))
        run = []
        assert isinstance(child, Element)
        out.append(_element(child, translate))
    out.append(_run(run, translate))
    return "".join(out)


def _run(run: list[Element | str], translate: Translate) -> str:
    own_text = "".join(node for node in run if isinstance(node, str))
    if not _LETTER.search(own_text):
        # No words of its own: each element of the run is a unit (or holds units).
        return "".join(node if isinstance(node, str) else _element(node, translate)
                       for node in run)
    raw = "".join(_raw(node) for node in run)
    core = raw.strip()
    lead, trail = raw[: len(raw) - len(raw.lstrip())], raw[len(raw.rstrip()):]
    return lead + translate(_SPACE.sub(" ", core)) + trail


def _element(node: Element, translate: Translate) -> str:
    if _untranslated(node):
        return _raw(node)
    inner = _children(node.children, translate)
    return _start_tag(node, translate) + inner + (f"</{node.tag}>" if node.closed else "")


def _start_tag(node: Element, translate: Translate) -> str:
    readable = [(name, value) for name, value in node.attrs
                if name in READ_ATTRIBUTES and value and _LETTER.search(value)]
    if not readable:
        return node.start
    parts = [node.tag]
    for name, value in node.attrs:
        if value is None:
            parts.append(name)
            continue
        if name in READ_ATTRIBUTES and _LETTER.search(value):
            value = translate(_SPACE.sub(" ", value.strip()))
        parts.append(f'{name}="{html.escape(value, quote=True)}"')
    ending = " /" if node.start.rstrip().endswith("/>") else ""
    return f"<{' '.join(parts)}{ending}>"
