// Chuchula: arrange the hand into four groups. Tap a card, then anywhere in a group's box;
// or drag it there (mouse or finger). A group keeps its cards in the order the engine writes
// them (a pair first, then highest first); a group dragged by its head swaps with another. A
// tapped placed card can be moved to another group; tapped again it goes back to the hand.
// "Place for me" lays out the advisor's grouping (the screen's hint). Keys: Enter or Space
// picks a card, 1–4 puts it in that group, 0 sends it back. When a round ends its groups are
// revealed position by position; a replay shows every hand and the groups committed so far.

import { cardLabel, cardName, draggable, parseCard, suitCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { displayOrder, groupInfo, typeLabel } from "./groups.js";
import { number, t, tn } from "./i18n.js";
import { seatLabel } from "./seats.js";

const REVEAL_STEP_MS = 700;
const GROUPS = 4;
const GROUP_SIZE = 3;

// "Place for me" is this screen's hint: the room shows no Hint button of its own.
export const asksHints = true;

// The arrangement survives snapshots while the hand is the same.
const local = {
  hand: null,        // the hand's text, to know when a new round dealt a new one
  groups: [[], [], [], []],
  selected: null,    // a card text, loose or placed
  message: null,     // why the last placement was refused
  awaiting: false,   // "Place for me" was pressed: lay out the next hint
  focus: null,       // the card to give the focus after the next drawing
  revealed: 0,       // finished rounds already revealed
  revealing: null,   // {round, step, timer}: the reveal under way or last shown
};

/** "double sequence" → "Double sequence". */
function sentenceCase(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function resetFor(hand) {
  const key = hand.join(" ");
  if (local.hand !== key) {
    local.hand = key;
    local.groups = [[], [], [], []];
    local.selected = null;
    local.message = null;
    local.awaiting = false;
  }
}

function placed() {
  return new Set(local.groups.flat());
}

function groupOf(card) {
  return local.groups.findIndex((group) => group.includes(card));
}

/** Put `card` in group `slot` (null: back to the hand), in the group's written order. A full
 * group refuses a card from elsewhere, saying so. */
function place(card, slot) {
  const from = groupOf(card);
  local.selected = null;
  if (slot !== null && slot !== from && local.groups[slot].length >= GROUP_SIZE) {
    local.message = t("Group {group} already has three cards: take one out first.", { group: number(slot + 1) });
    return;
  }
  local.message = null;
  if (from >= 0) local.groups[from] = local.groups[from].filter((placed) => placed !== card);
  if (slot !== null) local.groups[slot] = displayOrder([...local.groups[slot], card]);
}

/** Lay out a grouping text ("Kd Qd Jd | … ; 5s") in the groups. */
function layOut(text, hand) {
  const [groupsText] = text.split(";");
  const groups = groupsText.split("|").map((g) => g.trim().split(/\s+/).map((c) => parseCard(c)?.text));
  const inHand = new Set(hand);
  if (groups.length === GROUPS && groups.every((g) => g.length === GROUP_SIZE && g.every((c) => inHand.has(c)))) {
    local.groups = groups;
    local.selected = null;
    local.message = null;
  }
}

/** The engine's strength of each group of three of the hand (the view's `group_strengths`,
 * listed as itertools.combinations lists the hand's places: 0 1 2, 0 1 3, …), by the group's
 * cards in the hand's order. The screen orders groups by these, never by rules of its own. */
function strengthTable(hand, strengths) {
  const table = new Map();
  if (!strengths) return table;
  let n = 0;
  for (let i = 0; i < hand.length; i += 1) {
    for (let j = i + 1; j < hand.length; j += 1) {
      for (let k = j + 1; k < hand.length; k += 1) table.set(`${hand[i]} ${hand[j]} ${hand[k]}`, strengths[n++]);
    }
  }
  return table;
}

/** A full group's strength from the table, or null (a group still short of cards). */
function strengthOf(table, hand, group) {
  if (group.length !== GROUP_SIZE) return null;
  const key = [...group].sort((a, b) => hand.indexOf(a) - hand.indexOf(b)).join(" ");
  return table.get(key) ?? null;
}

/** Why the full groups are not strongest first, or null: each full group is weighed against
 * the nearest full one above it, so a wrong order shows as soon as both are complete (an
 * empty group between them could not mend it). */
function orderProblem(table, hand) {
  let above = null;
  for (const [slot, group] of local.groups.entries()) {
    const strength = strengthOf(table, hand, group);
    if (strength === null) continue;
    if (above && strength > above.strength) {
      return t("Group {group} ({type}) is stronger than group {above} ({aboveType}): put the groups strongest first.", {
        group: number(slot + 1), type: groupInfo(group).label,
        above: number(above.slot + 1), aboveType: groupInfo(local.groups[above.slot]).label,
      });
    }
    above = { slot, strength };
  }
  return null;
}

function groupingText(hand) {
  const used = placed();
  const leftover = hand.find((card) => !used.has(card));
  return `${local.groups.map((g) => g.join(" ")).join(" | ")} ; ${leftover}`;
}

function pickUp(el, card, redraw) {
  return draggable(el, (target) => {
    if (!target) return;
    place(card, target.dataset.drop === "hand" ? null : Number(target.dataset.slot));
    redraw();
  });
}

/** A group's head dragged onto another group swaps the two (the order is the player's). */
function moveGroup(head, slot, redraw) {
  return draggable(head, (target) => {
    const other = target && target.dataset.drop === "group" ? Number(target.dataset.slot) : slot;
    if (other === slot) return;
    [local.groups[slot], local.groups[other]] = [local.groups[other], local.groups[slot]];
    local.message = null;
    redraw();
  });
}

function onKey(event, redraw) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const focused = event.target.closest?.("[data-card]")?.dataset.card;
  const card = local.selected || focused;
  if (!card) return;
  if (/^[1-4]$/.test(event.key)) place(card, Number(event.key) - 1);
  else if (event.key === "0" || event.key === "Backspace" || event.key === "Delete") place(card, null);
  else if (event.key === "Escape") local.selected = null;
  else return;
  event.preventDefault();
  local.focus = "first-loose";
  redraw();
}

function arrange(msg, ctx) {
  const hand = msg.view.hand;
  resetFor(hand);
  const suggestion = ctx.hint ? Object.keys(ctx.hint)[0] : null;
  if (suggestion && local.awaiting) {
    layOut(suggestion, hand);
    local.awaiting = false;
  }
  const used = placed();
  const loose = hand.filter((card) => !used.has(card));
  const full = local.groups.every((g) => g.length === GROUP_SIZE);
  const strengths = strengthTable(hand, msg.view.group_strengths);
  const problem = orderProblem(strengths, hand);
  const redraw = ctx.redraw;
  const select = (card) => {
    local.selected = local.selected === card ? null : card;
    local.message = null;
    local.focus = card;
    redraw();
  };

  const handRow = h("div.hand.loose", {
    "aria-label": t("cards not in a group"),
    dataset: { drop: "hand" },
    // A tap on the hand's free space takes a selected placed card back.
    onclick: (event) => {
      if (event.target.closest("button.card") || !local.selected || groupOf(local.selected) < 0) return;
      place(local.selected, null);
      redraw();
    },
  }, loose.map((card) => pickUp(suitCard(card, {
    selected: local.selected === card,
    state: local.selected === card ? t("selected") : "",
    onclick: () => select(card),
  }), card, redraw)));

  const slots = local.groups.map((group, slot) => {
    const info = groupInfo(group);
    const open = GROUP_SIZE - group.length;
    const target = Boolean(local.selected) && groupOf(local.selected) !== slot;
    return h("div.group-slot", {
      class: `group-slot${target && open ? " ready" : ""}`,
      dataset: { slot: String(slot), drop: "group" },
      role: "group",
      "aria-label": info ? t("Group {group}, {type}", { group: number(slot + 1), type: info.label })
        : tn("Group {group}, {n} more to place", "Group {group}, {n} more to place", open, { group: number(slot + 1) }),
      // The whole box takes the selected card: a tap on a card already here places the
      // selected one beside it rather than taking that card out.
      onclick: () => {
        if (!local.selected) return;
        place(local.selected, slot);
        redraw();
      },
    },
    moveGroup(h("div.slot-head", { title: t("drag to swap this group with another") },
      h("span.slot-number", {}, "⠿ ", t("Group {group}", { group: number(slot + 1) })),
      info ? h("span.group-type", { text: sentenceCase(info.label) })
        : h("span.group-type.open", { text: tn("{n} more", "{n} more", open) })), slot, redraw),
    h("div.slot-cards", {},
      group.map((card) => pickUp(suitCard(card, {
        selected: local.selected === card,
        state: local.selected === card ? t("in group {group}, selected", { group: number(slot + 1) })
          : t("in group {group}", { group: number(slot + 1) }),
        onclick: (event) => {
          event.stopPropagation();
          if (local.selected && local.selected !== card) place(local.selected, slot);
          else if (local.selected === card) place(card, null);
          else local.selected = card;
          local.focus = card;
          redraw();
        },
      }), card, redraw)),
      Array.from({ length: open }, () => h("div.card.empty.place", { "aria-hidden": "true" }))));
  });

  const left = 12 - used.size;
  const reason = local.message || problem
    || (!full ? tn("Place {n} more card; the one left over stays out.", "Place {n} more cards; the one left over stays out.", left)
      : t("Ready: {card} stays out.", { card: cardLabel(loose[0]) }));
  // The full groups change places, strongest first; groups still being filled stay put.
  const byStrength = () => {
    const slots = [...local.groups.keys()].filter((slot) => strengthOf(strengths, hand, local.groups[slot]) !== null);
    const ordered = slots.map((slot) => local.groups[slot])
      .sort((a, b) => strengthOf(strengths, hand, b) - strengthOf(strengths, hand, a));
    slots.forEach((slot, i) => { local.groups[slot] = ordered[i]; });
    local.message = null;
    redraw();
  };
  const placeForMe = () => {
    if (suggestion) layOut(suggestion, hand);
    else {
      local.awaiting = true;
      ctx.askHint();
    }
    redraw();
  };
  const guide = local.selected
    ? t("Now choose a group (or press 1–4) for {card}; Esc puts it back.", { card: cardName(local.selected) })
    : t("Choose a card, then a group — or drag it. Choose a placed card to move it; choose it again to take it back.");
  return h("div.arrange", { onkeydown: (event) => onKey(event, redraw) },
    h("div.label", { text: t("Your hand") }),
    h("p.guide", { text: guide, "aria-live": "polite" }),
    handRow,
    h("div.slots", {}, slots),
    h("div.order-check", {
      class: `order-check ${local.message || problem ? "bad" : full ? "good" : ""}`, text: reason,
    }),
    h("div.actions", {},
      ctx.askHint ? h("button.suggest", {
        type: "button", text: t("Place for me"), onclick: placeForMe,
        title: t("lay out the advisor's grouping"),
      }) : null,
      suggestion ? h("span.hint-label", { text: ctx.hint[suggestion] }) : null,
      problem ? h("button.order", { type: "button", text: t("Order strongest first"), onclick: byStrength }) : null,
      h("button", {
        type: "button", text: t("Clear"), disabled: !used.size,
        onclick: () => { local.groups = [[], [], [], []]; local.selected = null; redraw(); },
      }),
      h("button.primary.commit", {
        type: "button", text: t("Commit"), disabled: !full || Boolean(problem),
        onclick: () => ctx.send(groupingText(hand)),
      })));
}

/** Groups written "Kd Qd Jd | … ; 5s" as four small boxes and the card left out. */
function groupsRow(text, small) {
  const [groupsText, leftover] = text.split(";");
  return h("div.slots", { class: `slots${small ? " compact" : ""}` }, groupsText.split("|").map((g, i) => {
    const cards = g.trim().split(/\s+/);
    const info = groupInfo(cards);
    return h("div.group-slot", {}, h("div.slot-head", {},
      h("span.slot-number", { text: t("Group {group}", { group: number(i + 1) }) }), h("span.group-type", { text: sentenceCase(info?.label || "") })),
    h("div.slot-cards", {}, cards.map((c) => suitCard(c, { small }))));
  }), leftover ? h("div.leftover", {}, h("span.muted", { text: t("Out of play") }),
    suitCard(leftover.trim(), { small, dim: true, state: t("out of play") })) : null);
}

function committedView(msg) {
  return h("div.arrange.done", {},
    h("div.label", { text: t("Your groups (committed)") }),
    groupsRow(msg.view.grouping, false));
}

/** Every seat's hand, or its groups once committed: a replay's frames. */
function allHands(msg) {
  const view = msg.view;
  const groupings = view.groupings || [];
  return h("div.all-hands", {}, view.hands.map((hand, seat) => {
    const grouping = groupings[seat];
    return h("div.player-area.seat-hand", { dataset: { seat: String(seat) } },
      h("div.player-head", {},
        h("span.name", { text: seatLabel(msg, seat) }),
        h("span.muted", { text: grouping ? t("committed these groups") : t("still grouping these cards") })),
      grouping ? groupsRow(grouping, true)
        : h("div.hand.compact", {}, hand.map((card) => suitCard(card, { small: true }))));
  }));
}

/** Once the game is over: the card each seat left out of the last round, the only ones the
 * reveal did not show. */
function leftOut(msg) {
  const view = msg.view;
  const last = (view.rounds || [])[view.rounds.length - 1];
  if (!last) return null;
  return h("div.left-out", {},
    h("span.muted", { text: t("Left out of round {round}:", { round: number(last.round) }) }),
    view.hands.map((hand, seat) => {
      const grouped = new Set(last.groups[seat].join(" ").split(" "));
      const out = hand.filter((card) => !grouped.has(card));
      return h("span.left-out-seat", { dataset: { seat: String(seat) } },
        h("span", { text: seatLabel(msg, seat) }),
        out.map((card) => suitCard(card, { small: true, state: t("left out") })));
    }));
}

function reveal(msg, round, step) {
  // Columns in the seats' order, the same in every round (the order of showing moves on
  // with the deal, and a player looks for a seat in the same place).
  const seats = round.groups.map((_, seat) => seat);
  return h("div.reveal", { dataset: { round: String(round.round), step: String(step) } },
    h("div.label", { text: t("Round {round}: the groups, position by position", { round: number(round.round) }) }),
    h("div.reveal-grid", { style: `--seats: ${seats.length}` },
      h("div.reveal-corner"),
      seats.map((seat) => h("div.reveal-seat", { text: seatLabel(msg, seat) })),
      round.positions.slice(0, step).map((position, i) => [
        h("div.reveal-pos", { text: number(i + 1) }),
        seats.map((seat) => {
          const won = position.winner === seat;
          const tied = position.tied.includes(seat);
          const fresh = i === step - 1 ? " fresh" : "";  // only the row just shown fades in
          return h("div.reveal-cell", { class: `reveal-cell${won ? " won" : ""}${tied ? " tied" : ""}${fresh}` },
            h("div.slot-cards", {}, round.groups[seat][i].split(" ").map((c) => suitCard(c, { small: true }))),
            h("div.group-type", {
              text: won ? t("{type} — point", { type: sentenceCase(typeLabel(position.types[seat])) })
                : tied ? t("{type} — tie", { type: sentenceCase(typeLabel(position.types[seat])) })
                  : sentenceCase(typeLabel(position.types[seat])),
            }));
        }),
      ])),
    step >= 4 ? h("div.muted", { text: round.positions.every((p) => p.winner === null) ? t("Every position tied.") : "" }) : null);
}

/** Puts back the card picked up (Esc, wherever the focus is); whether there was one. */
export function cancelSelection() {
  const had = local.selected !== null;
  local.selected = null;
  return had;
}

/** The round just finished, whole, for the room's pause between rounds. */
export function roundSummary(msg) {
  const finished = msg.view.rounds || [];
  const latest = finished[finished.length - 1];
  return latest ? h("div.round-summary", {}, reveal(msg, latest, 4)) : null;
}

function scoreboard(msg) {
  const view = msg.view;
  const round = number(view.round);
  const goal = view.mode === "rounds"
    ? t("Round {round} of {rounds}", { round, rounds: number(view.length) })
    : tn("Round {round} · first to {n} point", "Round {round} · first to {n} points", view.length, { round });
  return h("div.scoreboard", {},
    h("span", { text: goal }),
    view.scores.map((score, seat) => h("span.score-chip", {
      class: `score-chip${seat === msg.seat ? " me" : ""}`,
    }, t("{player}: {score}", { player: seatLabel(msg, seat), score: number(score) }),
    view.committed ? h("span.muted", {}, " · ", view.committed[seat] ? t("committed") : t("grouping")) : null)));
}

/** The focus a redraw would lose: the card (or button) that had it, found again by key. */
function focusKey(board) {
  if (local.focus === "first-loose") return ".hand.loose .card";
  if (local.focus) return `.arrange [data-card="${local.focus}"]`;
  const active = document.activeElement;
  if (!active || !board.contains(active)) return null;
  if (active.dataset.card) return `.arrange [data-card="${active.dataset.card}"]`;
  return active.className ? `.arrange button.${active.className.trim().split(/\s+/).join(".")}` : null;
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
  const shown = !ctx.still && local.revealing && local.revealing.round.round === latest?.round
    ? local.revealing : latest ? { round: latest, step: 4 } : null;
  const revealBox = shown ? reveal(msg, shown.round, shown.step) : null;
  let play = null;
  if (view.hands && view.outcome) play = leftOut(msg);
  else if (view.hands && ctx.still) play = allHands(msg);
  else if (view.hand && view.outcome === null) {
    play = view.grouping ? committedView(msg) : ctx.interactive ? arrange(msg, ctx) : null;
  }
  const focus = focusKey(board);
  local.focus = null;
  // The result and the ranking are the room's end panel (or the replay's caption).
  fill(board,
    scoreboard(msg),
    // While a round is being arranged its hands come first; once over, the reveal.
    ctx.still && !view.outcome ? [play, revealBox] : [revealBox, play]);
  if (focus) board.querySelector(focus)?.focus({ preventScroll: true });
}
