// The screen for a game that ships none: whose turn it is, what the seat's view holds as
// labelled values and lists, and the legal moves as buttons (or a box to type a move in,
// where the game has too many moves to list). It knows no game: only the snapshot's shape,
// and the view keys its descriptor names as holding one entry per seat (`seat_lists`),
// whose entries it labels with the seats' names.

import { fill, games, h } from "./dom.js";
import { t } from "./i18n.js";
import { listing, seatLabel } from "./seats.js";

// Every registered game's description, read once when the screen loads; without it (the
// request failed) lists per seat show as plain lists.
const catalog = await games().catch(() => []);

/** The keys of `gameId`'s views that hold one entry per seat. */
function seatListsOf(gameId) {
  const found = catalog.find((game) => game.id === gameId);
  return new Set((found && found.seat_lists) || []);
}

// Fields every view carries that the room already shows elsewhere (the seat chips, the
// status line), or that say nothing to a player.
const SHOWN_ELSEWHERE = new Set(["game", "seat", "to_move", "outcome"]);
const MAX_DEPTH = 4;

/** "hand_sizes" → "Hand sizes", "bridgesUsed" → "Bridges used". */
function labelOf(key) {
  const words = String(key).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function plainText(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  return String(value);
}

/**
 * Any JSON value as elements: a word, a row of chips, a list, or a table of fields. `shown`
 * holds the snapshot (for the seats' names) and the keys whose lists are per seat.
 */
function valueEl(value, depth, shown) {
  if (isPlain(value)) return h("span.gv-text", { text: plainText(value) });
  if (depth >= MAX_DEPTH) return h("code.gv-text", { text: JSON.stringify(value) });
  if (Array.isArray(value)) {
    if (!value.length) return h("span.gv-text.gv-none", { text: t("none") });
    if (value.every(isPlain)) {
      return h("span.gv-chips", {}, value.map((item) => h("span.gv-chip", { text: plainText(item) })));
    }
    return h("ol.gv-list", {}, value.map((item) => h("li", {}, valueEl(item, depth + 1, shown))));
  }
  return fields(Object.entries(value), depth + 1, shown);
}

/** A list with one entry per seat: each entry under its seat's name ("You", "Ann"). */
function perSeat(value, depth, shown) {
  return h("dl.gv-fields.gv-seats", {}, value.map((item, seat) => [
    h("dt", { text: seatLabel(shown.msg, seat) }),
    h("dd", { dataset: { seat: String(seat) } }, valueEl(item, depth, shown)),
  ]));
}

function fields(entries, depth, shown) {
  if (!entries.length) return h("span.gv-text.gv-none", { text: t("nothing") });
  return h("dl.gv-fields", {}, entries.map(([key, value]) => [
    h("dt", { text: labelOf(key) }),
    h("dd", { dataset: { key } }, shown.seatLists.has(key) && Array.isArray(value)
      ? perSeat(value, depth + 1, shown) : valueEl(value, depth, shown)),
  ]));
}

function turnLine(msg, ctx) {
  const toMove = (msg.view || {}).to_move || [];
  let text;
  // Nobody to move means the game has ended, in any game (a replay's last frame too).
  if (msg.status === "over" || !toMove.length) text = msg.result || t("The game is over.");
  else if (ctx.interactive) text = t("Your turn: choose a move.");
  else text = t("{players} to move.", { players: listing(toMove.map((seat) => seatLabel(msg, seat))) });
  return h("div.gv-turn", { class: `gv-turn${ctx.interactive ? " mine" : ""}`, text });
}

function moveButtons(msg, ctx) {
  const legal = msg.legal || [];
  const hint = ctx.hint || {};
  if (!legal.length) return h("p.muted", { text: t("Your moves will show here on your turn.") });
  return h("div.gv-moves", {}, legal.map((move) => h("button.gv-move", {
    type: "button",
    disabled: !ctx.interactive,
    dataset: { move },
    title: t("play {move}", { move }),
    onclick: () => ctx.send(move),
  }, h("span", { text: move }), hint[move] ? h("span.hint-label", { text: hint[move] }) : null)));
}

/** Where the game lists no moves (too many), the player types one; the server checks it. */
function moveBox(ctx) {
  const input = h("input.gv-typed", {
    type: "text", name: "move", autocomplete: "off", "aria-label": t("your move"),
    disabled: !ctx.interactive, placeholder: ctx.interactive ? t("type your move") : t("not your turn"),
  });
  const form = h("form.gv-type", {},
    input, h("button.primary", { type: "submit", text: t("Play"), disabled: !ctx.interactive }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) ctx.send(input.value.trim());
  });
  return form;
}

export function render(board, msg, ctx) {
  const view = msg.view || {};
  const entries = Object.entries(view).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
  const seated = msg.seat !== null && msg.seat !== undefined;
  const playing = msg.status === "playing";
  fill(board,
    turnLine(msg, ctx),
    h("section.gv-view", { "aria-label": t("what you see") },
      h("div.label", { text: seated ? t("What you see") : t("The table") }),
      fields(entries, 0, { msg, seatLists: seatListsOf(msg.game) })),
    seated && playing ? h("section.gv-play", { "aria-label": t("your moves") },
      h("div.label", { text: t("Your moves") }),
      "legal" in msg ? moveButtons(msg, ctx) : moveBox(ctx)) : null);
}
