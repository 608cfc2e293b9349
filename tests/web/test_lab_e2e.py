"""The Lab page in Chromium: the shipped facts of each game, and those a game from another
package ships with it, with their plots drawn as SVG (bars or lines, with the interval of
every sampled figure), reached from the home page and from each game's rules, under the
app's Content-Security-Policy."""

from __future__ import annotations

import json

import pytest

from chuko.games import descriptors
from chuko.server.practice import facts

CARAVAN = {
    "game": "caravan", "title": "Caravan, pack standard",
    "method": "exact: every one of the 1,000 distinct deals of the pack solved",
    "findings": ["Every deal can be won with the standard 2 bridges."],
    "data": {},
    "tables": [{"title": "Deals winnable with at most this many bridges",
                "columns": ["Bridge limit", "Deals", "Share"],
                "rows": [["0", "560", "56%"], ["1", "950", "95%"], ["2", "1,000", "100%"],
                         ["3", "1,000", "100%"]]}],
    "plots": [{"title": "Winnable deals by bridge limit", "kind": "bar",
               "x": ["0", "1", "2", "3"], "xlabel": "bridge limit",
               "ylabel": "deals winnable (%)", "note": "exact over every deal",
               "series": [{"label": "winnable", "y": [56, 95, 100, 100]}]}],
}
CHUKO = {
    "game": "chuko", "title": "Chükö, bot games",
    "method": "4,000 bot games per configuration (seed 1), 95% intervals",
    "findings": ["The first player wins 80% of two-player games on the standard pack."],
    "data": {}, "tables": [],
    "plots": [{"title": "First player's win rate against the number of players",
               "kind": "line", "x": [2, 3, 4], "xlabel": "players",
               "ylabel": "first player wins (%)", "note": "sampled, 95% Wilson intervals",
               "series": [{"label": "standard", "y": [80.4, 60.1, 44.0],
                           "low": [79.2, 58.5, 42.4], "high": [81.6, 61.6, 45.6]},
                          {"label": "fair (1/players)", "y": [50, 33.3, 25],
                           "style": "dashed"}]}],
}


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """Facts files as `chuko study` ships them: one study, and a list of studies."""
    (tmp_path / "caravan.json").write_text(json.dumps(CARAVAN))
    (tmp_path / "chuko.json").write_text(json.dumps({"studies": [CHUKO]}))
    (tmp_path / "broken.json").write_text("{not json")
    monkeypatch.setattr(facts, "FACTS", tmp_path)
    return tmp_path


def watch_policy(page):
    refused = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    return refused


def test_the_lab_draws_each_games_studies_with_their_plots_and_tables(pages, shipped, shot):
    page = pages.new(width=1100, height=1400)
    refused = watch_policy(page)
    page.goto("/")
    page.get_by_role("link", name="Lab").click()
    page.wait_for_url("**/lab")
    page.locator("#caravan .study").wait_for()
    assert page.locator("#lab-nav a").all_inner_texts() == ["Chükö", "Caravan", "Take-away"]
    caravan = page.locator("#caravan")
    assert "exact: every one of the 1,000 distinct deals" in caravan.inner_text()
    assert "Every deal can be won with the standard 2 bridges." in caravan.inner_text()
    assert caravan.locator("svg rect.bar").count() == 4
    assert caravan.locator("svg .interval").count() == 0  # exact figures carry no interval
    assert caravan.locator("figcaption").inner_text() == "exact over every deal"
    assert caravan.locator("table td").first.inner_text() == "0"
    chuko = page.locator("#chuko")
    assert chuko.locator("svg circle.point").count() == 6
    assert chuko.locator("svg .interval").count() == 3  # the sampled series only
    assert chuko.locator("svg polyline[stroke-dasharray]").count() == 1
    assert chuko.get_by_role("img", name="First player's win rate against the number of "
                             "players").count() == 1
    # bars rise with the share: the bar for 56% is lower than the bar for 100%
    heights = [float(h) for h in caravan.locator("svg rect.bar").evaluate_all(
        "bars => bars.map(b => b.getAttribute('height'))")]
    assert heights[0] < heights[2] == heights[3]
    assert "No facts yet for Crossroads, Chuchula" in page.locator("#facts").inner_text()
    shot(page, "lab")
    assert refused == []


def test_a_rules_page_links_to_its_games_facts_in_the_lab(pages, shipped):
    page = pages.new()
    page.goto("/rules/caravan")
    link = page.get_by_role("link", name="Facts and plots about Caravan in the Lab")
    link.click()
    page.wait_for_url("**/lab#caravan")
    page.locator("#caravan .study").wait_for()
    assert page.locator("#caravan").evaluate(
        "el => el.getBoundingClientRect().top < window.innerHeight")


def test_the_lab_shows_the_facts_a_plugin_game_ships_with_it(pages, shipped, shot):
    page = pages.new(width=1100, height=1400)
    refused = watch_policy(page)
    page.goto("/lab#takeaway")
    toy = page.locator("#takeaway")
    toy.locator(".study").wait_for()
    assert toy.locator("h2").inner_text().startswith("Take-away")
    assert toy.locator("h3").inner_text() == "Take-away: bots at the table"
    assert toy.locator("table th").all_inner_texts()[:3] == ["Stones", "Most taken at once",
                                                             "Bots"]
    assert toy.get_by_role("img", name="First player's win rate by stones").count() == 1
    assert toy.locator("svg rect.bar").count() > 0
    toy.scroll_into_view_if_needed()
    shot(page, "lab-plugin", full_page=False)
    assert refused == []


def test_the_lab_says_when_no_facts_are_shipped(pages, tmp_path, monkeypatch):
    monkeypatch.setattr(facts, "FACTS", tmp_path / "none")
    # nor any game of another package
    monkeypatch.setattr(facts, "descriptors",
                        lambda: [d for d in descriptors() if d.integrations.facts is None])
    page = pages.new()
    page.goto("/lab")
    page.get_by_text("No facts are shipped with this installation yet.").wait_for()


def test_every_shipped_study_is_drawn(pages, shot):
    shipped = facts.shipped_facts()
    studies = sum(len(game["studies"]) for game in shipped["games"])
    if not studies:
        pytest.skip("no facts are shipped in chuko/data/facts yet")
    plots = sum(len(s.get("plots", [])) for game in shipped["games"] for s in game["studies"])
    page = pages.new(width=1100, height=1400)
    refused = watch_policy(page)
    page.goto("/lab")
    page.locator(".study").first.wait_for()
    assert page.locator(".study").count() == studies
    assert page.locator("figure.plot svg").count() == plots
    shot(page, "lab-shipped")
    assert refused == []


# Each label's font size as drawn on the screen: its own size times the scale of its plot.
DRAWN_SIZES = """texts => texts.map((text) => {
  const m = text.getScreenCTM();
  return Math.hypot(m.a, m.b) * parseFloat(getComputedStyle(text).fontSize);
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_labs_plot_labels_are_at_least_11_px_on_a_phone_and_a_desktop(pages, shipped, shot,
                                                                         width):
    page = pages.new(width=width, height=844 if width == 390 else 800)
    page.goto("/lab")
    page.locator("#chuko figure.plot svg").wait_for()
    sizes = page.locator("figure.plot svg text").evaluate_all(DRAWN_SIZES)
    assert sizes and min(sizes) >= 11, sorted(sizes)[:3]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"lab-labels-{width}")
