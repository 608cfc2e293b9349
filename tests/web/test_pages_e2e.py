"""The generic pages: the home page lists every registered game from /api/games with its
form, the rules page renders each game's Markdown (safely), and none of those pages names a
game."""

import re
from pathlib import Path

import pytest
from contrast import in_both_schemes
from play_helpers import snapshot

from chuko.games import descriptor, game_ids, rules_text

WEB = Path(__file__).resolve().parents[2] / "src" / "chuko" / "web"
# Every page that serves all games alike; the per-game screens (chuko.js, …) may know theirs.
GENERIC = ["index.html", "room.html", "replay.html", "rules.html", "style.css", *(
    f"js/{name}.js" for name in
    ("home", "room", "replay", "rules", "dom", "seats", "store", "socket", "generic", "markdown",
     "presets")
)]


def test_home_lists_every_registered_game_from_the_catalog(pages, shot):
    page = pages.new()
    page.goto("/")
    page.locator(".game-panel").first.wait_for()
    catalog = page.request.get("/api/games").json()
    assert [game["id"] for game in catalog] == game_ids()
    panels = page.locator(".game-panel")
    assert panels.evaluate_all("els => els.map(e => e.dataset.game)") == game_ids()
    for game in catalog:
        panel = page.locator(f".game-panel[data-game='{game['id']}']")
        assert panel.locator("h2").inner_text() == game["title"]
        blurb = panel.locator(".blurb").inner_text()
        assert blurb.lower().startswith(game["summary"][:20].lower()) and blurb.endswith(".")
        names = panel.locator("form [name]").evaluate_all("els => els.map(e => e.name)")
        # The game's options, then the room's clock (a setting of the room, not the game's).
        assert [o["name"] for o in game["options"]] == [
            n for n in names if "seat-" not in n and n != "time-control"]
        players = {o["name"]: o["default"] for o in game["options"]}.get("players")
        assert panel.locator(".seat-row").count() == (players or game["min_players"])
        levels = panel.locator(".seat-row select").nth(1).locator("option")
        assert levels.evaluate_all("els => els.map(e => e.value)") == game["levels"]
        # Rows are named by role: the first is yours, the others opponents, none a number.
        rows = panel.locator(".seat-name").all_inner_texts()
        assert rows == ["You", *(f"Opponent {i}" for i in range(1, len(rows)))]
    assert not re.search(r"seat \d", page.locator("#games").inner_text(), re.IGNORECASE)
    shot(page, "home")


def test_home_remembers_the_name_and_a_games_choices_for_the_next_game(pages):
    page = pages.new()
    page.goto("/")
    page.locator("#player-name").fill("  Ann ")
    panel = page.locator("#game-chuko")
    panel.locator("[name='players']").fill("3")
    panel.locator("[name='players']").dispatch_event("input")
    row = panel.locator(".seat-row").nth(2)
    row.locator("select").first.select_option("friend")
    assert panel.locator(".seat-name").all_inner_texts() == ["You", "Opponent 1", "Opponent 2"]
    panel.locator(".seat-row").nth(0).locator("select").first.select_option("bot")
    assert panel.locator(".seat-name").all_inner_texts() == ["Player 1", "Player 2", "Player 3"]
    panel.locator(".seat-row").nth(0).locator("select").first.select_option("me")
    panel.locator("button[type=submit]").click()
    panel.locator(".created").wait_for()
    room = panel.locator(".created a.primary").get_attribute("href").split("/")[2].split("#")[0]
    assert page.request.get(f"/api/rooms/{room}").json()["seats"][0]["name"] == "Ann"

    # "New game" at the end of a game comes back here: the same choices, that game in view.
    page.goto("about:blank")
    page.goto("/#game-chuko")
    panel = page.locator("#game-chuko.chosen")
    panel.wait_for()
    assert page.locator("#player-name").input_value() == "Ann"
    assert panel.locator("[name='players']").input_value() == "3"
    kinds = panel.locator("select[name='seat-kind']").evaluate_all("els => els.map(e => e.value)")
    assert kinds == ["me", "bot", "friend"]
    assert page.evaluate("document.activeElement.type") == "submit"


def test_home_grows_the_seats_with_the_players_option_on_a_phone(pages, shot):
    page = pages.new(390, 844)
    page.goto("/")
    chuko = page.locator("#game-chuko")
    chuko.locator("[name='players']").fill("4")
    chuko.locator("[name='players']").dispatch_event("input")
    assert chuko.locator(".seat-row").count() == 4
    assert chuko.locator(".players").inner_text() == "2+ players"  # no upper limit (K3)
    shot(page, "home-phone")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_home_offers_an_options_named_values_as_choices_beside_its_number(pages, shot, size):
    """Caravan's bridges: easy, standard and hard from the game's descriptor, shown as
    choices (no tooltip needed, so a phone has them too), kept in step with the number."""
    page = pages.new(*size)
    page.goto("/")
    panel = page.locator("#game-caravan")
    panel.locator("form").wait_for()
    catalog = page.request.get("/api/games").json()
    caravan = next(game for game in catalog if game["id"] == "caravan")
    named = next(o for o in caravan["options"] if o["name"] == "bridges")["named"]
    presets = panel.locator("button.preset")
    assert presets.all_inner_texts() == [f"{name.capitalize()} ({n})" for name, n in named.items()]
    number = panel.locator("input[name='bridges']")

    def chosen() -> list[str]:
        return panel.locator("button.preset[aria-pressed='true']").all_inner_texts()

    assert number.input_value() == "2" and chosen() == ["Standard (2)"]
    panel.locator(".preset-field").scroll_into_view_if_needed()
    for box in [presets.nth(i).bounding_box() for i in range(3)] + [number.bounding_box()]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0]
        assert abs(box["y"] - number.bounding_box()["y"]) < 60  # together, the number beside
    presets.filter(has_text="Hard").click()
    assert number.input_value() == "1" and chosen() == ["Hard (1)"]
    name = "desktop" if size[0] > 600 else "phone"
    in_both_schemes(page, shot, f"home-presets-{name}")
    number.fill("3")
    assert chosen() == ["Easy (3)"]
    number.fill("5")
    assert chosen() == []
    presets.filter(has_text="Hard").click()
    panel.locator("button[type=submit]").click()
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    assert snapshot(page)["view"]["bridges"] == 1


def test_home_shows_the_servers_refusal_of_bad_options(pages):
    page = pages.new()
    page.goto("/")
    panel = page.locator("#game-crossroads")
    panel.locator("[name='pack']").fill("2,3,4")
    panel.locator("button[type=submit]").click()
    error = page.locator("#notice.error")
    error.wait_for()
    assert "12" in error.inner_text()  # a layout game is dealt from exactly 12 cards (G3)


def headings(game: str) -> list[str]:
    """The headings a rules page shows: the Markdown's, under the game's title when the text
    does not open with its own."""
    text = rules_text(game)
    found = [line.lstrip("#").strip().replace("`", "").replace("*", "")
             for line in text.splitlines() if re.match(r"#{1,6} ", line)]
    opens_titled = text.lstrip().startswith("# ")
    return found if opens_titled else [descriptor(game).title, *found]


@pytest.mark.parametrize("game", game_ids())
def test_rules_page_renders_the_games_markdown(pages, shot, game):
    page = pages.new()
    page.goto(f"/rules/{game}")
    article = page.locator(f"#rules[data-game='{game}']")
    article.wait_for()
    assert article.locator("h1, h2, h3, h4, h5, h6").all_inner_texts() == headings(game)
    assert article.locator("p").count() >= 1
    assert page.locator(".rules-nav a.current").inner_text() == descriptor(game).title
    assert page.locator(".rules-nav a").count() == len(game_ids())
    shot(page, f"rules-{game}")


def test_rules_of_an_unknown_game_are_a_not_found_page(pages):
    page = pages.new()
    assert page.goto("/rules/no-such-game").status == 404


MARKDOWN = """# Title with `code`

A paragraph with **bold**, *italic*, _also italic_, a snake_case_name and \\*stars\\*,
running on <script>alert(1)</script> over two lines.

- one
- two with <img src=x onerror="alert(2)">
  - nested
- [a link](/rules/x) and [a trap](javascript:alert(3))

3. third
4. fourth

| Card | Value |
| :--- | ---: |
| A | **1** |
| `x\\|y` | 2 |

> quoted *words*

```
<b>kept as text</b>
```

---
"""


def test_markdown_renderer_builds_structure_and_never_markup_from_the_text(pages):
    page = pages.new()
    page.goto("/")
    html = page.evaluate(
        """async (text) => {
            const { render } = await import("/static/js/markdown.js");
            const box = document.createElement("div");
            box.append(...render(text));
            return box.innerHTML;
        }""",
        MARKDOWN,
    )
    assert "<script" not in html and "<img" not in html and "javascript:" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<h1>Title with <code>code</code></h1>" in html
    assert "<strong>bold</strong>, <em>italic</em>, <em>also italic</em>, a snake_case_name " \
           "and *stars*" in html
    assert '<ul><li>one</li><li>two with &lt;img src=x onerror="alert(2)"&gt;' \
           "<ul><li>nested</li></ul></li>" in html
    assert '<a href="/rules/x">a link</a> and a trap</li></ul>' in html
    assert '<ol start="3"><li>third</li><li>fourth</li></ol>' in html
    # Styles are set through the CSSOM (the page's policy refuses style attributes), which
    # serialises them with a closing semicolon.
    assert '<th style="text-align: left;">Card</th><th style="text-align: right;">Value</th>' \
        in html
    assert "<td style=\"text-align: left;\"><code>x|y</code></td>" in html
    assert "<blockquote><p>quoted <em>words</em></p></blockquote>" in html
    assert "<pre><code>&lt;b&gt;kept as text&lt;/b&gt;</code></pre>" in html
    assert html.endswith("<hr>")


@pytest.mark.parametrize("name", GENERIC)
def test_generic_page_names_no_game(name):
    """The generic pages get every game from /api/games; none is named in them, as a
    string, a path (/rules/chuko) or an attribute (data-game="chuko")."""
    text = (WEB / name).read_text(encoding="utf-8")
    for game in game_ids():
        # The id as a whole word: "chuko.rooms" (a storage key) is no game's name.
        found = re.search(rf"(?<![\w.-]){re.escape(game)}(?![\w.-])", text)
        where = found and text[max(found.start() - 30, 0):found.end() + 30]
        assert found is None, f"{name} names the game {game!r}: …{where}…"


def test_no_page_breaks_the_content_security_policy(pages):
    """The server sends `default-src 'self'`: a page that set an inline style attribute or ran
    inline script would be refused by the browser, and the console says so."""
    from play_helpers import create_room

    page = pages.new()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto("/rules/chuchula")
    page.locator("table").first.wait_for()  # the renderer aligns table columns by style
    create_room(page, "chuchula", options={"players": 2, "mode": "rounds", "length": 1},
                seats=[("me",), ("bot", "easy")])
    page.locator(".hand.loose .card").first.wait_for()
    page.locator("button.suggest", has_text="Place for me").click()
    page.locator("button.commit:not([disabled])").click()
    grid = page.locator("#board .reveal-grid").first
    grid.wait_for()
    assert grid.evaluate("el => getComputedStyle(el).getPropertyValue('--seats').trim()") == "2"
    assert refused == []
