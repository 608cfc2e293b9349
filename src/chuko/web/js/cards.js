// Drawing cards: Chükö number cards and cards of the 52-card deck.

import { h } from "./dom.js";

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

/** A face-up number card. opts: {label, raised, playable, selected, fresh, small, title, onclick}. */
export function numberCard(n, opts = {}) {
  const factors = primeFactors(n);
  const classes = ["card", "number"];
  if (opts.raised) classes.push("raised");
  if (opts.playable) classes.push("playable");
  if (opts.selected) classes.push("selected");
  if (opts.small) classes.push("small");
  if (opts.dim) classes.push("dim");
  if (opts.fresh) classes.push("fresh");
  const card = h(`${opts.onclick ? "button" : "div"}.${classes.join(".")}`, {
    onclick: opts.onclick,
    title: opts.title || (factors.length ? `${n} = factors ${factors.join(" · ")}` : `${n}: no prime factor`),
    dataset: { card: String(n), ...(opts.data || {}) },
    type: opts.onclick ? "button" : undefined,
    draggable: opts.draggable ? "true" : undefined,
  },
  opts.label ? h("span.pos", { text: opts.label }) : null,
  h("span.value", { text: String(n) }),
  h("span.factors", { text: factors.length ? factors.join("·") : "–" }));
  return card;
}

/** A face-down card (a Caravan bridge, a hidden hand). */
export function backCard(opts = {}) {
  const classes = ["card", "back"];
  if (opts.small) classes.push("small");
  if (opts.fresh) classes.push("fresh");
  return h(`div.${classes.join(".")}`, { title: opts.title || "face down", dataset: opts.data || {} },
    opts.text ? h("span.value", { text: opts.text }) : null);
}

/** An empty place where a card was. */
export function emptySlot(label) {
  return h("div.card.empty", { title: label ? `${label}: taken` : "empty" },
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

/** A face-up card of the 52-card deck, red for hearts and diamonds. */
export function suitCard(text, opts = {}) {
  const card = parseCard(text);
  const red = card && (card.suit === "h" || card.suit === "d");
  const classes = ["card", "suit", red ? "red" : "black"];
  if (opts.selected) classes.push("selected");
  if (opts.small) classes.push("small");
  if (opts.dim) classes.push("dim");
  const rank = card ? rankName(card.rank) : text;
  const symbol = card ? SUIT_SYMBOLS[card.suit] : "";
  return h(`${opts.onclick ? "button" : "div"}.${classes.join(".")}`, {
    onclick: opts.onclick,
    type: opts.onclick ? "button" : undefined,
    title: cardLabel(text),
    draggable: opts.draggable ? "true" : undefined,
    dataset: { card: card ? card.text : text },
  },
  h("span.corner", { text: `${rank}${symbol}` }),
  h("span.value", { text: symbol }),
  h("span.rank", { text: rank }));
}
