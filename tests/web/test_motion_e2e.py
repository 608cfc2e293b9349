"""Cards slide to where a move put them (from where they were drawn before), so a player sees
what they and the bot did; and nothing moves at all for people who ask for less motion."""

from collections import Counter

from play_helpers import create_room, snapshot, version, wait_for_new_version

# Every frame, the cards that something moves (a transform or a translation animated on them):
# what the page animates, however it does it.
WATCH_MOTION = """window.moved = [];
window.animations = 0;
const watch = () => {
  for (const running of document.getAnimations()) {
    window.animations += 1;
    const el = running.effect && running.effect.target;
    const frames = running.effect ? running.effect.getKeyframes() : [];
    const moves = frames.some((frame) => "translate" in frame || "transform" in frame);
    if (el && el.dataset && el.dataset.card && moves && !window.moved.includes(el.dataset.card)) {
      window.moved.push(el.dataset.card);
    }
  }
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);"""


def crossroads_first(pages, motion: str):
    """A Crossroads table where you move first against the easy bot, motion as asked."""
    page = pages.new(1280, 800)
    page.emulate_media(reduced_motion=motion)
    page.add_init_script(WATCH_MOTION)
    create_room(page, "crossroads", options={"first": "0"}, seats=[("me",), ("bot", "easy")])
    page.wait_for_url("**/room/**#token=*")
    page.locator("#status.my-turn").wait_for()
    return page


def take_a_card(page) -> str:
    """Tap the first raised card of the layout, then an end of your trail; the card's value."""
    card = page.locator(".layout .card.playable").first
    value = card.get_attribute("data-card")
    card.click()
    page.locator(".end-zone.ready").first.click()
    return value


def test_the_card_you_take_and_the_card_the_bot_takes_slide_to_their_trails(pages, shot):
    page = crossroads_first(pages, "no-preference")
    bot_trail = snapshot(page)["view"]["trails"][1]
    before = version(page)
    mine = take_a_card(page)
    wait_for_new_version(page, before)
    page.wait_for_function("card => window.moved.includes(card)", arg=mine)
    page.locator("#status.my-turn").wait_for()  # the bot has moved
    taken = Counter(snapshot(page)["view"]["trails"][1]) - Counter(bot_trail)
    assert len(taken) == 1
    page.wait_for_function("card => window.moved.includes(card)", arg=str(next(iter(taken))))
    shot(page, "motion-crossroads")


def test_with_less_motion_asked_for_nothing_moves(pages):
    page = crossroads_first(pages, "reduce")
    before = version(page)
    take_a_card(page)
    wait_for_new_version(page, before)
    page.locator("#status.my-turn").wait_for()  # the bot has moved too
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")  # two frames drawn since
    assert page.evaluate("[window.moved, window.animations]") == [[], 0]
