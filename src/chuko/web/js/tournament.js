// /tournament/{id}: a tournament's settings and rules in words, joining (with its password
// when it has one), withdrawing, pausing and resuming, the standings, the games in progress
// to watch, the pairings by round and, once it is over, the podium
// (GET /api/tournaments/{id}; docs/web-protocol.md, "Tournaments"). While it is to come or
// running the page asks again every 2 s, and sends a player whose game starts to its room.

import "./site.js";
import { clockText } from "./clocktext.js";
import { api, fill, h, notice } from "./dom.js";
import { countdown, eventKind, localTime, tick } from "./events.js";
import { becomeGuest } from "./site.js";
import { rememberTournamentRooms } from "./store.js";

const POLL_MS = 2000;
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
// Each tie-break's name, and its short form for a phone's narrow table.
const TIEBREAK_NAMES = { buchholz: ["Buchholz", "Bh"], sonneborn_berger: ["Sonneborn–Berger", "SB"] };
const PLACES = ["1st", "2nd", "3rd"];
const SENT = `tournament-sent:${id}`;  // the rooms this tab was sent to already

let shown = null;
let pollFailed = false;  // the notice says the last poll failed

const points = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.5$/, "½").replace(/^0½/, "½"));

function head(t) {
  const rating = t.rating_min !== null || t.rating_max !== null
    ? `rated ${t.rating_min ?? 0} to ${t.rating_max ?? 4000} only` : null;
  const when = t.status === "upcoming"
    ? h("p.when", {}, `Starts ${localTime(t.starts_at)} · `,
      h("span.countdown", { dataset: { at: String(t.starts_at) }, text: countdown(t.starts_at) }))
    : t.status === "running"
      ? h("p.when", { text: t.system === "arena" ? `Playing until ${localTime(t.ends_at)}`
        : `Round ${t.round} of ${t.rounds}` })
      : h("p.when", { text: t.final ? "Over." : "Over: the last games are being played." });
  return [h("h1", { text: t.name }),
    h("p.event-kind", { text: eventKind(t) }),
    h("p.muted", { text: [`${clockText(t.clock, true)}`, `${t.players} player${t.players === 1 ? "" : "s"}`,
      rating, t.password ? "password" : null, t.scheduled ? "on the club's schedule" : null]
      .filter(Boolean).join(" · ") }),
    when];
}

async function act(action, body = {}) {
  try {
    if (action === "join") await becomeGuest();  // a visitor plays as a guest
    const page = await api(`/api/tournaments/${encodeURIComponent(id)}/${action}`, body);
    notice("");
    show(page);
  } catch (error) {
    notice(error.message, "error");
  }
}

function joinForm(t) {
  if (!t.password) {
    return h("button.primary", { type: "button", text: "Join", onclick: () => act("join") });
  }
  return h("form.join-form", { onsubmit: (event) => {
    event.preventDefault();
    act("join", { password: event.target.elements.password.value });
  } }, h("label.field", {}, h("span", { text: "Password" }),
    h("input", { name: "password", type: "password", required: true, maxlength: 64, autocomplete: "off" })),
  h("button.primary", { type: "submit", text: "Join" }));
}

function yourPart(t) {
  const you = t.you || { joined: false, withdrawn: false, paused: false, room: null };
  if (t.status === "over") {
    return you.joined || you.withdrawn ? [h("p.muted", { text: "You played in this tournament." })] : [];
  }
  const parts = [];
  if (you.room) {
    parts.push(h("p.your-game", {}, "Your game is on: ",
      h("a.button.primary", { href: `/room/${encodeURIComponent(you.room)}`, text: "Go to your game" })));
  }
  if (!you.joined) {
    parts.push(h("p", { text: you.withdrawn ? "You withdrew: join again to be paired again."
      : "Join to be paired when it starts (late joiners enter with no points)." }), joinForm(t));
    return parts;
  }
  const buttons = [h("button", { type: "button", text: "Withdraw", onclick: () => act("withdraw") })];
  if (t.system === "arena") {
    buttons.unshift(you.paused
      ? h("button.primary", { type: "button", text: "Resume", onclick: () => act("resume") })
      : h("button", { type: "button", text: "Pause", onclick: () => act("pause") }));
  }
  parts.push(h("p", { text: you.paused ? "You are paused: you are not paired until you resume."
    : t.status === "upcoming" ? "You are in: your first game starts with the tournament."
      : "You are in: you are sent to each of your games." }), h("div.actions", {}, buttons));
  return parts;
}

function standings(t) {
  const breaks = t.tiebreaks;
  const row = (line) => h("tr", { dataset: { name: line.name },
    class: [line.withdrawn ? "withdrawn" : "", line.paused ? "paused" : ""].join(" ").trim() || undefined },
  h("td.rank", { text: String(line.rank) }),
  h("td.name", {}, line.name, line.on_fire ? h("span.tag.fire", { title: "On a streak: a win scores double", text: "on fire" }) : null,
    line.withdrawn ? h("span.tag", { text: "withdrawn" }) : null,
    line.paused && !line.withdrawn ? h("span.tag", { text: "paused" }) : null),
  h("td.num.points", { text: points(line.points) }),
  h("td.sheet", { text: line.sheet.map(points).join(" ") }),
  breaks.map((name) => h("td.num", { dataset: { tiebreak: name }, text: points(line.tiebreaks[name] ?? 0) })));
  return [h("thead", {}, h("tr", {}, h("th.rank", { text: "#" }), h("th", { text: "Player" }),
    h("th.num", { text: "Points" }), h("th", { text: "Games" }),
    breaks.map((name) => {
      const [long, short] = TIEBREAK_NAMES[name] || [name, name];
      return h("th.num", { title: long }, h("span.long", { text: long }), h("span.short", { text: short }));
    }))),
  h("tbody", {}, t.standings.length ? t.standings.map(row)
    : h("tr", {}, h("td.muted", { colspan: 4 + breaks.length, text: "Nobody has joined yet." })))];
}

function pairings(t) {
  if (!t.pairings.length) return [h("p.muted", { text: "Not paired yet." })];
  const label = t.system === "arena" ? "Wave" : "Round";
  return [...t.pairings].reverse().map((round) => h("section.round", { dataset: { round: String(round.round) } },
    h("h3", { text: `${label} ${round.round}` }),
    h("ul.round-games", {}, round.games.map((game) => h("li", { dataset: { status: game.status } },
      game.bye ? [h("span", { text: game.players[0] }), h("span.muted", { text: " has a bye" })]
        : [h("span", { text: game.players.join(" – ") }), " ",
          h("a.small", { href: `/room/${encodeURIComponent(game.room)}`,
            text: game.status === "over" ? "replay" : game.status === "playing" ? "watch" : "starting" })])))));
}

function show(t) {
  shown = t;
  document.title = `${t.name} — chükö`;
  fill(document.getElementById("head"), head(t));
  fill(document.getElementById("you"), yourPart(t));
  const podium = document.getElementById("podium-box");
  podium.hidden = !t.podium;
  if (t.podium) {
    fill(document.getElementById("podium"), t.podium.map((line) => h("li", { dataset: { rank: String(line.rank) } },
      h("span.place", { text: PLACES[line.rank - 1] || `${line.rank}th` }),
      h("span.name", { text: line.name }), h("span.muted", { text: ` ${points(line.points)} points` }))));
  }
  fill(document.getElementById("standings"), standings(t));
  fill(document.getElementById("playing"), t.playing.length ? t.playing.map((game) => h("li", {},
    h("span", { text: game.players.join(" – ") }), " ",
    h("a.button.small", { href: game.watch, text: "Watch" })))
    : h("li.muted", { text: t.status === "over" ? "None: it is over." : "None right now." }));
  fill(document.getElementById("pairings"), pairings(t));
  fill(document.getElementById("rules"), t.rules.map((text) => h("p", { text })));
  rememberTournamentRooms(t.id, t.pairings.flatMap((round) => round.games.map((game) => game.room))
    .filter(Boolean));
  sendToGame(t);
}

/** A player whose game has just started goes to it, once per room (coming back to the
 * page during that game leaves them here, with a link to it). */
function sendToGame(t) {
  const room = t.you && t.you.room;
  if (!room) return;
  const sent = JSON.parse(sessionStorage.getItem(SENT) || "[]");
  if (sent.includes(room)) return;
  sessionStorage.setItem(SENT, JSON.stringify([...sent, room].slice(-50)));
  location.href = `/room/${encodeURIComponent(room)}`;
}

async function poll() {
  try {
    show(await api(`/api/tournaments/${encodeURIComponent(id)}`));
    if (pollFailed) notice("");  // the server answers again; an action's refusal stays
    pollFailed = false;
  } catch (error) {
    pollFailed = true;
    notice(error.message, "error");
    // A tournament never shown (none by that id) is not asked for again; one shown is,
    // the server being back in a moment.
    if (!shown) {
      fill(document.getElementById("head"), h("h1", { text: "Tournament" }));
      return;
    }
  }
  if (!shown.final) setTimeout(poll, POLL_MS);
}

poll();
setInterval(tick, 1000);
