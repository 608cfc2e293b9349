// Caravan: the layout and your one caravan. Pick a raised card, then an end of the caravan;
// turn on "face down" first to lay it as a bridge.

import { fill, h } from "./dom.js";
import { choice, drawLayout, drawLine, lastPlaced, selectedLetter } from "./layout.js";

const local = { faceDown: false, version: null };

export function render(board, msg, ctx) {
  const view = msg.view;
  if (local.version !== msg.version) {
    // Each move starts face up again: a bridge is a deliberate choice.
    local.version = msg.version;
    local.faceDown = false;
  }
  const selected = selectedLetter(msg);
  const legal = msg.legal || [];
  const left = view.bridges - view.bridges_used;
  const toggle = h("label.toggle", { title: "lay the next card face down, as a bridge" },
    h("input", {
      type: "checkbox", checked: local.faceDown, disabled: !ctx.interactive || !view.caravan.length,
      onchange: (event) => { local.faceDown = event.target.checked; ctx.redraw(); },
    }),
    h("span", { text: "Face down (bridge)" }));
  const pick = (letter) => {
    choice.letter = choice.letter === letter ? null : letter;
    ctx.redraw();
  };
  const faceDown = local.faceDown && view.caravan.length > 0;
  fill(board,
    h("div.round-info", {},
      h("span", { text: `Bridges: ${view.bridges_used} of ${view.bridges} used` }),
      h("span.muted", { text: `${view.caravan.length} of 12 cards placed` }),
      ctx.interactive ? toggle : null),
    drawLayout(view, {
      interactive: ctx.interactive, legal, hint: ctx.hint, selected, onPick: pick,
    }),
    h("div.player-area.to-move", {},
      h("div.player-head", {}, h("span.name", { text: "Caravan" }),
        left > 0 ? h("span.muted", { text: `${left} bridge${left === 1 ? "" : "s"} left` }) : null),
      drawLine(view.caravan, {
        interactive: ctx.interactive, legal, selected, send: ctx.send, hint: ctx.hint,
        suffix: faceDown ? "*" : "", emptyText: "no cards yet", fresh: lastPlaced(view),
      })),
    ctx.interactive ? h("p.muted.help", {
      text: selected
        ? `Click an end for ${selected}${faceDown ? " (face down)" : ""}.`
        : "Pick a raised card.",
    }) : null);
}
