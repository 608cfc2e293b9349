// Caravan: the layout and your one caravan. Choose a raised card, then an end of the caravan:
// face up, or below it as a bridge (face down). Dragging works too, and so does typing the
// move (`FL*`); Esc puts a chosen card back.

import { fill, h } from "./dom.js";
import {
  LETTERS, choice, drawLayout, drawLine, hintList, lastPlaced, selectedLetter, typedMove,
} from "./layout.js";

export { cancelSelection } from "./layout.js";

export function render(board, msg, ctx) {
  const view = msg.view;
  const selected = selectedLetter(msg);
  const legal = msg.legal || [];
  const left = view.bridges - view.bridges_used;
  const bridgePlaces = left > 0 && view.caravan.length > 0; // drawn under the caravan's ends
  const pick = (letter) => {
    choice.letter = choice.letter === letter ? null : letter;
    ctx.redraw();
  };
  const card = selected ? view.layout[LETTERS.indexOf(selected)] : null;
  fill(board,
    h("div.round-info", {},
      h("span", { text: `Bridges: ${view.bridges_used} of ${view.bridges} used` }),
      h("span.muted", { text: `${view.caravan.length} of 12 cards placed` })),
    drawLayout(view, {
      interactive: ctx.interactive, legal, selected, onPick: pick, send: ctx.send, hint: ctx.hint,
    }),
    h("div.player-area.to-move", {},
      h("div.player-head", {}, h("span.name", { text: "Caravan" }),
        left > 0 ? h("span.muted", { text: `${left} bridge${left === 1 ? "" : "s"} left` }) : null),
      drawLine(view.caravan, {
        interactive: ctx.interactive, legal, selected, send: ctx.send, hint: ctx.hint,
        outlook: ctx.hintOutlook, bridges: bridgePlaces, reveal: Boolean(ctx.still), emptyText: "no cards yet", fresh: lastPlaced(view),
      })),
    ctx.interactive ? h("p.guide.help", {
      text: selected
        ? (bridgePlaces
          ? `Now choose an end for ${card}: face up, or the bridge place under it to lay it face down.`
          : `Now choose where ${card} goes.`)
        : "Choose a raised card, then an end of the caravan.",
    }) : null,
    ctx.interactive ? hintList(view, ctx.hint, pick, ctx.hintOutlook) : null,
    ctx.interactive ? typedMove(ctx.send, legal) : null);
}
