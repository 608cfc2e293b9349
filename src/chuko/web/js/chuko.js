// Chükö: your hand with the playable cards raised, the play pile, the draw pile, every hand's
// size, a reset button and "chükö!" when a hand goes down to one card. Once the game is over
// every hand is shown face up. What happened is the room's move log, not this screen's.

import { backCard, numberCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { seatLabel } from "./seats.js";

// The turn count last drawn: the card a new turn put on the pile slides in, once.
const drawn = { turns: null };

function cardsText(size) {
  return `${size} card${size === 1 ? "" : "s"}`;
}

/** The other players: a compact strip of names and hand sizes; their cards once it is over. */
function opponents(msg) {
  const view = msg.view;
  const toMove = view.to_move || [];
  const revealed = view.hands || null;
  return h("div.opponents", { role: "list", "aria-label": "the other players" }, view.hand_sizes.map((size, seat) => {
    if (seat === msg.seat) return null;
    const shown = revealed && revealed[seat];
    const cards = shown
      ? shown.map((card) => numberCard(card, { small: true }))
      : Array.from({ length: Math.min(size, 6) }, () => backCard({ small: true }));
    return h("div.opponent", {
      role: "listitem",
      class: `opponent${toMove.includes(seat) ? " to-move" : ""}${shown ? " revealed" : ""}`,
      dataset: { seat: String(seat) },
    },
    h("div.player-head", {},
      h("span.name", { text: seatLabel(msg, seat) }),
      h("span.count", { text: shown ? `${cardsText(size)} left` : cardsText(size) }),
      size === 1 && view.phase !== "over" ? h("span.chuko-call", { text: "chükö!" }) : null,
      view.winner === seat ? h("span.chuko-call", { text: "winner" }) : null),
    cards.length ? h("div.fan", { "aria-label": shown ? `${seatLabel(msg, seat)}'s cards` : undefined }, cards) : null);
  }));
}

function table(view, fresh) {
  const below = view.pile.slice(-4, -1);
  const draw = view.draw_size;
  return h("div.table", {},
    h("div.pile-area", {},
      h("div.label", { text: "Play pile" }),
      h("div.pile", {}, below.map((card) => numberCard(card, { small: true, dim: true })),
        h("div.top-slot", { class: `top-slot${fresh ? " enter" : ""}` },
          numberCard(view.top, { data: { role: "top" } }))),
      h("div.muted", { text: `${cardsText(view.pile.length)} in the pile` })),
    h("div.draw-area", {},
      h("div.label", { text: "Draw pile" }),
      // A face-down stack: its size is written under it, never on the card like a value.
      draw ? h("div.stack", { title: `${cardsText(draw)} to draw` }, backCard({}))
        : h("div.card.empty", { title: "empty" }),
      h("div.muted.draw-count", {
        text: draw ? `${cardsText(draw)} to draw` : "Empty: a reset shuffles the pile into it.",
      })));
}

function myHand(msg, ctx, fresh) {
  const view = msg.view;
  const legal = new Set(msg.legal || []);
  const pending = view.phase === "reset";
  const over = view.phase === "over";
  const cards = view.hand.map((card) => {
    const playable = ctx.interactive && legal.has(String(card));
    const justDrawn = pending && card === view.drawn;
    const face = numberCard(card, {
      raised: playable, playable, selected: justDrawn || undefined,
      state: [justDrawn ? "just drawn" : "", playable ? "playable" : ""].filter(Boolean).join(", "),
      // Every card can be played from the keyboard too; the server says why one cannot go.
      onclick: ctx.interactive ? () => ctx.send(String(card)) : undefined,
      title: playable ? `play ${card}` : undefined,
    });
    const note = ctx.hint && ctx.hint[String(card)];
    return h("div.hand-cell", { class: `hand-cell${justDrawn && fresh ? " enter" : ""}` },
      face, note ? h("span.hint-label", { text: note }) : null);
  });
  const resetNote = ctx.hint && ctx.hint.reset;
  const size = view.hand.length;
  let help = null;
  if (ctx.interactive) {
    if (pending) {
      help = view.drawn !== null && view.drawn !== undefined
        ? `You drew ${view.drawn}: now play any card of your hand.`
        : "Free reset: play any card of your hand.";
    } else {
      // The server's legal moves say whether any card follows; the screen does not judge.
      const follows = [...legal].some((move) => move !== "reset");
      help = follows ? `Play a raised card on ${view.top}, or reset.` : `No card fits on ${view.top}: reset.`;
    }
  }
  return h("div.player-area.mine", {
    class: `player-area mine${ctx.interactive ? " to-move" : ""}`, "aria-label": "your hand",
  },
  h("div.player-head", {},
    h("span.name", { text: "Your hand" }),
    h("span.count", { text: over ? `${cardsText(size)} left` : cardsText(size) }),
    size === 1 && !over ? h("span.chuko-call", { text: "chükö!" }) : null,
    over && view.winner === msg.seat ? h("span.chuko-call", { text: "winner" }) : null),
  h("div.hand", {}, cards),
  ctx.interactive ? h("div.actions", {},
    h("span.help-text", { text: help }),
    legal.has("reset") ? h("button.reset", {
      type: "button", onclick: () => ctx.send("reset"),
      title: "draw one card, then play any card",
      text: resetNote ? `Reset (${resetNote})` : "Reset",
    }) : null) : null);
}

export function render(board, msg, ctx) {
  const view = msg.view;
  // The view carries only the turns since this seat's previous one (`recent`); the room's
  // move log has the rest.
  const turns = view.recent || [];
  const fresh = drawn.turns !== null && view.turns_played !== drawn.turns;
  drawn.turns = view.turns_played;
  const latest = turns[turns.length - 1];
  const call = latest && latest.chuko && view.phase !== "over"
    ? h("div.banner", { role: "status", text: `${seatLabel(msg, latest.seat)}: chükö!` }) : null;
  fill(board,
    opponents(msg),
    call,
    table(view, fresh),
    view.hand ? myHand(msg, ctx, fresh) : null);
}
