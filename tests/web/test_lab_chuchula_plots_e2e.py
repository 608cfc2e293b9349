"""The Lab's Chuchula plots, drawn from the shipped facts, on a desktop and a phone: no
label drawn over another, a legend that hides no line, each point's sample size told, and
cells with too few groups greyed instead of drawn as a rate with a huge interval."""

from __future__ import annotations

import pytest

from chuko.server import facts


def chuchula_figures(page):
    if not any(game["id"] == "chuchula" and game["studies"]
               for game in facts.shipped_facts()["games"]):
        pytest.skip("no Chuchula facts are shipped")
    page.goto("/lab#chuchula")
    section = page.locator("#chuchula")
    section.locator("figure.plot svg").first.wait_for()
    return section.locator("figure.plot").all()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_chuchula_plots_as_shipped(pages, shot, width, height):
    page = pages.new(width=width, height=height)
    figures = chuchula_figures(page)
    place = shot(page, f"lab-chuchula-{width}").parent
    for k, figure in enumerate(figures):
        figure.scroll_into_view_if_needed()
        figure.screenshot(path=str(place / f"lab-chuchula-{width}-plot{k + 1}.png"))
