"""The Lab's Chuchula plots, drawn from the shipped facts, on a desktop and a phone: every
x label drawn and no label over another, a legend below the plot that hides no line, and
points from too few groups greyed with their n instead of drawn as a rate with a huge
interval. The screenshots (screenshots/web/lab-chuchula-*.png) are for a person to look at."""

from __future__ import annotations

import math

import pytest

from chuko.server.practice import facts

# Each text's box on the screen, but for the slanted x labels (their boxes are the rotated
# text's bounds, which overlap where the text does not): [left, top, right, bottom].
TEXT_BOXES = """svg => [...svg.querySelectorAll("text:not(.slanted)")].map((t) => {
  const r = t.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom, t.textContent];
})"""
# The lowest point any line, point or interval reaches, and the legend's highest key.
PLOT_FLOOR = """svg => Math.max(...[...svg.querySelectorAll(
  ".trend:not(.key-line), .point, .interval")].map((e) => e.getBoundingClientRect().bottom))"""
LEGEND_TOP = """svg => Math.min(...[...svg.querySelectorAll(".key-line, .key")]
  .map((e) => e.getBoundingClientRect().top))"""


def chuchula_study() -> dict:
    for game in facts.shipped_facts()["games"]:
        if game["id"] == "chuchula" and game["studies"]:
            return game["studies"][0]
    pytest.skip("no Chuchula facts are shipped")


def overlapping(boxes) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5:
                found.append((a[4], b[4]))
    return found


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_chuchula_plots_show_every_label_every_line_and_grey_small_cells(
        pages, shot, width, height):
    study = chuchula_study()
    page = pages.new(width=width, height=height)
    page.goto("/lab#chuchula")
    section = page.locator("#chuchula")
    section.locator("figure.plot svg").first.wait_for()
    figures = section.locator("figure.plot").all()
    assert len(figures) == len(study["plots"])
    place = shot(page, f"lab-chuchula-{width}").parent
    for k, (figure, plot) in enumerate(zip(figures, study["plots"], strict=True)):
        figure.scroll_into_view_if_needed()
        figure.screenshot(path=str(place / f"lab-chuchula-{width}-plot{k + 1}.png"))
        svg = figure.locator("svg")
        assert overlapping(svg.evaluate(TEXT_BOXES)) == []
        # every x label, whole (a wrapped label's lines are its words, spaces left out)
        drawn = svg.locator("text").evaluate_all(
            "ts => ts.map((t) => t.textContent.replaceAll(' ', ''))")
        assert all(str(x).replace(" ", "") in drawn for x in plot["x"]), drawn
        if plot["kind"] != "line":
            continue
        assert svg.locator(".key-line").count() == len(plot["series"])
        assert svg.evaluate(LEGEND_TOP) > svg.evaluate(PLOT_FLOOR)
        few = [n for one in plot["series"] for n in one.get("n", []) if n is not None
               and n < plot["few"]]
        assert few, "the shipped facts have cells with few groups"
        assert svg.locator("circle.point.few").count() == len(few)
        assert sorted(svg.locator("text.few").evaluate_all(
            "ts => ts.map((t) => t.textContent)")) == sorted(f"n={n}" for n in few)
        assert svg.locator("circle.point.few title").first.text_content().endswith(
            "(too few to show a rate)")


def test_slanted_labels_stand_a_line_apart(pages):
    study = chuchula_study()
    page = pages.new(width=390, height=844)
    page.goto("/lab#chuchula")
    svg = page.locator("#chuchula figure.plot svg").first
    svg.wait_for()
    starts = sorted(svg.locator("text.slanted").evaluate_all(
        "ts => ts.map((t) => t.getBoundingClientRect().right)"))
    assert len(starts) == len(study["plots"][0]["x"])
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert min(gaps) * math.sin(math.radians(35)) >= 12


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_no_shipped_plot_in_the_lab_draws_a_label_over_another(pages, shot, width, height):
    plots = [plot for game in facts.shipped_facts()["games"] for one in game["studies"]
             for plot in one.get("plots", [])]
    if not plots:
        pytest.skip("no facts are shipped")
    page = pages.new(width=width, height=height)
    page.goto("/lab")
    page.locator("figure.plot svg").first.wait_for()
    figures = page.locator("figure.plot svg").all()
    assert len(figures) == len(plots)
    for svg, plot in zip(figures, plots, strict=True):
        assert overlapping(svg.evaluate(TEXT_BOXES)) == [], plot["title"]
        drawn = svg.locator("text").evaluate_all(
            "ts => ts.map((t) => t.textContent.replaceAll(' ', ''))")
        assert all(str(x).replace(" ", "") in drawn for x in plot["x"]), plot["title"]
    shot(page, f"lab-all-{width}")
