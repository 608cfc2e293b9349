"""Right to left: with `dir="rtl"` on the document (as a later Arabic or Hebrew catalogue
will set it) the home page, a game's table and a lesson lay out mirrored — the header's name
at the right, the text starting at the right — nothing runs off the side and no text covers
other text, on a desktop and on a phone. The table's lines and layout keep left to right:
the moves name their ends left and right."""

import pytest
from play_helpers import create_room

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SHOTS = "/tmp/chuko-shots"

# Every pair of text runs whose boxes cross by more than CROSS_PX each way (each text node's
# own boxes, so a paragraph and the link inside it are two runs, side by side; a line box's
# leading may touch a neighbour's by a pixel or two where the letters themselves do not).
CROSS_PX = 3
CROSSING_TEXT = """(cross) => {
  const runs = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const holder = node.parentElement;
    if (!node.textContent.trim() || holder.closest('select, .sr-only')) continue;
    if (!holder.checkVisibility({ visibilityProperty: true })) continue;  // a closed <details>
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      if (box.width >= 2 && box.height >= 2) runs.push({ node, box });
    }
  }
  const crossing = [];
  for (let i = 0; i < runs.length; i += 1) {
    for (let j = i + 1; j < runs.length; j += 1) {
      const [a, b] = [runs[i].box, runs[j].box];
      const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (runs[i].node !== runs[j].node && wide > cross && high > cross) {
        crossing.push(`${runs[i].node.textContent.trim()} / ${runs[j].node.textContent.trim()}`);
      }
    }
  }
  return crossing;
}"""

MIRRORED = """() => {
  const brand = document.querySelector('header.top .brand').getBoundingClientRect();
  const main = document.querySelector('main');
  return {
    brandAtRight: brand.left > innerWidth / 2,
    mainDirection: getComputedStyle(main).direction,
    wide: document.documentElement.scrollWidth,
  };
}"""


def right_to_left(page) -> None:
    page.evaluate("() => { document.documentElement.dir = 'rtl'; }")


def check(page, name: str, size: str) -> None:
    """Mirrored, within the window's width, no text over other text; screenshots in light
    and dark."""
    right_to_left(page)
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect.getTiming().iterations === Infinity)")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=f"{SHOTS}/rtl-{name}-{size}-{scheme}.png", full_page=True)
    page.emulate_media(color_scheme="light")
    seen = page.evaluate(MIRRORED)
    assert seen["brandAtRight"] and seen["mainDirection"] == "rtl"
    assert seen["wide"] <= SIZES[size][0]
    assert page.evaluate(CROSSING_TEXT, CROSS_PX) == []


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_home_page_right_to_left(pages, size):
    page = pages.new(*SIZES[size])
    page.goto("/")
    page.locator("#game-caravan form").wait_for()
    check(page, "home", size)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_caravan_table_right_to_left(pages, size):
    page = pages.new(*SIZES[size])
    create_room(page, "caravan", options={"bridges": 2})
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    first = page.locator(".layout .card.playable").first.get_attribute("data-pos")
    page.locator(f".layout .card[data-pos='{first}']").click()
    page.locator(".end-zone[data-end='start']").click()
    page.locator(".line-cards .card").first.wait_for()
    page.locator("#status.my-turn").wait_for()
    page.locator("button.hint").click()
    page.locator(".hint-row").first.wait_for()
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone .hint-label").first.wait_for()
    check(page, "caravan", size)
    # The line keeps left to right: its left end is at the left.
    left = page.locator(".end-zone[data-end='L']").bounding_box()
    right = page.locator(".end-zone[data-end='R']").bounding_box()
    assert left["x"] < right["x"]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_lesson_right_to_left(pages, size):
    page = pages.new(*SIZES[size])
    page.goto("/learn/caravan")
    page.locator("#step-title:has-text('Step 1 of')").wait_for()
    page.locator(".layout .card").first.wait_for()
    check(page, "lesson-caravan", size)
