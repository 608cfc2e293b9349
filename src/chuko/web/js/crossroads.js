// Crossroads: two trails and the shared layout. Your trail is at the bottom; tap a raised
// card, then the end of your trail where it goes (or drag it there, or type `BR`).

import { fill, h } from "./dom.js";
import {
  LETTERS, choice, drawLayout, drawLine, hintList, lastPlaced, selectedLetter, typedMove,
} from "./layout.js";
import { seatLabel } from "./seats.js";

function trailPanel(msg, seat, opts) {
  const view = msg.view;
  const round = view.points[view.points.length - 1];
  const toMove = (view.to_move || []).includes(seat);
  return h("div.player-area", { class: `player-area${toMove ? " to-move" : ""}`, dataset: { seat: String(seat) } },
    h("div.player-head", {},
      h("span.name", { text: seatLabel(msg, seat) }),
      h("span.score", { text: `${round[seat]} point${round[seat] === 1 ? "" : "s"}` }),
      view.rounds > 1 ? h("span.muted", { text: `total ${view.totals[seat]}` }) : null,
      view.outcome && view.outcome.winners.includes(seat) ? h("span.chuko-call", { text: "winner" }) : null),
    drawLine(view.trails[seat].map((card) => ({ card, face_up: true })), {
      ...opts, emptyText: "trail not started", fresh: lastPlaced(view, seat),
    }));
}

export function render(board, msg, ctx) {
  const view = msg.view;
  const me = msg.seat ?? null;
  const bottom = me ?? 0;
  const top = 1 - bottom;
  const selected = selectedLetter(msg);
  const legal = msg.legal || [];
  const pick = (letter) => {
    choice.letter = choice.letter === letter ? null : letter;
    ctx.redraw();
  };
  const mine = {
    interactive: ctx.interactive, legal, selected, send: ctx.send, hint: ctx.hint,
  };
  fill(board,
    h("div.round-info", {},
      h("span", { text: view.rounds > 1 ? `Round ${view.round} of ${view.rounds}` : "One round" }),
      ctx.interactive ? h("span.guide", {
        text: selected ? `Now tap an end of your trail for ${view.layout[LETTERS.indexOf(selected)]}.`
          : "Tap a raised card, then an end of your trail.",
      }) : null),
    trailPanel(msg, top, { interactive: false }),
    drawLayout(view, {
      interactive: ctx.interactive, legal, selected, onPick: pick, send: ctx.send,
    }),
    trailPanel(msg, bottom, mine),
    ctx.interactive ? hintList(view, ctx.hint, pick) : null,
    ctx.interactive ? typedMove(ctx.send, view.trails[bottom].length ? "BR" : "B") : null);
}
