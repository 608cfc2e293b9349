// What Crossroads and Caravan share on screen: the 4×3 layout with the available cards
// raised, and a line of cards (a trail, the caravan) whose ends take the chosen card. Choose a
// card, then an end (or drag the card there; Esc puts it back); or type the move (`B`, `BR`,
// `FL*`). Moves are built as text and checked by the server, which says why one is refused.

import { backCard, draggable, emptySlot, numberCard } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const LETTERS = "ABCDEFGHIJKL";

/** The local choice between snapshots: the selected card's letter, per room screen. */
export const choice = { letter: null, version: null };

/** Puts back the card picked up (Esc); whether there was one. */
export function cancelSelection() {
  const had = choice.letter !== null;
  choice.letter = null;
  return had;
}

export function selectedLetter(msg) {
  if (choice.version !== msg.version) {
    choice.letter = null;
    choice.version = msg.version;
  }
  return choice.letter;
}

const END_WORDS = { L: t("left end"), R: t("right end") };

// Where a move ("AL", "BR*", "C" for the first card) puts its card, in a whole sentence
// with the card in it: by the move's end, face up or a bridge.
const MOVE_WORDS = {
  "": (card) => t("{card} to start", { card }),
  L: (card) => t("{card} at the left end", { card }),
  R: (card) => t("{card} at the right end", { card }),
  "L*": (card) => t("{card} at the left end, face down (bridge)", { card }),
  "R*": (card) => t("{card} at the right end, face down (bridge)", { card }),
};
const PUT_WORDS = {
  "": (card) => t("put {card} to start", { card }),
  L: (card) => t("put {card} at the left end", { card }),
  R: (card) => t("put {card} at the right end", { card }),
  "L*": (card) => t("put {card} at the left end, face down (bridge)", { card }),
  "R*": (card) => t("put {card} at the right end, face down (bridge)", { card }),
};

/** A move in words: "14 at the left end". */
export function moveWords(move, view) {
  const card = view.layout[LETTERS.indexOf(move[0])];
  return (MOVE_WORDS[move.slice(1)] || MOVE_WORDS[""])(card ?? move[0]);
}

/** Sends the card `letter` to whichever end it is dropped on. */
function dropOnEnd(letter, send) {
  return (target) => {
    if (target && target.dataset.move !== undefined) send(`${letter}${target.dataset.move}`);
  };
}

/** Where a move puts its card, in a word or two for a label: "right end (bridge)". */
function endWords(move) {
  if (move[1] === "L") return move.endsWith("*") ? t("left end (bridge)") : END_WORDS.L;
  if (move[1] === "R") return move.endsWith("*") ? t("right end (bridge)") : END_WORDS.R;
  return t("start");
}

/** A hinted move's mark on its card: the hint's word and the end it goes to ("better: right end"). */
function markWords(hint, move) {
  return t("{hint}: {end}", { hint, end: endWords(move) });
}

/**
 * The layout. opts: {interactive, legal, selected, onPick(letter), send, hint}; a card is
 * raised when it is available, marked playable when some legal move takes it. On a board no
 * one plays (a replay), a hinted move's card is ringed and labelled with where it goes
 * ("better: right end"); a player's hints show on the ends instead.
 */
export function drawLayout(view, opts) {
  const available = new Set(view.available || []);
  const legal = opts.legal || [];
  const marks = opts.interactive ? {} : opts.hint || {};
  const rows = [0, 1, 2].map((row) => h("div.layout-row", {},
    [0, 1, 2, 3].map((col) => {
      const index = row * 4 + col;
      const letter = LETTERS[index];
      const card = view.layout[index];
      if (card === null || card === undefined) return emptySlot(letter);
      const takeable = opts.interactive && available.has(letter);
      const usable = legal.some((m) => m[0] === letter);
      const selected = opts.selected === letter;
      const marked = Object.keys(marks).filter((move) => move[0] === letter);
      const face = numberCard(card, {
        label: letter,
        raised: available.has(letter),
        playable: opts.interactive && usable,
        selected: takeable ? selected : marked.length > 0 || undefined,
        dim: !available.has(letter),
        state: [available.has(letter) ? t("available") : "", ...marked.map((m) => markWords(marks[m], m))]
          .filter(Boolean).join(", "),
        onclick: takeable ? () => opts.onPick(letter) : undefined,
        data: { pos: letter, ...(marked.length ? { marked: marked.join(" ") } : {}) },
      });
      if (takeable) draggable(face, dropOnEnd(letter, opts.send));
      return h("div.layout-cell", {}, face, marked.map((move) => h("span.hint-label.mark", {
        dataset: { move }, text: markWords(marks[move], move),
      })));
    })));
  return h("div.layout", { role: "group", "aria-label": t("layout") }, rows);
}

/**
 * A place at one end of a line. `move` is what it adds to the card's letter: "L", "R",
 * "L*", "R*", or "" for the first card. It takes the selected card when pressed, or a card
 * dropped on it. opts: {interactive, legal, selected, send, hint, outlook}.
 */
function endZone(move, opts) {
  const bridge = move.endsWith("*");
  const label = move ? bridge ? t("bridge") : END_WORDS[move[0]] : t("start here");
  const arrow = { L: "◀ ", R: "" }[move[0]] || "";
  const after = move[0] === "R" ? " ▶" : "";
  // Legal ends light up; another end still sends its move, so the server says why not.
  const armed = Boolean(opts.interactive && opts.selected);
  const full = armed ? `${opts.selected}${move}` : null;
  const ready = armed && opts.legal.includes(full);
  const hintLabel = armed && opts.hint ? opts.hint[full] : null;
  const outlook = hintLabel && opts.outlook ? opts.outlook[full] : undefined;
  return h("button.end-zone", {
    type: "button",
    class: `end-zone${ready ? " ready" : ""}${armed && !ready ? " blocked" : ""}${bridge ? " bridge" : ""}`,
    disabled: !armed,
    dataset: { end: move || "start", move, drop: "end" },
    "aria-label": armed ? PUT_WORDS[move](opts.selected) : label,
    title: armed ? PUT_WORDS[move](opts.selected) : label,
    onclick: () => armed && opts.send(full),
  }, h("span", { text: `${arrow}${label}${after}` }),
  hintLabel ? h("span.hint-label", { text: hintLabel, dataset: outlook ? { outlook } : undefined }) : null);
}

/** One end of a line: face up, and below it a bridge where one may be laid. */
function endColumn(end, opts) {
  if (!opts.bridges) return endZone(end, opts);
  return h("div.end-column", {}, endZone(end, opts), endZone(`${end}*`, opts));
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
 * A line of pieces ({card, face_up}) with its ends as targets when `opts.interactive`
 * (`opts.bridges`: each end also takes a bridge; `opts.reveal`: bridges shown face up). An empty line shows one target for the
 * first card. `opts.fresh` ("L" or "R") marks the card the last move put there.
 */
export function drawLine(pieces, opts) {
  const freshIndex = { L: 0, R: pieces.length - 1 }[opts.fresh];
  const cards = pieces.map((piece, index) => {
    const fresh = index === freshIndex;
    const bridge = piece.face_up === false;
    const state = bridge && fresh ? t("bridge, face down, just placed") : bridge ? t("bridge, face down")
      : fresh ? t("just placed") : "";
    // A replay (`opts.reveal`) turns the bridges up, marked as bridges.
    if (piece.face_up === false && !opts.reveal) {
      return backCard({ title: t("bridge: {card}, face down", { card: piece.card }), data: { card: String(piece.card) }, fresh });
    }
    return numberCard(piece.card, { fresh, state, bridge: piece.face_up === false });
  });
  const showEnds = opts.interactive;
  if (!pieces.length) {
    return h("div.line.empty", {}, showEnds ? endZone("", opts) : h("span.muted", { text: opts.emptyText || t("no cards yet") }));
  }
  if (showEnds) {
    // Each end is held to the card beside it: a line wrapping onto more rows keeps its left
    // end before the first card and its right end after the last.
    const last = cards.length - 1;
    cards[last] = h("div.line-end", {}, last === 0 ? endColumn("L", opts) : null, cards[last], endColumn("R", opts));
    if (last > 0) cards[0] = h("div.line-end", {}, endColumn("L", opts), cards[0]);
  }
  return h("div.line", {}, h("div.line-cards", {}, cards));
}

/**
 * The adviser's word on each move, as sent ("wins by 1 point"), beside the move in
 * words, each row marked with how the move ends the game where the hint says (`outlook`:
 * "win", "draw" or "loss"), so losing moves stand apart; pressing a row picks its card.
 * Null without a hint.
 */
export function hintList(view, hint, onPick, outlook = null) {
  const entries = Object.entries(hint || {});
  if (!entries.length) return null;
  return h("div.hint-list", { role: "list", "aria-label": t("hints") },
    h("div.label", { text: t("Hint: each move") }),
    entries.map(([move, label]) => h("button.hint-row", {
      type: "button", role: "listitem", onclick: () => onPick(move[0]),
      dataset: outlook && outlook[move] ? { move, outlook: outlook[move] } : { move },
    }, h("span.hint-move", { text: moveWords(move, view) }), h("span.hint-label", { text: label }))));
}

/** A move of `legal` to show as the example: one that may be played now, face up where
 * there is one (the plainest notation). */
function example(legal) {
  return legal.find((move) => !move.endsWith("*")) ?? legal[0] ?? "";
}

/** A box to type a move in its notation (`BR`, `FL*`), its example one of the `legal`
 * moves the server sent; the server checks what is typed. */
export function typedMove(send, legal) {
  const input = h("input.typed-move", {
    type: "text", name: "move", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    "aria-label": t("type a move"), placeholder: example(legal || []), size: 6, maxlength: 8,
  });
  const form = h("form.typed", {},
    h("label", { text: t("or type a move") }, input),
    h("button", { type: "submit", text: t("Play") }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const move = input.value.trim().toUpperCase();
    if (move) send(move);
  });
  return form;
}
