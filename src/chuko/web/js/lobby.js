// The lobby: quick-pairing pools (one click on one of a pool's clocks joins, a second
// leaves; the button pulses with the time waited), the open seeks updating live with a join
// button (the newest first sent, older ones a page at a time), and a form to post a seek.
// Rated play is for accounts: a guest's buttons say casual. Everything lives on one socket, /lobby/ws (docs/web-protocol.md, "The lobby"); once
// paired, the page goes to the room, where the session's cookie holds the seat. A panel
// lists the next tournaments.

import { api, fill, games, h, notice, withNodes } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import { becomeGuest } from "./site.js";
import { optionField, readOptions } from "./presets.js";
import { clockText } from "./clocktext.js";
import { eventItem, tick } from "./events.js";

const PING_MS = 20000;
const MAX_DELAY_MS = 8000;

const state = {
  pools: [], counts: {}, seeks: new Map(), you: null, joined: new Set(), games: [], clocks: [],
  next: null, guest: null,  // whether the player is a guest, once the socket says
};
let socket = null;
let delay = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/lobby/ws`);
  let pinger = null;
  let refused = false;
  ws.addEventListener("open", () => {
    delay = 500;
    status("open");
    pinger = setInterval(() => send({ type: "ping" }), PING_MS);
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "error" && !state.you) refused = true;
    receive(msg);
  });
  ws.addEventListener("close", (event) => {
    clearInterval(pinger);
    if (refused || event.code >= 4000) { status("closed"); return; }
    status("retrying");
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  });
  socket = ws;
}

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  else if (msg.type !== "ping") notice(t("The lobby is reconnecting: try again in a moment."), "error");
}

function status(kind) {
  const conn = document.getElementById("conn");
  conn.className = `conn ${kind}`;
  conn.textContent = { open: t("online"), retrying: t("reconnecting"), closed: t("offline") }[kind];
}

function receive(msg) {
  if (msg.type === "lobby") {
    state.counts = { ...msg.pools };
    state.seeks = new Map(msg.seeks.map((seek) => [seek.id, seek]));
    state.next = msg.next;
  } else if (msg.type === "seeks") {
    for (const seek of msg.seeks) state.seeks.set(seek.id, seek);
    state.next = msg.next;
  } else if (msg.type === "update") {
    Object.assign(state.counts, msg.pools);
    for (const id of msg.gone) { state.seeks.delete(id); state.joined.delete(id); }
    for (const seek of msg.seeks) state.seeks.set(seek.id, seek);
  } else if (msg.type === "you") {
    state.you = { ...state.you, ...msg };
    if ("guest" in msg) {
      state.guest = msg.guest;
      document.getElementById("seek-rated-account").hidden = !msg.guest;
    }
    if (msg.name) {
      fill(document.getElementById("me"), withNodes(t("You play as {name}."),
        { name: h("strong", { text: msg.name }) }), " ",
      h("a", { href: "/account", text: t("Your name and account") }));
    }
  } else if (msg.type === "joined") {
    state.joined.add(msg.seek);
    notice(t("You joined the seek: its room opens when its last seat is taken."), "good");
  } else if (msg.type === "paired") {
    notice(t("Paired: opening your game…"), "good");
    location.assign(`/room/${encodeURIComponent(msg.room)}`);
    return;
  } else if (msg.type === "error") {
    notice(msg.message, "error");
    return;
  } else {
    return;
  }
  render();
}

function waited(since) {
  const seconds = Math.max(0, Math.floor(Date.now() / 1000 - since));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The lists are redrawn at every update (twice a second at most) and the waiting clock every
// second: an element whose content did not change is kept, not made again, so a click that
// lands as the lists change still reaches its button.
const drawn = new Map();

function kept(key, content, make) {
  const old = drawn.get(key);
  if (old && old.dataset.content === content) return old;
  const made = make();
  made.dataset.content = content;
  drawn.set(key, made);
  return made;
}

/** Put `nodes` in `parent` unless they are there already, in that order. */
function place(parent, nodes) {
  const same = parent.children.length === nodes.length
    && nodes.every((node, i) => parent.children[i] === node);
  if (!same) fill(parent, nodes);
}

const clockKey = (clock) => (clock ? JSON.stringify([clock.kind, clock.seconds, clock.reserve, clock.days]) : "");
/** A clock's short name in the page ("30+60", "1d"), as tests and styles find its button. */
const clockId = (clock) => (clock.kind === "days" ? `${clock.days}d` : `${clock.seconds}+${clock.reserve}`);
/** Days a move: the lobby keeps the wait or seek while its player is away (the server's rule). */
const slow = (clock) => Boolean(clock) && clock.kind === "days";

function poolCard(pool) {
  const count = state.counts[pool.id] ?? pool.waiting ?? 0;
  const title = state.games.find((game) => game.id === pool.game)?.title || pool.game;
  const kind = state.guest === null ? "" : state.guest ? t("casual") : t("rated");
  // The quick clocks, then days a move on a line of their own.
  const quick = pool.clocks.filter((clock) => !slow(clock)).map((clock) => clockButton(pool, clock, kind));
  const days = pool.clocks.filter(slow).map((clock) => clockButton(pool, clock, kind));
  const card = kept(`pool ${pool.id}`, JSON.stringify([count, title, kind]), () => h(
    "div.pool-card", {}, h("div.pool-head", {}, h("strong", { text: title }),
      h("span", { text: pool.label }), h("small.muted", { text: t("{n} waiting", { n: number(count) }) })),
    h("div.pool-clocks.quick"), h("div.pool-clocks.slow", {},
      h("small.muted.slow-label", { text: t("Days a move:") }), h("span.slow-clocks"))));
  place(card.querySelector(".pool-clocks.quick"), quick);
  place(card.querySelector(".slow-clocks"), days);
  card.querySelector(".pool-clocks.slow").hidden = !days.length;
  return card;
}

function clockButton(pool, clock, kind) {
  const mine = state.you && state.you.pool === pool.id && clockKey(state.you.clock) === clockKey(clock);
  const button = kept(`pool ${pool.id} ${clockKey(clock)}`, JSON.stringify([mine, kind]), () => h(
    `button.pool${mine ? ".waiting" : ""}`, {
      type: "button", "aria-pressed": mine ? "true" : "false",
      dataset: { pool: pool.id, clock: clockId(clock) },
      title: kind ? t("{kind}, {clock}", { kind, clock: clockText(clock, true) }) : clockText(clock, true),
      onclick: () => {
        const choice = document.getElementById("bots-after").value;
        const botsAfter = pool.players > 2 && choice ? Number(choice) : null;
        send({ type: "pool", pool: pool.id, clock, bots_after: botsAfter });
      },
    }, h("span", { text: kind ? t("{kind} · {clock}", { kind, clock: clockText(clock) }) : clockText(clock) }),
    h("small.muted")));
  const text = !mine ? "" : slow(clock) ? t("waiting — you may close the page; click to leave")
    : t("waiting {time} — click to leave", { time: waited(state.you.since) });
  const small = button.querySelector("small");
  if (small.textContent !== text) small.textContent = text;
  small.hidden = !mine;
  return button;
}

function optionsText(seek) {
  const game = state.games.find((g) => g.id === seek.game);
  const label = (name) => game?.options.find((o) => o.name === name)?.label || name;
  return Object.entries(seek.options).map(([name, value]) => t("{option}: {value}",
    { option: label(name), value })).join(", ");
}

function seekRow(seek) {
  const mine = state.you && state.you.seeks.includes(seek.id);
  const joined = state.joined.has(seek.id);
  const clock = clockText(seek.clock, slow(seek.clock));
  const range = seek.range && t("{low}–{high}", { low: seek.range[0], high: seek.range[1] });
  const action = mine || joined
    ? h("button", { type: "button", text: mine ? t("Cancel") : t("Leave"),
      onclick: () => send({ type: "cancel", seek: seek.id }) })
    : h("button.primary", { type: "button", text: t("Join"),
      onclick: () => send({ type: "accept", seek: seek.id }) });
  return kept(`seek ${seek.id}`, JSON.stringify([seek, mine, joined]), () => h("li.seek", {},
    h("div.seek-text", {}, h("strong", { text: seek.title }),
      h("span", { text: range
        ? tn("{n} player · {kind} · {clock}, for {range}", "{n} players · {kind} · {clock}, for {range}",
          seek.players, { kind: seek.rated ? t("rated") : t("casual"), clock, range })
        : tn("{n} player · {kind} · {clock}", "{n} players · {kind} · {clock}",
          seek.players, { kind: seek.rated ? t("rated") : t("casual"), clock }) }),
      h("small.muted", { text: tn("{by} ({rating}) · {options} · {n} seat left",
        "{by} ({rating}) · {options} · {n} seats left", seek.seats_left,
        { by: seek.by, rating: seek.rating_text, options: optionsText(seek) }) })),
    action));
}

function render() {
  place(document.getElementById("pools"), state.pools.length ? state.pools.map(poolCard)
    : [kept("no pools", "", () => h("p.muted", { text: t("No game offers quick pairing here.") }))]);
  const seeks = [...state.seeks.values()].sort((a, b) => a.created - b.created);
  const older = state.next ? [kept(`older ${state.next}`, "", () => h("li.older", {},
    h("button", { type: "button", text: t("Show older seeks"),
      onclick: () => send({ type: "seeks", before: state.next }) })))] : [];
  place(document.getElementById("seeks"), seeks.length ? [...older, ...seeks.map(seekRow)]
    : [kept("no seeks", "", () => h("li.muted", { text: t("No seek is open: post one below.") }))]);
  for (const key of drawn.keys()) {  // bounded: only what is on the page stays kept
    if (!drawn.get(key).isConnected) drawn.delete(key);
  }
}

function showOptions() {
  const game = state.games.find((g) => g.id === document.getElementById("seek-game").value);
  fill(document.getElementById("seek-options"), game ? game.options.map((o) => optionField(o, "seek")) : []);
}

function postSeek(event) {
  event.preventDefault();
  const form = event.target;
  const game = state.games.find((g) => g.id === form.elements.game.value);
  if (!game) return;
  const options = readOptions(game, form);
  const [low, high] = [form.elements.low.value, form.elements.high.value];
  const range = low === "" && high === "" ? null : [Number(low || 0), Number(high || 4000)];
  const chosen = form.elements.clock.value;
  const clock = chosen === "" ? null : state.clocks[Number(chosen)] ?? null;
  send({ type: "seek", game: game.id, options, rated: form.elements.rated.value === "true", range, clock });
}

const EVENTS_SHOWN = 4;

/** The next events: those being played, then the soonest to come (GET /api/tournaments). */
async function showEvents() {
  const lists = await api("/api/tournaments");
  const next = [...lists.running, ...lists.upcoming].slice(0, EVENTS_SHOWN);
  fill(document.getElementById("events"), next.length ? next.map(eventItem)
    : h("li.muted", { text: t("None planned: make one.") }));
}

async function start() {
  showEvents().catch(() => fill(document.getElementById("events")));
  setInterval(tick, 1000);
  try {
    const [catalog, lobby] = await Promise.all([games(), api("/api/lobby")]);
    state.games = catalog.filter((game) => game.max_players === null || game.max_players >= 2);
    state.pools = lobby.pools;
    state.clocks = lobby.clocks;
    state.next = lobby.next;
    for (const seek of lobby.seeks) state.seeks.set(seek.id, seek);
  } catch (error) {
    notice(error.message, "error");
  }
  const select = document.getElementById("seek-game");
  fill(select, state.games.map((game) => h("option", { value: game.id, text: game.title })));
  // The seek's clock: one of the lobby's, or none (casual only); 30 s + 1 min to start with.
  fill(document.getElementById("seek-clock"), [
    ...state.clocks.map((clock, n) => h("option", { value: String(n), text: clockText(clock, true),
      selected: clock.kind === "move" && clock.seconds === 30 })),
    h("option", { value: "", text: t("no clock (casual only)") })]);
  select.addEventListener("change", showOptions);
  showOptions();
  document.getElementById("seek-form").addEventListener("submit", postSeek);
  render();
  // The lobby's socket knows its player by the session's cookie: be a guest first, if
  // nobody yet (POST /api/me makes one, and is nothing for a player already known); a
  // failure is the socket's to say.
  await becomeGuest();
  connect();
  // The waiting button's clock.
  setInterval(() => { if (state.you && state.you.pool) render(); }, 1000);
}

start();
