// /tournament/{id}: a tournament's settings and rules in words, joining (with its password
// when it has one), withdrawing, pausing and resuming, the standings, the games in progress
// to watch, the pairings by round and, once it is over, the podium
// (GET /api/tournaments/{id}; docs/web-protocol.md, "Tournaments"). While it is to come or
// running the page asks again every 2 s, and sends a player whose game starts to its room.

import "./site.js";
import { clockText } from "./clocktext.js";
import { api, fill, h, notice, withNodes } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import { countdown, eventKind, localTime, tick } from "./events.js";
import { becomeGuest } from "./site.js";
import { rememberTournamentRooms } from "./store.js";

const POLL_MS = 2000;
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
// Each tie-break's name, and its short form for a phone's narrow table.
const TIEBREAK_NAMES = { buchholz: [t("Buchholz"), t("Bh")], sonneborn_berger: [t("Sonneborn–Berger"), t("SB")] };
const PLACES = [t("1st"), t("2nd"), t("3rd")];
const SENT = `tournament-sent:${id}`;  // the rooms this tab was sent to already

let shown = null;
let pollFailed = false;  // the notice says the last poll failed

const points = (value) => (Number.isInteger(value) ? number(value)
  : value % 1 === 0.5 ? `${value < 1 ? "" : number(Math.floor(value))}½`
    : number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

function head(tour) {
  const rating = tour.rating_min !== null || tour.rating_max !== null
    ? t("rated {low} to {high} only", { low: tour.rating_min ?? 0, high: tour.rating_max ?? 4000 }) : null;
  const when = tour.status === "upcoming"
    ? h("p.when", {}, t("Starts {time}", { time: localTime(tour.starts_at) }), " · ",
      h("span.countdown", { dataset: { at: String(tour.starts_at) }, text: countdown(tour.starts_at) }))
    : tour.status === "running"
      ? h("p.when", { text: tour.system === "arena" ? t("Playing until {time}", { time: localTime(tour.ends_at) })
        : t("Round {round} of {rounds}", { round: number(tour.round), rounds: number(tour.rounds) }) })
      : h("p.when", { text: tour.final ? t("Over.") : t("Over: the last games are being played.") });
  return [h("h1", { text: tour.name }),
    h("p.event-kind", { text: eventKind(tour) }),
    h("p.muted", { text: [clockText(tour.clock, true), tn("{n} player", "{n} players", tour.players),
      rating, tour.password ? t("password") : null, tour.scheduled ? t("on the club's schedule") : null]
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

function joinForm(tour) {
  if (!tour.password) {
    return h("button.primary", { type: "button", text: t("Join"), onclick: () => act("join") });
  }
  return h("form.join-form", { onsubmit: (event) => {
    event.preventDefault();
    act("join", { password: event.target.elements.password.value });
  } }, h("label.field", {}, h("span", { text: t("Password") }),
    h("input", { name: "password", type: "password", required: true, maxlength: 64, autocomplete: "off" })),
  h("button.primary", { type: "submit", text: t("Join") }));
}

function yourPart(tour) {
  const you = tour.you || { joined: false, withdrawn: false, paused: false, room: null };
  if (tour.status === "over") {
    return you.joined || you.withdrawn ? [h("p.muted", { text: t("You played in this tournament.") })] : [];
  }
  const parts = [];
  if (you.room) {
    parts.push(h("p.your-game", {}, withNodes(t("Your game is on: {link}"), {
      link: h("a.button.primary", { href: `/room/${encodeURIComponent(you.room)}`, text: t("Go to your game") }) })));
  }
  if (!you.joined) {
    parts.push(h("p", { text: you.withdrawn ? t("You withdrew: join again to be paired again.")
      : t("Join to be paired when it starts (late joiners enter with no points).") }), joinForm(tour));
    return parts;
  }
  const buttons = [h("button", { type: "button", text: t("Withdraw"), onclick: () => act("withdraw") })];
  if (tour.system === "arena") {
    buttons.unshift(you.paused
      ? h("button.primary", { type: "button", text: t("Resume"), onclick: () => act("resume") })
      : h("button", { type: "button", text: t("Pause"), onclick: () => act("pause") }));
  }
  parts.push(h("p", { text: you.paused ? t("You are paused: you are not paired until you resume.")
    : tour.status === "upcoming" ? t("You are in: your first game starts with the tournament.")
      : t("You are in: you are sent to each of your games.") }), h("div.actions", {}, buttons));
  return parts;
}

function standings(tour) {
  const breaks = tour.tiebreaks;
  const row = (line) => h("tr", { dataset: { name: line.name },
    class: [line.withdrawn ? "withdrawn" : "", line.paused ? "paused" : ""].join(" ").trim() || undefined },
  h("td.rank", { text: number(line.rank) }),
  h("td.name", {}, line.name, line.on_fire ? h("span.tag.fire", { title: t("On a streak: a win scores double"), text: t("on fire") }) : null,
    line.withdrawn ? h("span.tag", { text: t("withdrawn") }) : null,
    line.paused && !line.withdrawn ? h("span.tag", { text: t("paused") }) : null),
  h("td.num.points", { text: points(line.points) }),
  h("td.sheet", { text: line.sheet.map(points).join(" ") }),
  breaks.map((name) => h("td.num", { dataset: { tiebreak: name }, text: points(line.tiebreaks[name] ?? 0) })));
  return [h("thead", {}, h("tr", {}, h("th.rank", { text: "#" }), h("th", { text: t("Player") }),
    h("th.num", { text: t("Points") }), h("th", { text: t("Games") }),
    breaks.map((name) => {
      const [long, short] = TIEBREAK_NAMES[name] || [name, name];
      return h("th.num", { title: long }, h("span.long", { text: long }), h("span.short", { text: short }));
    }))),
  h("tbody", {}, tour.standings.length ? tour.standings.map(row)
    : h("tr", {}, h("td.muted", { colspan: 4 + breaks.length, text: t("Nobody has joined yet.") })))];
}

function pairings(tour) {
  if (!tour.pairings.length) return [h("p.muted", { text: t("Not paired yet.") })];
  const label = (n) => (tour.system === "arena" ? t("Wave {n}", { n: number(n) }) : t("Round {n}", { n: number(n) }));
  return [...tour.pairings].reverse().map((round) => h("section.round", { dataset: { round: String(round.round) } },
    h("h3", { text: label(round.round) }),
    h("ul.round-games", {}, round.games.map((game) => h("li", { dataset: { status: game.status } },
      game.bye ? withNodes(t("{player} has a bye"), { player: h("span", { text: game.players[0] }) })
        : [h("span", { text: game.players.join(" – ") }), " ",
          h("a.small", { href: `/room/${encodeURIComponent(game.room)}`,
            text: game.status === "over" ? t("replay") : game.status === "playing" ? t("watch") : t("starting") })])))));
}

function show(tour) {
  shown = tour;
  document.title = t("{name} — chükö", { name: tour.name });
  fill(document.getElementById("head"), head(tour));
  fill(document.getElementById("you"), yourPart(tour));
  const podium = document.getElementById("podium-box");
  podium.hidden = !tour.podium;
  if (tour.podium) {
    fill(document.getElementById("podium"), tour.podium.map((line) => h("li", { dataset: { rank: String(line.rank) } },
      h("span.place", { text: PLACES[line.rank - 1] || t("{n}th", { n: number(line.rank) }) }),
      h("span.name", { text: line.name }), " ",
      h("span.muted", { text: t("{points} points", { points: points(line.points) }) }))));
  }
  fill(document.getElementById("standings"), standings(tour));
  fill(document.getElementById("playing"), tour.playing.length ? tour.playing.map((game) => h("li", {},
    h("span", { text: game.players.join(" – ") }), " ",
    h("a.button.small", { href: game.watch, text: t("Watch") })))
    : h("li.muted", { text: tour.status === "over" ? t("None: it is over.") : t("None right now.") }));
  fill(document.getElementById("pairings"), pairings(tour));
  fill(document.getElementById("rules"), tour.rules.map((text) => h("p", { text })));
  rememberTournamentRooms(tour.id, tour.pairings.flatMap((round) => round.games.map((game) => game.room))
    .filter(Boolean));
  sendToGame(tour);
}

/** A player whose game has just started goes to it, once per room (coming back to the
 * page during that game leaves them here, with a link to it). */
function sendToGame(tour) {
  const room = tour.you && tour.you.room;
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
      fill(document.getElementById("head"), h("h1", { text: t("Tournament") }));
      return;
    }
  }
  if (!shown.final) setTimeout(poll, POLL_MS);
}

poll();
setInterval(tick, 1000);
