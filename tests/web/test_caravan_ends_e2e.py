"""Caravan's ends on a desktop and a phone, measured in the browser: a hint's words stay
inside the end they label (never over another end, the caravan's head or out of its box),
and when the caravan wraps onto a second row each end stays at its end: the left end before
the first card, the right end after the last. The deal is the app's own seeded one, so the
caravan the test builds is the same every run."""

from random import Random

import pytest
from play_helpers import create_room, play_out

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SHOTS = "/tmp/chuko-shots"

# The boxes of a caravan's area, as the page lays them out: each end with its words, the
# area's head, the area itself, the first and last cards.
BOXES = """area => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const cards = [...area.querySelectorAll('.line-cards .card')];
  return {
    area: box(area),
    head: box(area.querySelector('.player-head')),
    ends: [...area.querySelectorAll('.end-zone')].map((end) => ({
      end: end.dataset.end, box: box(end),
      words: [...end.querySelectorAll('span')].map(box),
    })),
    first: box(cards[0]),
    last: box(cards[cards.length - 1]),
  };
}"""


def overlap(one: dict, other: dict) -> bool:
    """Whether two boxes share more than a pixel's sliver."""
    return (min(one["right"], other["right"]) - max(one["left"], other["left"]) > 1
            and min(one["bottom"], other["bottom"]) - max(one["top"], other["top"]) > 1)


def inside(inner: dict, outer: dict) -> bool:
    return (inner["left"] >= outer["left"] - 1 and inner["right"] <= outer["right"] + 1
            and inner["top"] >= outer["top"] - 1 and inner["bottom"] <= outer["bottom"] + 1)


def caravan_of(own_app, pages, size: str, cards: int):
    """A solo Caravan (two bridges) on the app's seeded deal, `cards` cards placed, a hint
    asked for and a card picked up, so every end shows the hint's words."""
    _, url = own_app(bot_delay=0.05, round_pause=0, rng=Random(35))
    page = pages.new(*SIZES[size], base_url=url)
    create_room(page, "caravan", options={"bridges": 2})
    page.wait_for_url("**/room/**#token=*")
    play_out(page, seed=2, until=lambda state: len(state["view"]["caravan"]) >= cards)
    page.locator(".line-cards .card").nth(cards - 1).wait_for()
    page.locator("#status.my-turn").wait_for()
    page.locator("button.hint").click()
    page.locator(".hint-row").first.wait_for()
    page.locator(".layout .card.playable").first.click()
    page.locator(".end-zone .hint-label").first.wait_for()
    # Measured where the cards rest: once every slide and glow of the last move is over.
    page.wait_for_function("""() => document.getAnimations().every((a) =>
        a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)""")
    return page


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_hints_words_stay_inside_their_end(own_app, pages, size):
    page = caravan_of(own_app, pages, size, cards=1)
    area = page.locator(".player-area")
    assert page.locator(".end-zone.bridge").count() == 2  # the bridge places show too
    boxes = area.evaluate(BOXES)
    page.screenshot(path=f"{SHOTS}/caravan-ends-hint-{size}.png")
    wrong = []
    for end in boxes["ends"]:
        for words in end["words"]:
            if not inside(words, end["box"]):
                wrong.append(f"words of {end['end']} spill out of it: {words} vs {end['box']}")
        if not inside(end["box"], boxes["area"]):
            wrong.append(f"{end['end']} leaves the caravan's box")
        if overlap(end["box"], boxes["head"]):
            wrong.append(f"{end['end']} covers the caravan's head")
        wrong += [f"{end['end']} overlaps {other['end']}" for other in boxes["ends"]
                  if other is not end and overlap(end["box"], other["box"])]
    assert wrong == []


def test_each_end_stays_at_its_end_when_the_caravan_wraps(own_app, pages):
    page = caravan_of(own_app, pages, "phone", cards=6)
    boxes = page.locator(".player-area").evaluate(BOXES)
    page.locator(".player-area").screenshot(path=f"{SHOTS}/caravan-ends-wrapped-phone.png")
    first, last = boxes["first"], boxes["last"]
    assert last["top"] > first["bottom"], "six cards and both ends should take two rows"
    ends = {end["end"]: end["box"] for end in boxes["ends"]}
    left, right = ends["L"], ends["R"]
    # Each end sits on its card's row (its middle level with the card), beside it: before
    # the first card, after the last.
    assert left["right"] <= first["left"] and first["top"] <= middle(left) <= first["bottom"]
    assert right["left"] >= last["right"] and last["top"] <= middle(right) <= last["bottom"]


def middle(box: dict) -> float:
    return (box["top"] + box["bottom"]) / 2
