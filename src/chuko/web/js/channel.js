// The player's own socket, /me/ws, open on every page with the club's header
// (docs/web-protocol.md, "People"): it keeps the player online, and puts two
// things in the header: the bell, with a count of the challenges received and a dropdown to
// accept (a reason chosen) or decline them and to cancel those sent, and the badge "Your
// turn in 2 games". Whose turn it is, the server says (from each game's engine); this page
// only keeps the set of rooms it was told. An accepted challenge takes the page that accepted
// it and the page that sent it to its room (the players' other pages say so in the bell).

import { clockText as clockWords } from "./clocktext.js";
import { api, fill, h, withNodes } from "./dom.js";
import { t, tn } from "./i18n.js";
import { s } from "./svg.js";

const PING_MS = 25000;
const MAX_DELAY_MS = 30000;
const REASONS = [["generic", t("Not now, thanks.")], ["later", t("Later, please.")],
  ["game", t("Not this game, please.")], ["clock", t("Not this clock, please.")],
  ["casual", t("A casual game, please.")], ["rated", t("A rated game, please.")]];

// `said`: the bell's last word ({text, href?}); `mine`: the challenges this page sent,
// whose acceptance takes it to the room (the player's other pages are only told).
const state = { received: new Map(), sent: new Map(), turns: new Set(), said: null, mine: new Set() };
let parts = null;

/** A clock as a challenge shows it: "30 s + 1 min", "3 days a move", "no clock". */
export function clockText(clock) {
  return clockWords(clock, clock?.kind === "days");
}

function terms(c) {
  return [c.title, c.rated ? t("rated") : t("casual"), clockText(c.clock)].join(" · ");
}

/** A bell, drawn (no emoji font is needed), in the header's ink. */
function bellIcon() {
  return s("svg", { class: "bell-icon", viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" },
    s("path", { d: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z", fill: "currentColor" }),
    s("path", { d: "M9.5 18a2.5 2.5 0 0 0 5 0z", fill: "currentColor" }));
}

function build(header) {
  const count = h("span.bell-count", { "aria-hidden": "true" });
  const button = h("button.bell", { type: "button", "aria-haspopup": "true", "aria-expanded": "false",
    title: t("Challenges"), onclick: () => toggle() }, bellIcon(),
  h("span.sr-only", { text: t("Challenges") }), count);
  const menu = h("div.bell-menu", { role: "region", "aria-label": t("challenges"), hidden: true });
  const badge = h("a.turn-badge", { hidden: true });
  const bell = h("div.bell-box", {}, button, menu);
  header.querySelector("nav.site")?.after(badge, bell);
  document.addEventListener("click", (event) => { if (!bell.contains(event.target)) toggle(false); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") toggle(false); });
  return { button, count, menu, badge };
}

function toggle(open = parts.menu.hidden) {
  parts.menu.hidden = !open;
  parts.button.setAttribute("aria-expanded", String(open));
  if (open) keepInSight(parts.menu);
}

/** The menu opens towards the page's middle: from the bell's end edge, or from its start
 * edge when the bell sits at the header's start (a header that wrapped), so it never hangs
 * off the window. */
function keepInSight(menu) {
  menu.classList.remove("from-start");
  const box = menu.getBoundingClientRect();
  if (box.left < 0 || box.right > window.innerWidth) menu.classList.add("from-start");
}

function received(c) {
  const reason = h("select.small", { "aria-label": t("why you decline") },
    REASONS.map(([code, text]) => h("option", { value: code, text })));
  const from = c.from.username ? h("a", { href: `/@/${encodeURIComponent(c.from.username)}`, text: c.from.name })
    : h("strong", { text: c.from.name });
  return h("li.challenge", { dataset: { id: c.id } },
    h("div", {}, withNodes(t("{player} challenges you"), { player: from })), h("div.muted.small", { text: terms(c) }),
    h("div.challenge-actions", {},
      h("button.small.primary", { type: "button", text: t("Accept"),
        onclick: () => answer("/api/challenges/accept", { id: c.id }) }),
      reason,
      h("button.small", { type: "button", text: t("Decline"),
        onclick: () => answer("/api/challenges/decline", { id: c.id, reason: reason.value }) })));
}

function sent(c) {
  return h("li.challenge", { dataset: { id: c.id } },
    h("div", {}, withNodes(t("You challenged {player}"), {
      player: h("a", { href: `/@/${encodeURIComponent(c.to.username)}`, text: c.to.name }) })),
    h("div.muted.small", { text: t("{terms} · waiting for an answer", { terms: terms(c) }) }),
    h("div.challenge-actions", {}, h("button.small", { type: "button", text: t("Cancel"),
      onclick: () => answer("/api/challenges/cancel", { id: c.id }) })));
}

async function answer(path, body) {
  try {
    const done = await api(path, body);
    if (done.url) location.href = done.url;
  } catch (error) {
    state.said = { text: error.message };
    draw();
  }
}

function draw() {
  const n = state.received.size;
  parts.count.textContent = n ? String(n) : "";
  parts.button.classList.toggle("ringing", n > 0);
  parts.button.title = n ? tn("{n} challenge for you", "{n} challenges for you", n) : t("Challenges");
  fill(parts.menu,
    state.said ? h("p.bell-said", { role: "status" }, state.said.text,
      state.said.href ? [" ", h("a", { href: state.said.href, text: t("Go to the game") })] : null) : null,
    h("h2.bell-title", { text: t("Challenges") }),
    n ? h("ul.challenges", {}, [...state.received.values()].map(received))
      : h("p.muted.small", { text: t("No challenge for you.") }),
    state.sent.size ? h("ul.challenges.sent", {}, [...state.sent.values()].map(sent)) : null,
    h("p.bell-links.small", {}, h("a", { href: "/people", text: t("People you follow") })));
  const turns = [...state.turns];
  parts.badge.hidden = !turns.length;
  parts.badge.textContent = tn("Your turn in {n} game", "Your turn in {n} games", turns.length);
  parts.badge.href = turns.length === 1 ? `/room/${encodeURIComponent(turns[0])}` : "/#your-games";
}

function heard(msg) {
  if (msg.type === "hello") {
    state.received = new Map(msg.challenges.received.map((c) => [c.id, c]));
    state.sent = new Map(msg.challenges.sent.map((c) => [c.id, c]));
    state.turns = new Set(msg.turns);
  } else if (msg.type === "turn") {
    if (msg.yours) state.turns.add(msg.room); else state.turns.delete(msg.room);
  } else if (msg.type === "challenge") {
    const c = msg.challenge;
    if (msg.event === "received") state.received.set(c.id, c);
    else if (msg.event === "sent") state.sent.set(c.id, c);
    else {
      const mine = state.sent.get(c.id);
      state.received.delete(c.id);
      state.sent.delete(c.id);
      if (msg.event === "declined" && mine) state.said = { text: t("{player} declined: {reason}", { player: mine.to.name, reason: c.reason_text }) };
      if (msg.event === "accepted" && msg.room) {
        const href = `/room/${encodeURIComponent(msg.room)}`;
        if (state.mine.has(c.id)) location.href = href;
        else state.said = { text: t("{challenger} and {challenged}: the game has started.",
          { challenger: c.from.name, challenged: c.to.name }), href };
      }
    }
  } else return;
  draw();
}

function connect(delay = 1000) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/me/ws`);
  let pinger = null;
  let refused = false;
  ws.addEventListener("open", () => { pinger = setInterval(() => ws.send('{"type":"ping"}'), PING_MS); });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "hello") delay = 1000;
    if (msg.type === "error") refused = true;
    heard(msg);
  });
  ws.addEventListener("close", () => {
    clearInterval(pinger);
    // A refusal (a page too many, the server not knowing the player yet) waits longer.
    const wait = refused ? MAX_DELAY_MS : delay;
    setTimeout(() => connect(Math.min(delay * 2, MAX_DELAY_MS)), wait);
  });
}

/** This page sent the challenge `id`: its acceptance takes the page to the room. */
export function expectAnswer(id) {
  state.mine.add(id);
}

/** Open the player's channel on this page, once a player is known (a visitor with no
 * session has no notices). */
export function openChannel(player) {
  const header = document.querySelector("header.top");
  if (!player || !header || parts) return;
  parts = build(header);
  draw();
  connect();
}
