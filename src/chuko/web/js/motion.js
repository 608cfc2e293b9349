// Cards slide to where a move put them, so a player sees what they and the bots did. Every
// screen draws a state afresh; around that drawing, where each face-up card was is noted, and
// each card found again afterwards (by its data-card: the same card) slides from its old place
// to its new one: FLIP (first, last, invert, play). A card new to the table (one from a hidden
// hand) has no old place and just appears. Nothing moves for people who ask for less motion.

const SLIDE_MS = 320;
const EASING = "cubic-bezier(0.2, 0.7, 0.2, 1)";
const STILL_PX = 1; // closer than this to where it was, a card has not moved
// Asked at each drawing (a setting changed meanwhile counts); where nothing can be asked (a
// script run outside a browser, as the tests run the groups' module), nothing moves.
const lessMotion = () =>
  typeof matchMedia !== "function" || matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Every drawn card under `board`: [{key, el, box}] (hidden ones have no place to slide from). */
function places(board) {
  const found = [];
  for (const el of board.querySelectorAll(".card[data-card]")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.height) found.push({ key: el.dataset.card, el, box });
  }
  return found;
}

const centre = (box) => [box.left + box.width / 2, box.top + box.height / 2];

/** Each new card with an old place of the same card, nearest pairs first: a card that stayed
 * keeps its place, and of two equal cards the one that moved comes from where the other was. */
function pairs(before, after) {
  const candidates = [];
  for (const now of after) {
    for (const then of before) {
      if (now.key !== then.key) continue;
      const [[x1, y1], [x2, y2]] = [centre(then.box), centre(now.box)];
      candidates.push({ now, then, distance: Math.hypot(x2 - x1, y2 - y1) });
    }
  }
  candidates.sort((a, b) => a.distance - b.distance);
  const [taken, used, found] = [new Set(), new Set(), []];
  for (const { now, then } of candidates) {
    if (taken.has(now) || used.has(then)) continue;
    taken.add(now);
    used.add(then);
    found.push([now, then]);
  }
  return found;
}

/** Slide `el` from the place `from` to where it is drawn now, `to` (its size too: a card that
 * grows into a hand or shrinks onto a pile). The slide replaces an entrance the stylesheet
 * gives a card (which brings it in from nowhere in particular). */
function slide(el, from, to) {
  const [[x1, y1], [x2, y2]] = [centre(from), centre(to)];
  const [dx, dy] = [x1 - x2, y1 - y2];
  const [sx, sy] = [from.width / to.width, from.height / to.height];
  const resized = Math.abs(from.width - to.width) >= STILL_PX || Math.abs(from.height - to.height) >= STILL_PX;
  if (Math.abs(dx) < STILL_PX && Math.abs(dy) < STILL_PX && !resized) return;
  for (const running of el.getAnimations()) {
    const moves = running.effect?.getKeyframes().some((frame) => "transform" in frame);
    if (running instanceof CSSAnimation && moves) running.cancel();
  }
  el.classList.add("sliding");
  const motion = el.animate([
    { translate: `${dx}px ${dy}px`, scale: `${sx} ${sy}` },
    { translate: "0 0", scale: "1 1" },
  ], { duration: SLIDE_MS, easing: EASING });
  motion.finished.then(() => el.classList.remove("sliding"), () => el.classList.remove("sliding"));
}

/** `render(board, …)` whose cards slide from where the previous drawing had them. */
export function sliding(render) {
  return (board, ...rest) => {
    if (lessMotion()) return render(board, ...rest);
    const before = places(board);
    const drawn = render(board, ...rest);
    if (before.length) {
      for (const [now, then] of pairs(before, places(board))) slide(now.el, then.box, now.box);
    }
    return drawn;
  };
}
