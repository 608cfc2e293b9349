"""The pages' stylesheets name sides by the direction of writing (margin-inline-start,
inset-inline-end, text-align: start…), so a page in a right-to-left language lays out
mirrored; a physical side is kept only where a comment just above says why."""

import re
from pathlib import Path

STYLESHEETS = sorted((Path(__file__).parents[1] / "src" / "chuko" / "web").glob("*.css"))
PHYSICAL = re.compile(
    r"(?<![\w-])(?:(?:margin|padding|border)-(?:left|right)(?:-\w+)?|left|right|float)\s*:"
    r"|text-align\s*:\s*(?:left|right)")
SHORTHAND = re.compile(r"(?<![\w-])(?:padding|margin|inset|scroll-padding)\s*:\s*([^;{}]+)")
WHY = "physical on purpose"


def physical_sides(css: str) -> list[str]:
    """The declarations of `css` that name a physical side (four-value shorthands with
    different left and right included) outside a rule whose comment says why."""
    found = []
    for block in re.split(r"(?<=})", css):
        comment = " ".join(re.findall(r"/\*(.*?)\*/", block, re.S))
        if WHY in " ".join(comment.split()):
            continue
        body = re.sub(r"/\*.*?\*/", "", block, flags=re.S)
        found += [match.group(0).strip() for match in PHYSICAL.finditer(body)]
        for match in SHORTHAND.finditer(body):
            values = match.group(1).split()
            if len(values) == 4 and values[1] != values[3]:  # its right side is not its left
                found.append(match.group(0).strip())
    return found


def test_the_checker_finds_physical_sides_and_lets_equal_ones_and_explained_ones_be():
    assert physical_sides(".a { margin-left: 1px; text-align: right; }") == [
        "margin-left:", "text-align: right"]
    assert physical_sides(".a { padding: 0 6px 6px 0; }") == ["padding: 0 6px 6px 0"]
    assert physical_sides(".a { inset: 3px 3px 3px 3px; margin-inline-start: 1px; }") == []
    assert physical_sides("/* down and to the right: physical on purpose */\n.a { left: 0; }") == []
    assert physical_sides(".a { inset-inline-start: 0; border-inline-end: 0; }") == []


def test_every_stylesheet_names_sides_by_the_direction_of_writing():
    assert STYLESHEETS
    found = {sheet.name: physical_sides(sheet.read_text()) for sheet in STYLESHEETS}
    assert {name: sides for name, sides in found.items() if sides} == {}
