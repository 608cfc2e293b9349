// Chükö: your hand with the playable cards raised, the play pile, the draw pile, every hand's
// size, a reset button and "chükö!" when a hand goes down to one card. Once the game is over
// every hand is shown face up. What happened is the room's move log, not this screen's.

import { backCard, numberCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { seatLabel } from "./seats.js";

// The turn count last drawn: the card a new turn put on the pile slides in, once.
const drawn = { turns: null };

function cardsText(size) {
  return tn("{n} card", "{n} cards", size);
}

function cardsLeftText(size) {
  return tn("{n} card left", "{n} cards left", size);
}

/** The other players: a compact strip of names and hand sizes; their cards once it is over. */
function opponents(msg) {
  const view = msg.view;
  const toMove = view.to_move || [];
  const revealed = view.hands || null;
  return h("div.opponents", { role: "list", "aria-label": t("the other players") }, view.hand_sizes.map((size, seat) => {
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
      h("span.count", { text: shown ? cardsLeftText(size) : cardsText(size) }),
      size === 1 && view.phase !== "over" ? h("span.chuko-call", { text: "chükö!" }) : null,
      view.winner === seat ? h("span.chuko-call", { text: t("winner") }) : null),
    cards.length ? h("div.fan", { "aria-label": shown ? t("{player}'s cards", { player: seatLabel(msg, seat) }) : undefined }, cards) : null);
  }));
}

function table(view, fresh) {
  const below = view.pile.slice(-4, -1);
  const draw = view.draw_size;
  return h("div.table", {},
    h("div.pile-area", {},
      h("div.label", { text: t("Play pile") }),
      h("div.pile", {}, below.map((card) => numberCard(card, { small: true, dim: true })),
        h("div.top-slot", { class: `top-slot${fresh ? " enter" : ""}` },
          numberCard(view.top, { data: { role: "top" } }))),
      h("div.muted", { text: tn("{n} card in the pile", "{n} cards in the pile", view.pile.length) })),
    h("div.draw-area", {},
      h("div.label", { text: t("Draw pile") }),
      // A face-down stack: its size is written under it, never on the card like a value.
      draw ? h("div.stack", { title: tn("{n} card to draw", "{n} cards to draw", draw) }, backCard({}))
        : h("div.card.empty", { title: t("empty") }),
      h("div.muted.draw-count", {
        text: draw ? tn("{n} card to draw", "{n} cards to draw", draw) : t("Empty: a reset shuffles the pile into it."),
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
      state: justDrawn && playable ? t("just drawn, playable") : justDrawn ? t("just drawn") : playable ? t("playable") : "",
      // Every card can be played from the keyboard too; the server says why one cannot go.
      onclick: ctx.interactive ? () => ctx.send(String(card)) : undefined,
      title: playable ? t("play {card}", { card }) : undefined,
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
        ? t("You drew {card}: now play any card of your hand.", { card: view.drawn })
        : t("Free reset: play any card of your hand.");
    } else {
      // The server's legal moves say whether any card follows; the screen does not judge.
      const follows = [...legal].some((move) => move !== "reset");
      help = follows ? t("Play a raised card on {card}, or reset.", { card: view.top }) : t("No card fits on {card}: reset.", { card: view.top });
    }
  }
  return h("div.player-area.mine", {
    class: `player-area mine${ctx.interactive ? " to-move" : ""}`, "aria-label": t("your hand"),
  },
  h("div.player-head", {},
    h("span.name", { text: t("Your hand") }),
    h("span.count", { text: over ? cardsLeftText(size) : cardsText(size) }),
    size === 1 && !over ? h("span.chuko-call", { text: "chükö!" }) : null,
    over && view.winner === msg.seat ? h("span.chuko-call", { text: t("winner") }) : null),
  h("div.hand", {}, cards),
  ctx.interactive ? h("div.actions", {},
    h("span.help-text", { text: help }),
    legal.has("reset") ? h("button.reset", {
      type: "button", onclick: () => ctx.send("reset"),
      title: t("draw one card, then play any card"),
      text: resetNote ? t("Reset ({hint})", { hint: resetNote }) : t("Reset"),
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
