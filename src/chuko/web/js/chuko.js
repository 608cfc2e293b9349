// Chükö: your hand with the playable cards raised, the play pile, the draw pile, every hand's
// size, a reset button, "chükö!" when a hand goes down to one card, and what others did.

import { backCard, numberCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { seatLabel } from "./seats.js";

const SHOWN_TURNS = 8;

/** One turn as a sentence, from the seat's own view of it. */
function turnText(msg, turn) {
  const who = seatLabel(msg, turn.seat);
  const parts = [];
  if (turn.kind === "reset") {
    if (turn.recycled) parts.push(`${who} recycled the pile (${turn.recycled.length} cards)`);
    if (turn.free) parts.push(`${who} took a free reset`);
    else parts.push(turn.drew !== undefined && turn.drew !== null ? `${who} reset and drew ${turn.drew}` : `${who} reset and drew a card`);
    if (turn.card !== undefined) parts.push(`then played ${turn.card}`);
  } else {
    parts.push(`${who} played ${turn.card}`);
  }
  return parts.join(", ") + (turn.chuko ? " — chükö!" : ".");
}

function opponents(msg) {
  const view = msg.view;
  const toMove = view.to_move || [];
  return h("div.opponents", {}, view.hand_sizes.map((size, seat) => {
    if (seat === msg.seat) return null;
    const backs = Array.from({ length: Math.min(size, 6) }, () => backCard({ small: true }));
    return h("div.opponent", {
      class: `opponent${toMove.includes(seat) ? " to-move" : ""}`, dataset: { seat: String(seat) },
    },
    h("div.player-head", {},
      h("span.name", { text: seatLabel(msg, seat) }),
      h("span.count", { text: `${size} card${size === 1 ? "" : "s"}` }),
      size === 1 && view.phase !== "over" ? h("span.chuko-call", { text: "chükö!" }) : null),
    h("div.fan", {}, backs));
  }));
}

function table(view) {
  const below = view.pile.slice(-4, -1);
  return h("div.table", {},
    h("div.pile-area", {},
      h("div.label", { text: "Play pile" }),
      h("div.pile", {}, below.map((card) => numberCard(card, { small: true, dim: true })),
        numberCard(view.top, { data: { role: "top" } })),
      h("div.muted", { text: `${view.pile.length} card${view.pile.length === 1 ? "" : "s"} in the pile` })),
    h("div.draw-area", {},
      h("div.label", { text: "Draw pile" }),
      view.draw_size ? backCard({ text: String(view.draw_size), title: `${view.draw_size} cards to draw` })
        : h("div.card.empty", { title: "empty" }, h("span.value", { text: "0" })),
      h("div.muted", { text: view.draw_size ? "face down" : "empty: a reset recycles the pile" })));
}

function myHand(msg, ctx) {
  const view = msg.view;
  const legal = new Set(msg.legal || []);
  const pending = view.phase === "reset";
  const cards = view.hand.map((card) => {
    const playable = ctx.interactive && legal.has(String(card));
    const face = numberCard(card, {
      raised: playable, playable, selected: pending && card === view.drawn,
      // Every card can be clicked on your turn; the server says why one cannot go.
      onclick: ctx.interactive ? () => ctx.send(String(card)) : undefined,
      title: playable ? `play ${card}` : undefined,
    });
    const note = ctx.hint && ctx.hint[String(card)];
    return h("div.hand-cell", {}, face, note ? h("span.hint-label", { text: note }) : null);
  });
  const resetNote = ctx.hint && ctx.hint.reset;
  const size = view.hand.length;
  return h("div.player-area.mine", { class: `player-area mine${ctx.interactive ? " to-move" : ""}` },
    h("div.player-head", {},
      h("span.name", { text: "Your hand" }),
      h("span.count", { text: `${size} card${size === 1 ? "" : "s"}` }),
      size === 1 && view.phase !== "over" ? h("span.chuko-call", { text: "chükö!" }) : null),
    h("div.hand", {}, cards),
    ctx.interactive ? h("div.actions", {},
      pending
        ? h("span.muted", { text: view.drawn !== null && view.drawn !== undefined
          ? `You drew ${view.drawn}: now play any card of your hand.`
          : "Free reset: play any card of your hand." })
        : h("span.muted", { text: `Play a raised card on ${view.top}, or reset.` }),
      legal.has("reset") ? h("button.reset", {
        type: "button", onclick: () => ctx.send("reset"),
        title: "draw one card, then play any card",
        text: resetNote ? `Reset (${resetNote})` : "Reset",
      }) : null) : null);
}

export function render(board, msg, ctx) {
  const view = msg.view;
  const turns = view.turns || [];
  const latest = turns[turns.length - 1];
  const call = latest && latest.chuko
    ? h("div.banner", { text: `${seatLabel(msg, latest.seat)}: chükö!` }) : null;
  fill(board,
    opponents(msg),
    call,
    table(view),
    view.hand ? myHand(msg, ctx) : null,
    h("div.turns", { "aria-label": "turns" },
      h("div.label", { text: "What happened" }),
      turns.slice(-SHOWN_TURNS).reverse().map((turn) => h("div.turn", { text: turnText(msg, turn) })),
      turns.length ? null : h("div.muted", { text: "No card played yet." })));
}
