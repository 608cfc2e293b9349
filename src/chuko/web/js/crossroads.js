// Crossroads: two trails and the shared layout. Your trail is at the bottom; choose a raised
// card, then the end of your trail where it goes (or drag it there, or type `BR`); Esc puts
// a chosen card back.

import { fill, h } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import {
  LETTERS, choice, drawLayout, drawLine, hintList, lastPlaced, selectedLetter, typedMove,
} from "./layout.js";

export { cancelSelection } from "./layout.js";
import { seatLabel } from "./seats.js";

function pointsText(points) {
  return tn("{n} point", "{n} points", points);
}

/** Whether a match is over: its result is the status line's, and each round is shown. */
function matchOver(view) {
  return Boolean(view.outcome) && view.rounds > 1;
}

/** The badge beside a trail: the game's winner; at a match's end the round's, since the
 * match's result is said above the table. */
function badge(view, seat) {
  const round = view.points[view.points.length - 1];
  if (matchOver(view)) {
    return round[seat] > round[1 - seat] ? h("span.chuko-call", { text: t("won the round") }) : null;
  }
  return view.outcome && view.outcome.winners.includes(seat) ? h("span.chuko-call", { text: t("winner") }) : null;
}

function trailPanel(msg, seat, opts) {
  const view = msg.view;
  const round = view.points[view.points.length - 1];
  const toMove = (view.to_move || []).includes(seat);
  return h("div.player-area", { class: `player-area${toMove ? " to-move" : ""}`, dataset: { seat: String(seat) } },
    h("div.player-head", {},
      h("span.name", { text: seatLabel(msg, seat) }),
      h("span.score", { text: pointsText(round[seat]) }),
      // During a match the total is beside the round's points; at its end the result says it.
      view.rounds > 1 && !view.outcome ? h("span.muted", { text: t("total {points}", { points: number(view.totals[seat]) }) }) : null,
      badge(view, seat)),
    drawLine(view.trails[seat].map((card) => ({ card, face_up: true })), {
      ...opts, emptyText: t("trail not started"), fresh: lastPlaced(view, seat),
    }));
}

/** A finished round of a match: both trails (in the order of `seats`), the points and the
 * winner; `markLast` marks the card that ended it. */
function finishedRound(msg, round, seats, markLast) {
  return h("div.round-summary", { dataset: { round: String(round.round) } },
    h("div.label", { text: t("Round {round} of {rounds}", { round: number(round.round), rounds: number(msg.view.rounds) }) }),
    seats.map((seat) => h("div.summary-line", { dataset: { seat: String(seat) } },
      h("div.player-head", {},
        h("span.name", { text: seatLabel(msg, seat) }),
        h("span.score", { text: pointsText(round.points[seat]) }),
        round.winners.includes(seat) ? h("span.chuko-call", { text: t("won the round") }) : null),
      drawLine(round.trails[seat].map((card) => ({ card, face_up: true })), {
        interactive: false,
        fresh: markLast && round.last_move.seat === seat ? (round.last_move.end === "L" ? "L" : "R") : null,
      }))),
    round.winners.length ? null : h("div.muted", { text: t("The round is drawn.") }));
}

/** The last finished round of a match (the pause between rounds shows it). Null before
 * any round has ended. */
export function roundSummary(msg) {
  const finished = msg.view.finished_rounds || [];
  const seats = [msg.seat ?? 0, 1 - (msg.seat ?? 0)];
  return finished.length ? finishedRound(msg, finished[finished.length - 1], seats, true) : null;
}

/** True right after a match's round ended, before the next round's first move. */
function betweenRounds(view) {
  return view.round > 1 && (view.moves || []).length === 12 * (view.round - 1);
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
    outlook: ctx.hintOutlook,
  };
  fill(board,
    // A match's end: the rounds before the last, in order, above the last one's trails.
    matchOver(view)
      ? (view.finished_rounds || []).map((round) => finishedRound(msg, round, [top, bottom], false)) : null,
    h("div.round-info", {},
      h("span", {
        text: view.rounds > 1 ? t("Round {round} of {rounds}", { round: number(view.round), rounds: number(view.rounds) })
          : t("One round"),
      }),
      ctx.interactive ? h("span.guide", {
        text: selected ? t("Now choose an end of your trail for {card}.", { card: view.layout[LETTERS.indexOf(selected)] })
          : t("Choose a raised card, then an end of your trail."),
      }) : null),
    betweenRounds(view) ? roundSummary(msg) : null,
    trailPanel(msg, top, { interactive: false }),
    drawLayout(view, {
      interactive: ctx.interactive, legal, selected, onPick: pick, send: ctx.send, hint: ctx.hint,
    }),
    trailPanel(msg, bottom, mine),
    ctx.interactive ? hintList(view, ctx.hint, pick, ctx.hintOutlook) : null,
    ctx.interactive ? typedMove(ctx.send, legal) : null);
}
