// Drawing cards: Chükö number cards and cards of the 52-card deck. Every card has a name a
// screen reader says ("14, prime factors 2 and 7", "Jack of spades"); a card that acts is a
// button, so it takes the focus and Enter or Space.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { listing } from "./seats.js";


// The badge on a card just placed (table.css, `.card.fresh::after`) says its word in the
// page's language.
// (Guarded: Node.js checks groups.js, which imports this module, with no document.)
if (typeof document !== "undefined") {
  document.documentElement.style.setProperty("--new-badge", JSON.stringify(t("new")));
}

/** The distinct prime factors of n, smallest first (shown on number cards as a reading aid). */
export function primeFactors(n) {
  const found = [];
  let rest = n;
  for (let p = 2; p * p <= rest; p += 1) {
    if (rest % p === 0) {
      found.push(p);
      while (rest % p === 0) rest /= p;
    }
  }
  if (rest > 1) found.push(rest);
  return found;
}

/** A number said in words with its factors: "14, prime factors 2 and 7", "13, a prime". */
export function numberName(n) {
  const factors = primeFactors(n);
  if (!factors.length) return t("{n}, no prime factors", { n });
  if (factors.length === 1 && factors[0] === n) return t("{n}, a prime", { n });
  if (factors.length === 1) return t("{n}, prime factor {factor}", { n, factor: factors[0] });
  return t("{n}, prime factors {factors}", { n, factors: listing(factors.map(String)) });
}

/** The attributes every card shares: a button when it acts, else an image with a name. */
function cardAttrs(opts, name) {
  const named = opts.state ? t("{card}, {state}", { card: name, state: opts.state }) : name;
  const label = opts.label ? t("{place}: {card}", { place: opts.label, card: named }) : named;
  return {
    onclick: opts.onclick,
    type: opts.onclick ? "button" : undefined,
    role: opts.onclick ? undefined : "img",
    "aria-label": label,
    "aria-pressed": opts.onclick && opts.selected !== undefined ? String(Boolean(opts.selected)) : undefined,
  };
}

/**
 * A face-up number card. opts: {label, raised, playable, selected, fresh, small, dim, bridge
 * (a face-down card shown after the game), title, state (words added to its name:
 * "available"), onclick, data}.
 */
export function numberCard(n, opts = {}) {
  const factors = primeFactors(n);
  const classes = ["card", "number"];
  if (opts.raised) classes.push("raised");
  if (opts.playable) classes.push("playable");
  if (opts.selected) classes.push("selected");
  if (opts.small) classes.push("small");
  if (opts.dim) classes.push("dim");
  if (opts.fresh) classes.push("fresh");
  if (opts.bridge) classes.push("bridge");
  const card = h(`${opts.onclick ? "button" : "div"}.${classes.join(".")}`, {
    ...cardAttrs(opts, numberName(n)),
    title: opts.title || numberName(n),
    dataset: { card: String(n), ...(opts.data || {}) },
  },
  opts.label ? h("span.pos", { text: opts.label }) : null,
  h("span.value", { text: String(n) }),
  h("span.factors", { text: factors.length ? factors.join("·") : "–" }));
  return card;
}

/** A face-down card (a Caravan bridge, a hidden hand); `text` (a pile's size) is a badge on
 * its corner, so it never reads as a card's value. */
export function backCard(opts = {}) {
  const classes = ["card", "back"];
  if (opts.small) classes.push("small");
  if (opts.fresh) classes.push("fresh");
  const name = opts.title || t("face down");
  return h(`div.${classes.join(".")}`, { title: name, role: "img", "aria-label": name, dataset: opts.data || {} },
    opts.text ? h("span.count-badge", { text: opts.text, "aria-hidden": "true" }) : null);
}

/** An empty place where a card was. */
export function emptySlot(label) {
  const name = label ? t("{place}: taken", { place: label }) : t("empty");
  return h("div.card.empty", { title: name, role: "img", "aria-label": name },
    label ? h("span.pos", { text: label }) : null);
}

// -- the 52-card deck ----------------------------------------------------------------------

export const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANK_VALUES = { A: 14, K: 13, Q: 12, J: 11, T: 10 };

/** A card's record text ("As", "10h") as {rank: 2–14, suit: "s"|"h"|"d"|"c", text}. */
export function parseCard(text) {
  const match = /^(10|[2-9TJQKA])([shdc])$/i.exec(text.trim());
  if (!match) return null;
  const rankText = match[1].toUpperCase();
  const rank = RANK_VALUES[rankText] || Number(rankText);
  return { rank, suit: match[2].toLowerCase(), text: `${rankText === "T" ? "10" : rankText}${match[2].toLowerCase()}` };
}

export function rankName(rank) {
  return { 14: "A", 13: "K", 12: "Q", 11: "J" }[rank] || String(rank);
}

/** How a card is written on screen: "A♠", "10♥". */
export function cardLabel(text) {
  const card = parseCard(text);
  return card ? rankName(card.rank) + SUIT_SYMBOLS[card.suit] : text;
}

const RANK_WORDS = { 14: t("Ace"), 13: t("King"), 12: t("Queen"), 11: t("Jack") };
const SUIT_WORDS = { s: t("spades"), h: t("hearts"), d: t("diamonds"), c: t("clubs") };

/** A card in words: "Jack of spades", "10 of hearts". */
export function cardName(text) {
  const card = parseCard(text);
  return card ? t("{rank} of {suit}", { rank: RANK_WORDS[card.rank] || card.rank, suit: SUIT_WORDS[card.suit] }) : text;
}

/** A face-up card of the 52-card deck, red for hearts and diamonds. opts: {selected, small,
 * dim, fresh, state, onclick}. */
export function suitCard(text, opts = {}) {
  const card = parseCard(text);
  const red = card && (card.suit === "h" || card.suit === "d");
  const classes = ["card", "suit", red ? "red" : "black"];
  if (opts.selected) classes.push("selected");
  if (opts.small) classes.push("small");
  if (opts.dim) classes.push("dim");
  if (opts.fresh) classes.push("fresh");
  const rank = card ? rankName(card.rank) : text;
  const symbol = card ? SUIT_SYMBOLS[card.suit] : "";
  return h(`${opts.onclick ? "button" : "div"}.${classes.join(".")}`, {
    ...cardAttrs(opts, cardName(text)),
    title: cardName(text),
    dataset: { card: card ? card.text : text },
  },
  h("span.corner", { text: `${rank}${symbol}` }),
  h("span.value", { text: symbol }),
  h("span.rank", { text: rank }));
}

// -- picking cards up ----------------------------------------------------------------------

const DRAG_START_PX = 6;

/** The drop target under a point: the nearest element marked `data-drop`. */
function dropAt(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest("[data-drop]") : null;
}

/**
 * Lets `el` be dragged by mouse, pen or finger alike (pointer events): a copy follows the
 * pointer, the `data-drop` element under it is marked `over`, and `drop(target)` is
 * called where it is let go (target null outside every one). A press that does not move
 * stays a click; the click that ends a drag is swallowed.
 */
export function draggable(el, drop) {
  el.classList.add("grab");
  el.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    let ghost = null;
    let over = null;
    let offset = null;
    const mark = (target) => {
      if (target === over) return;
      over?.classList.remove("over");
      over = target;
      over?.classList.add("over");
    };
    const move = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) < DRAG_START_PX) return;
        const box = el.getBoundingClientRect();
        offset = { x: down.clientX - box.left, y: down.clientY - box.top };
        ghost = el.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("id");
        Object.assign(ghost.style, { width: `${box.width}px`, height: `${box.height}px` });
        document.body.append(ghost);
        el.classList.add("lifted");
      }
      event.preventDefault();
      // The pointer's screen coordinates: physical left and top in any direction of writing.
      ghost.style.left = `${event.clientX - offset.x}px`;
      ghost.style.top = `${event.clientY - offset.y}px`;
      mark(dropAt(event.clientX, event.clientY));
    };
    const end = (event) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      if (!ghost) return;
      ghost.remove();
      el.classList.remove("lifted");
      mark(null);
      // The click the pointer's release makes is not a tap; one the keyboard makes (a key
      // pressed before this timer has run, on a busy page) is the player's own.
      const swallow = (click) => {
        if (click.detail === 0) return;
        click.stopPropagation();
        click.preventDefault();
      };
      window.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
      if (event.type === "pointerup") drop(dropAt(event.clientX, event.clientY));
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  });
  return el;
}
