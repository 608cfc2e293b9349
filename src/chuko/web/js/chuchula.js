// Chuchula: arrange the hand into four group slots by click or drag, each group's type shown
// live, the order checked before the commit; "Suggest" asks the advisor (the hint message).
// When a round ends its groups are revealed position by position.

import { cardLabel, parseCard, suitCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { groupInfo, orderProblem } from "./groups.js";
import { seatLabel } from "./seats.js";

const REVEAL_STEP_MS = 700;

// The Suggest button is this screen's hint: the room shows no Hint button of its own.
export const asksHints = true;

// The arrangement survives snapshots while the hand is the same.
const local = {
  hand: null,        // the hand's text, to know when a new round dealt a new one
  groups: [[], [], [], []],
  selected: null,    // a card text
  suggested: null,   // the hint grouping already laid out
  revealed: 0,       // finished rounds already revealed
  revealing: null,   // {round, step, timer}: the reveal under way or last shown
};

function resetFor(hand) {
  const key = hand.join(" ");
  if (local.hand !== key) {
    local.hand = key;
    local.groups = [[], [], [], []];
    local.selected = null;
  }
}

function placed() {
  return new Set(local.groups.flat());
}

function place(card, slot) {
  for (const group of local.groups) {
    const at = group.indexOf(card);
    if (at >= 0) group.splice(at, 1);
  }
  if (slot !== null && local.groups[slot].length < 3) local.groups[slot].push(card);
  local.selected = null;
}

/** Lay out a grouping text ("Kd Qd Jd | … ; 5s") in the slots. */
function layOut(text, hand) {
  const [groupsText] = text.split(";");
  const groups = groupsText.split("|").map((g) => g.trim().split(/\s+/).map((c) => parseCard(c)?.text));
  const inHand = new Set(hand);
  if (groups.length === 4 && groups.every((g) => g.length === 3 && g.every((c) => inHand.has(c)))) {
    local.groups = groups;
    local.selected = null;
  }
}

function groupingText(hand) {
  const used = placed();
  const leftover = hand.find((card) => !used.has(card));
  return `${local.groups.map((g) => g.join(" ")).join(" | ")} ; ${leftover}`;
}

function dragSource(el, card) {
  el.addEventListener("dragstart", (event) => {
    event.dataTransfer.setData("text/plain", card);
    event.dataTransfer.effectAllowed = "move";
  });
  return el;
}

function dropTarget(el, slot, redraw) {
  el.addEventListener("dragover", (event) => { event.preventDefault(); el.classList.add("over"); });
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", (event) => {
    event.preventDefault();
    el.classList.remove("over");
    const card = event.dataTransfer.getData("text/plain");
    if (card) {
      place(card, slot);
      redraw();
    }
  });
  return el;
}

function arrange(msg, ctx) {
  const hand = msg.view.hand;
  resetFor(hand);
  if (ctx.hint && !local.suggested) {
    const [text] = Object.keys(ctx.hint);
    if (text) layOut(text, hand);
    local.suggested = text;
  }
  if (!ctx.hint) local.suggested = null;
  const used = placed();
  const loose = hand.filter((card) => !used.has(card));
  const full = local.groups.every((g) => g.length === 3);
  const problem = full ? orderProblem(local.groups) : null;
  const redraw = ctx.redraw;

  const handRow = dropTarget(h("div.hand.loose", { "aria-label": "cards not in a group" },
    loose.map((card) => dragSource(suitCard(card, {
      selected: local.selected === card, draggable: true,
      onclick: () => { local.selected = local.selected === card ? null : card; redraw(); },
    }), card))), null, redraw);

  const slots = local.groups.map((group, slot) => {
    const info = groupInfo(group);
    const box = h("div.group-slot", {
      class: `group-slot${local.selected && group.length < 3 ? " ready" : ""}`,
      dataset: { slot: String(slot) },
      onclick: (event) => {
        // A placed card's own click takes it back; an empty place takes the selected card.
        if (event.target.closest("button.card") || !local.selected) return;
        place(local.selected, slot);
        redraw();
      },
    },
    h("div.slot-head", {}, h("span.slot-number", { text: `Group ${slot + 1}` }),
      h("span.group-type", { text: info ? info.label : `${3 - group.length} more` })),
    h("div.slot-cards", {}, group.map((card) => dragSource(suitCard(card, {
      draggable: true, small: false,
      onclick: (event) => { event.stopPropagation(); place(card, null); redraw(); },
    }), card)),
    Array.from({ length: 3 - group.length }, () => h("div.card.empty.place"))));
    return dropTarget(box, slot, redraw);
  });

  const reason = !full
    ? `Place ${12 - used.size} more card${12 - used.size === 1 ? "" : "s"}; the one left over stays out.`
    : problem || `Ready: ${cardLabel(loose[0])} stays out.`;
  const byStrength = () => {
    local.groups.sort((a, b) => (groupInfo(b)?.strength ?? -1) - (groupInfo(a)?.strength ?? -1));
    redraw();
  };
  return h("div.arrange", {},
    h("div.label", { text: "Your hand — click a card, then a group (or drag it); click a placed card to take it back" }),
    handRow,
    h("div.slots", {}, slots),
    h("div.order-check", { class: `order-check ${full && !problem ? "good" : problem ? "bad" : ""}`, text: reason }),
    h("div.actions", {},
      ctx.askHint ? h("button.suggest", { type: "button", text: "Suggest", onclick: ctx.askHint,
        title: "lay out the advisor's grouping" }) : null,
      h("button", { type: "button", text: "Order strongest first", disabled: !full || !problem, onclick: byStrength }),
      h("button", { type: "button", text: "Clear", onclick: () => { local.groups = [[], [], [], []]; redraw(); } }),
      h("button.primary.commit", {
        type: "button", text: "Commit", disabled: !full || Boolean(problem),
        onclick: () => ctx.send(groupingText(hand)),
      })));
}

function committedView(msg) {
  const mine = msg.view.grouping;
  const [groupsText, leftover] = mine.split(";");
  return h("div.arrange.done", {},
    h("div.label", { text: "Your groups (committed)" }),
    h("div.slots", {}, groupsText.split("|").map((g, i) => {
      const cards = g.trim().split(/\s+/);
      const info = groupInfo(cards);
      return h("div.group-slot", {}, h("div.slot-head", {},
        h("span.slot-number", { text: `Group ${i + 1}` }), h("span.group-type", { text: info?.label })),
      h("div.slot-cards", {}, cards.map((c) => suitCard(c))));
    })),
    h("div.muted", { text: `Out of play: ${cardLabel(leftover.trim())}` }));
}

function reveal(msg, round, step) {
  const seats = round.show_order;
  return h("div.reveal", { dataset: { round: String(round.round), step: String(step) } },
    h("div.label", { text: `Round ${round.round}: the groups, position by position` }),
    h("div.reveal-grid", { style: `--seats: ${seats.length}` },
      h("div.reveal-corner"),
      seats.map((seat) => h("div.reveal-seat", { text: seatLabel(msg, seat) })),
      round.positions.slice(0, step).map((position, i) => [
        h("div.reveal-pos", { text: `${i + 1}` }),
        seats.map((seat) => {
          const won = position.winner === seat;
          const tied = position.tied.includes(seat);
          const fresh = i === step - 1 ? " fresh" : "";  // only the row just shown fades in
          return h("div.reveal-cell", { class: `reveal-cell${won ? " won" : ""}${tied ? " tied" : ""}${fresh}` },
            h("div.slot-cards", {}, round.groups[seat][i].split(" ").map((c) => suitCard(c, { small: true }))),
            h("div.group-type", {
              text: `${position.types[seat].toLowerCase().replace("_", " ")}${won ? " — point" : tied ? " — tie" : ""}`,
            }));
        }),
      ])),
    step >= 4 ? h("div.muted", { text: round.positions.every((p) => p.winner === null) ? "Every position tied." : "" }) : null);
}

function scoreboard(msg) {
  const view = msg.view;
  const goal = view.mode === "rounds"
    ? `Round ${view.round} of ${view.length}` : `Round ${view.round} · first to ${view.length} points`;
  return h("div.scoreboard", {},
    h("span", { text: goal }),
    view.scores.map((score, seat) => h("span.score-chip", {
      class: `score-chip${seat === msg.seat ? " me" : ""}`,
    }, `${seatLabel(msg, seat)}: ${score}`,
    view.committed ? h("span.muted", { text: view.committed[seat] ? " · committed" : " · grouping" }) : null)));
}

export function render(board, msg, ctx) {
  const view = msg.view;
  const finished = view.rounds || [];
  // Reveal a newly finished round step by step; a replay shows every round whole.
  if (ctx.still) local.revealed = finished.length;
  if (local.revealed === 0 && finished.length && local.hand === null) {
    local.revealed = finished.length - 1;  // a reloaded page replays only the last reveal
  }
  if (finished.length > local.revealed) {
    local.revealed = finished.length;
    clearTimeout(local.revealing?.timer);
    const showing = { round: finished[finished.length - 1], step: 0, timer: null };
    const tick = () => {
      showing.step += 1;
      if (showing.step < 4) showing.timer = setTimeout(tick, REVEAL_STEP_MS);
      ctx.redraw();
    };
    showing.timer = setTimeout(tick, REVEAL_STEP_MS);
    local.revealing = showing;
  }
  const latest = finished[finished.length - 1];
  const shown = local.revealing && local.revealing.round.round === latest?.round
    ? local.revealing : latest ? { round: latest, step: 4 } : null;
  const revealBox = shown ? reveal(msg, shown.round, shown.step) : null;
  let play = null;
  if (view.hand && view.outcome === null) {
    play = view.grouping ? committedView(msg) : ctx.interactive ? arrange(msg, ctx) : null;
  }
  fill(board,
    scoreboard(msg),
    revealBox,
    view.outcome && msg.result ? h("div.banner", { text: msg.result }) : null,
    view.ranking && view.ranking.length ? h("ol.ranking", {},
      view.ranking.map((seat) => h("li", { text: `${seatLabel(msg, seat)} — ${view.scores[seat]} point${view.scores[seat] === 1 ? "" : "s"}` })))
      : null,
    play);
}
