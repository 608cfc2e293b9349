"""A page's text is found in units a translator can word whole, and rendered back with
each unit replaced, markup and scripts untouched."""

from __future__ import annotations

from chuko.i18n.html import render, units

PAGE = """<!doctype html>
<html lang="en"><head><title>Chükö — card games</title>
<script>const no = "Not a unit";</script></head>
<body>
<nav aria-label="the club"><a href="/learn">Learn</a><a href="/lobby">Lobby</a></nav>
<p>New to these games?
   <a href="/learn">Learn one</a>: a few steps.</p>
<input placeholder="Host" maxlength="24">
<a class="brand" translate="no">chükö</a>
<p>   </p><span>42</span>
</body></html>"""


def test_a_page_yields_its_sentences_as_units():
    assert units(PAGE) == ["Chükö — card games", "Learn", "Lobby", "the club",
                           'New to these games? <a href="/learn">Learn one</a>: a few steps.',
                           "Host"]


def test_a_nav_of_links_is_split_but_a_sentence_keeps_its_inline_links():
    found = units(PAGE)
    assert "Learn" in found and not any(unit.startswith("<a") for unit in found)


def test_rendering_replaces_units_and_keeps_the_rest():
    said = render(PAGE, lambda unit: f"[{unit}]")
    assert "<title>[Chükö — card games]</title>" in said
    assert '<nav aria-label="[the club]"><a href="/learn">[Learn]</a>' in said
    assert 'placeholder="[Host]" maxlength="24"' in said
    assert 'const no = "Not a unit";' in said
    assert ">chükö</a>" in said and "<span>42</span>" in said


def test_an_attribute_translation_is_escaped():
    said = render('<input title="Quote">', lambda unit: 'say "hi" <now>')
    assert said == '<input title="say &quot;hi&quot; &lt;now&gt;">'


def test_rendering_with_no_translation_keeps_every_word():
    same = render(PAGE, lambda unit: unit)
    assert units(same) == units(PAGE)
