// What Crossroads and Caravan share on screen: the 4×3 layout with the available cards
// raised, and a line of cards (a trail, the caravan) whose two ends take the chosen card by
// click or drop. Moves are built as text (`B`, `BR`, `FL*`) and checked against `legal`.

import { backCard, emptySlot, numberCard } from "./cards.js";
import { h } from "./dom.js";

export const LETTERS = "ABCDEFGHIJKL";

/** The local choice between snapshots: the selected card's letter, per room screen. */
export const choice = { letter: null, version: null };

export function selectedLetter(msg) {
  if (choice.version !== msg.version) {
    choice.letter = null;
    choice.version = msg.version;
  }
  return choice.letter;
}

/** Hint labels for the moves of one card, as "L +1 · R 0". */
function hintText(letter, hint) {
  if (!hint) return null;
  const parts = Object.entries(hint)
    .filter(([move]) => move[0] === letter)
    .map(([move, label]) => `${move.slice(1) || "start"} ${label}`);
  return parts.length ? parts.join(" · ") : null;
}

/**
 * The layout. opts: {interactive, legal, hint, selected, onPick(letter)}; a card is raised
 * when it is available, marked playable when some legal move takes it.
 */
export function drawLayout(view, opts) {
  const available = new Set(view.available || []);
  const legal = opts.legal || [];
  const rows = [0, 1, 2].map((row) => h("div.layout-row", {},
    [0, 1, 2, 3].map((col) => {
      const index = row * 4 + col;
      const letter = LETTERS[index];
      const card = view.layout[index];
      if (card === null || card === undefined) return emptySlot(letter);
      const takeable = opts.interactive && available.has(letter);
      const usable = legal.some((m) => m[0] === letter);
      const face = numberCard(card, {
        label: letter,
        raised: available.has(letter),
        playable: opts.interactive && usable,
        selected: opts.selected === letter,
        dim: !available.has(letter),
        onclick: takeable ? () => opts.onPick(letter) : undefined,
        draggable: takeable,
        data: { pos: letter },
      });
      if (takeable) {
        face.addEventListener("dragstart", (event) => {
          event.dataTransfer.setData("text/plain", letter);
          event.dataTransfer.effectAllowed = "move";
        });
      }
      const note = available.has(letter) ? hintText(letter, opts.hint) : null;
      return h("div.layout-cell", {}, face, note ? h("span.hint-label", { text: note }) : null);
    })));
  return h("div.layout", { "aria-label": "layout" }, rows);
}

/**
 * A place at one end of a line (`end` is "L", "R", or "" for the first card). It takes the
 * selected card on click, or a dragged card on drop, when the move is legal.
 * opts: {interactive, legal, selected, suffix, send, hint}.
 */
function endZone(end, opts) {
  const label = { L: "◀ left end", R: "right end ▶", "": "start here" }[end];
  const moveFor = (letter) => `${letter}${end}${end ? opts.suffix || "" : ""}`;
  // Legal ends light up; another end still sends its move, so the server says why not.
  const armed = Boolean(opts.interactive && opts.selected);
  const ready = armed && opts.legal.includes(moveFor(opts.selected));
  const hintLabel = armed && opts.hint ? opts.hint[moveFor(opts.selected)] : null;
  const zone = h("button.end-zone", {
    type: "button",
    class: `end-zone${ready ? " ready" : ""}${armed && !ready ? " blocked" : ""}`,
    disabled: !armed,
    dataset: { end: end || "start" },
    title: armed ? `play ${moveFor(opts.selected)}` : label,
    onclick: () => armed && opts.send(moveFor(opts.selected)),
  }, h("span", { text: label }), hintLabel ? h("span.hint-label", { text: hintLabel }) : null);
  if (opts.interactive) {
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      // The server refuses an illegal drop with its reason: send whatever was dropped.
      const letter = event.dataTransfer.getData("text/plain");
      if (LETTERS.includes(letter) && letter) opts.send(moveFor(letter));
    });
  }
  return zone;
}

/**
 * Where the last move of the game put its card in a line: "L", "R", or null when that move
 * was not in this line. For Crossroads pass the trail's seat; the mover is worked out from
 * who started the round, since the players alternate.
 */
export function lastPlaced(view, seat = null) {
  const moves = view.moves || [];
  if (!moves.length) return null;
  const last = moves[moves.length - 1];
  if (seat !== null) {
    const played = moves.length - 12 * (view.round - 1);
    if (played <= 0) return null;  // a new round has just begun
    const roundFirst = view.round === 1 ? view.first : 1 - view.first;
    if ((roundFirst + played - 1) % 2 !== seat) return null;
  }
  return last[1] === "L" ? "L" : "R";  // a first card is both ends; "R" marks it
}

/**
 * A line of pieces ({card, face_up}) with its two ends as targets when `opts.interactive`.
 * An empty line shows one target for the first card. `opts.fresh` ("L" or "R") marks the
 * card the last move put there.
 */
export function drawLine(pieces, opts) {
  const freshIndex = { L: 0, R: pieces.length - 1 }[opts.fresh];
  const cards = pieces.map((piece, index) => (piece.face_up === false
    ? backCard({ title: `bridge (${piece.card}, face down)`, data: { card: String(piece.card) },
      fresh: index === freshIndex })
    : numberCard(piece.card, { fresh: index === freshIndex })));
  const showEnds = opts.interactive;
  if (!pieces.length) {
    return h("div.line.empty", {}, showEnds ? endZone("", opts) : h("span.muted", { text: opts.emptyText || "no cards yet" }));
  }
  return h("div.line", {},
    showEnds ? endZone("L", opts) : null,
    h("div.line-cards", {}, cards),
    showEnds ? endZone("R", opts) : null);
}
