// Caravan: the layout and your one caravan. Choose a raised card, then an end of the caravan:
// face up, or below it as a bridge (face down). Dragging works too, and so does typing the
// move (`FL*`); Esc puts a chosen card back.

import { fill, h } from "./dom.js";
import { number, t, tn } from "./i18n.js";
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
      h("span", { text: t("Bridges: {used} of {bridges} used", { used: number(view.bridges_used), bridges: number(view.bridges) }) }),
      h("span.muted", { text: t("{placed} of {cards} cards placed", { placed: number(view.caravan.length), cards: number(12) }) })),
    drawLayout(view, {
      interactive: ctx.interactive, legal, selected, onPick: pick, send: ctx.send, hint: ctx.hint,
    }),
    h("div.player-area.to-move", {},
      h("div.player-head", {}, h("span.name", { text: t("Caravan") }),
        left > 0 ? h("span.muted", { text: tn("{n} bridge left", "{n} bridges left", left) }) : null),
      drawLine(view.caravan, {
        interactive: ctx.interactive, legal, selected, send: ctx.send, hint: ctx.hint,
        outlook: ctx.hintOutlook, bridges: bridgePlaces, reveal: Boolean(ctx.still), emptyText: t("no cards yet"), fresh: lastPlaced(view),
      })),
    ctx.interactive ? h("p.guide.help", {
      text: selected
        ? (bridgePlaces
          ? t("Now choose an end for {card}: face up, or the bridge place under it to lay it face down.", { card })
          : t("Now choose where {card} goes.", { card }))
        : t("Choose a raised card, then an end of the caravan."),
    }) : null,
    ctx.interactive ? hintList(view, ctx.hint, pick, ctx.hintOutlook) : null,
    ctx.interactive ? typedMove(ctx.send, legal) : null);
}
