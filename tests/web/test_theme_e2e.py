"""Dark mode: every page follows the system's colour scheme unless the switch in the header
says otherwise (remembered in this browser and applied before the page is drawn), and every
text of every page meets WCAG AA in both schemes, at 1280×800 and 390×844; screenshots of
each under screenshots/web/theme-<page>-<size>-<scheme>.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from contrast import focus_ring, low_contrast, scheme_shown
from play_helpers import create_room, play_out

WEB = Path(__file__).resolve().parents[2] / "src" / "chuko" / "web"
GAMES = ("chuko", "crossroads", "caravan", "chuchula")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SCHEMES = ("light", "dark")
SWITCH = "header.top select.theme"

# The pages that show no game being played: their path, and what shows once they are drawn.
SITE_PAGES = {
    "home": ("/", ".game-panel form"),
    **{f"rules-{game}": (f"/rules/{game}", f"#rules[data-game='{game}'] h2") for game in GAMES},
    "lab": ("/lab", "figure.plot svg"),
    "lobby": ("/lobby", "#conn.open"),
    "account": ("/account", "#forms form"),
    "learn": ("/learn", ".lesson-link"),
    "learn-chuko": ("/learn/chuko", ".hand .card"),
    "learn-caravan": ("/learn/caravan", ".layout .card"),
    "daily": ("/daily", "#board .layout"),
    "tournaments": ("/tournaments", "#upcoming li"),
}
CLUB_PAGES = {
    "leaderboard": ("/leaderboard/crossroads", ".board-table tbody tr"),
    "profile": ("/@/ann", ".history-plot"),
}
# A table of each game: its options and seats, you against bots.
TABLES = {
    "chuko": ({"players": 3}, [("me",), ("bot", "easy"), ("bot", "easy")]),
    "crossroads": ({"first": "0"}, [("me",), ("bot", "easy")]),
    "caravan": ({}, []),
    "chuchula": ({"players": 2, "length": 1}, [("me",), ("bot", "easy")]),
}


def reads_well_in_every_look(page, shot, name: str) -> None:
    """At both sizes and in both schemes: the page shows the scheme asked for, with the
    header's switch, and no text below WCAG AA; a screenshot of each."""
    unreadable = {}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            assert scheme_shown(page) == scheme, (name, size)
            assert page.locator(SWITCH).count() == 1, name
            found = low_contrast(page)
            if found:
                unreadable[f"{size} {scheme}"] = found
            shot(page, f"theme-{name}-{size}-{scheme}")
    assert unreadable == {}, name


@pytest.mark.parametrize("name", SITE_PAGES)
def test_each_page_reads_well_in_both_schemes_at_both_sizes(pages, shot, name):
    path, drawn = SITE_PAGES[name]
    page = pages.new(*SIZES["desktop"])
    page.goto(path)
    page.locator(drawn).first.wait_for()
    reads_well_in_every_look(page, shot, name)


@pytest.mark.parametrize("name", CLUB_PAGES)
def test_the_club_pages_read_well_in_both_schemes(pages, shot, club_url, name):
    path, drawn = CLUB_PAGES[name]
    page = pages.new(*SIZES["desktop"], base_url=club_url)
    page.goto(path)
    page.locator(drawn).first.wait_for()
    reads_well_in_every_look(page, shot, name)


def finish(page, game: str) -> None:
    """Play the game out: Chuchula's grouping placed by the screen's helper and committed
    (until its reveal has shown every position), any other game by random moves."""
    if game == "chuchula":
        page.get_by_role("button", name="Place for me").click()
        page.locator(".order-check.good, .order-check.bad").wait_for()
        if page.locator(".order-check.bad").count():
            page.locator("button.order").click()
        page.locator("button.commit").click()
        page.locator(".reveal[data-step='4']").wait_for()  # every position shown
    else:
        play_out(page)
    page.locator("#status.over").wait_for()


@pytest.mark.parametrize("game", TABLES)
def test_each_games_table_end_and_replay_read_well_in_both_schemes(pages, shot, game):
    options, seats = TABLES[game]
    page = pages.new(*SIZES["desktop"])
    create_room(page, game, options=options, seats=seats)
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    if page.locator("button.hint").count():
        page.locator("button.hint").click()
        page.locator(".hint-label, .hint-row, .hint-note").first.wait_for()
    reads_well_in_every_look(page, shot, f"{game}-table")
    if page.locator("button.resign").count():
        page.locator("button.resign").click()
        page.locator("dialog.ask").wait_for()
        reads_well_in_every_look(page, shot, f"{game}-resign")
        page.locator("dialog.ask button.stay").click()
    finish(page, game)
    reads_well_in_every_look(page, shot, f"{game}-over")
    page.locator(".end-actions a", has_text="Replay").click()
    page.locator("#moves .move").first.wait_for()
    reads_well_in_every_look(page, shot, f"{game}-replay")
    page.goto("/")
    page.locator(".your-game").first.wait_for()
    reads_well_in_every_look(page, shot, f"{game}-home-your-games")


def open_menu(page) -> None:
    """On a phone the switch sits with the header's links, behind the Menu button."""
    page.get_by_role("button", name="Menu").click()


def test_the_headers_switch_overrides_the_system_and_is_remembered(pages):
    page = pages.new(*SIZES["phone"])
    page.emulate_media(color_scheme="light")
    page.goto("/")
    open_menu(page)
    switch = page.locator(SWITCH)
    assert switch.input_value() == "system"
    assert switch.get_attribute("aria-label") == "Colour scheme"
    assert scheme_shown(page) == "light"
    switch.select_option("dark")
    assert scheme_shown(page) == "dark"
    page.goto("/lab")  # another page of this browser: the choice holds
    assert page.locator(SWITCH).input_value() == "dark"
    assert scheme_shown(page) == "dark"
    page.emulate_media(color_scheme="dark")
    open_menu(page)
    page.locator(SWITCH).select_option("light")
    assert scheme_shown(page) == "light"
    page.reload()
    assert scheme_shown(page) == "light"
    open_menu(page)
    page.locator(SWITCH).select_option("system")  # follow the system again: dark now
    assert scheme_shown(page) == "dark"
    page.emulate_media(color_scheme="light")
    assert scheme_shown(page) == "light"
    page.reload()
    assert page.locator(SWITCH).input_value() == "system"


def tab_to(page, selector: str) -> None:
    """Press Tab until the focus is on `selector` (round the page if need be)."""
    for _ in range(120):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


# Where the keyboard's focus can be: in the header, on the felt, on the paper.
FOCUSED = {"header": "header.top .menu-button", "felt": "#board .card.playable",
           "paper": "button.hint"}


def test_the_keyboards_focus_ring_shows_in_both_schemes(pages, shot):
    """A ring at least 2 px wide, at 3:1 or more against what is around it (WCAG 2.2's focus
    appearance), wherever the focus is and in either scheme."""
    page = pages.new(*SIZES["phone"])
    create_room(page, "crossroads", options={"first": "0"}, seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for where, selector in FOCUSED.items():
            tab_to(page, selector)
            style, width, seen = focus_ring(page)
            assert style != "none" and width >= 2 and seen >= 3, (scheme, where, seen)
            page.locator(selector).first.scroll_into_view_if_needed()
            shot(page, f"theme-focus-{where}-{scheme}", full_page=False)


# Notes the theme the document carries when its body starts: the stylesheet draws the body in
# it from its first paint only if it was set before then.
AT_BODY = """new MutationObserver((changes, observer) => {
  if (!document.body) return;
  window.themeAtBody = document.documentElement.dataset.theme || "none";
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });"""


def test_a_chosen_scheme_is_set_before_any_page_draws_its_body(pages):
    page = pages.new()
    page.add_init_script(AT_BODY)
    page.goto("/")
    page.locator(SWITCH).select_option("dark")
    paths = ["/", "/rules/chuko", "/lab", "/lobby", "/account", "/leaderboard", "/@/nobody",
             "/room/nothing-here", "/replay/nothing-here"]
    for path in paths:
        page.goto(path)
        assert page.evaluate("window.themeAtBody") == "dark", path


def declarations(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+|color-scheme):\s*([^;]+);", block))


def test_the_dark_scheme_is_one_palette_and_no_rule_names_a_colour():
    """The dark values under the system's preference and under the switch's choice are the
    same, each overrides a name the light scheme has; outside those palettes no stylesheet,
    script or page writes a colour of its own (so a scheme can never miss one)."""
    css = (WEB / "style.css").read_text(encoding="utf-8")
    light = declarations(re.search(r"^:root \{(.*?)^\}", css, re.M | re.S).group(1))
    system = re.search(r':root:not\(\[data-theme="light"\]\) \{(.*?)\}', css, re.S).group(1)
    chosen = re.search(r':root\[data-theme="dark"\] \{(.*?)\}', css, re.S).group(1)
    assert declarations(system) == declarations(chosen)
    assert set(declarations(chosen)) <= set(light)
    palettes = re.compile(r'^:root \{.*?^\}|^@media \(prefers-color-scheme: dark\) \{.*?^\}'
                          r'|^:root\[data-theme="dark"\] \{.*?^\}', re.M | re.S)
    colour = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(")
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in {".css", ".js", ".html"}:
            continue
        text = path.read_text(encoding="utf-8")
        text = palettes.sub("", text) if path.name == "style.css" else text
        found += [f"{path.name}: {line.strip()}" for line in text.splitlines()
                  if colour.search(line)]
    assert found == []
