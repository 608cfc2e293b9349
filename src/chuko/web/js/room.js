// The play screen for /room/{room}#token=…, /join/{room}/{invite} and /watch/{room}: connects
// to the room, draws each snapshot with the game's screen module, sends the player's moves.

import { api, fill, GAME_TITLES, h, notice } from "./dom.js";
import { remember, roomInfo } from "./store.js";
import { RoomSocket } from "./socket.js";
import { seatLabel } from "./seats.js";
import * as caravan from "./caravan.js";
import * as chuchula from "./chuchula.js";
import * as chuko from "./chuko.js";
import * as crossroads from "./crossroads.js";

const SCREENS = { caravan, chuchula, chuko, crossroads };
const $ = (id) => document.getElementById(id);

const page = {
  room: null,
  token: null,
  socket: null,
  msg: null,        // the last state snapshot
  hint: null,       // {version, values, note} while it still applies
  log: [],          // what happened, newest last
  lastVersion: -1,
};

/** Where this page is: {kind: "room"|"join"|"watch", room, invite}. */
function where() {
  const [, kind, room, invite] = location.pathname.split("/").map(decodeURIComponent);
  return { kind, room, invite };
}

function fragmentToken() {
  return new URLSearchParams(location.hash.slice(1)).get("token");
}

async function takeInvite(room, invite) {
  const known = roomInfo(room);
  if (known.invite === invite && known.token) return known.token;
  const joined = await api(`/api/rooms/${encodeURIComponent(room)}/join`, { invite });
  remember(room, { token: joined.token, seat: joined.seat, invite });
  return joined.token;
}

function send(msg) {
  notice("");
  page.socket.send(msg);
}

function isMyTurn(msg) {
  return msg.status === "playing" && msg.seat !== null && msg.seat !== undefined
    && (msg.view.to_move || []).includes(msg.seat);
}

function drawSeats(msg) {
  const toMove = msg.view.to_move || [];
  fill($("seats"), msg.seats.map((seat) => h("div.seat-chip", {
    class: [
      "seat-chip",
      seat.seat === msg.seat ? "me" : "",
      toMove.includes(seat.seat) && msg.status === "playing" ? "to-move" : "",
      seat.joined ? "" : "open",
    ].join(" "),
    dataset: { seat: String(seat.seat) },
  },
  h("span.dot", { class: `dot ${seat.kind === "bot" || seat.connected ? "on" : "off"}`,
    title: seat.kind === "bot" ? "bot" : seat.connected ? "connected" : "not connected" }),
  h("span.name", { text: seatLabel(msg, seat.seat) }),
  seat.kind === "bot" ? h("span.level", { text: seat.level }) : null,
  seat.joined ? null : h("span.level", { text: "waiting" }))));
}

function statusText(msg) {
  if (msg.status === "waiting") {
    const open = msg.seats.filter((s) => !s.joined).length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"} to join.`;
  }
  if (msg.status === "over") {
    return `Game over. ${msg.view.outcome ? msg.view.outcome.reason : ""}`;
  }
  if (isMyTurn(msg)) return "Your turn.";
  const toMove = msg.view.to_move || [];
  if (msg.seat === null || msg.seat === undefined) {
    return `${toMove.map((s) => seatLabel(msg, s)).join(", ")} to move.`;
  }
  if (msg.game === "chuchula") return "Waiting for the others to commit their groups.";
  return `Waiting for ${toMove.map((s) => seatLabel(msg, s)).join(", ")}.`;
}

function drawStatus(msg) {
  const parts = [h("span", { text: statusText(msg) })];
  if (msg.status === "over") {
    const token = page.token ? `#token=${encodeURIComponent(page.token)}` : "";
    parts.push(h("a.button", { href: `/replay/${encodeURIComponent(page.room)}${token}`, text: "Replay" }));
    parts.push(h("a.button", { href: "/", text: "New game" }));
  }
  const box = $("status");
  box.className = `status ${msg.status}${isMyTurn(msg) ? " my-turn" : ""}`;
  fill(box, parts);
}

function drawInvites(msg) {
  const box = $("invites");
  const invites = (roomInfo(page.room).invites || [])
    .filter((invite) => msg.seats[invite.seat] && !msg.seats[invite.seat].joined);
  box.hidden = msg.status !== "waiting" || !invites.length;
  if (box.hidden) return;
  fill(box, h("h3", { text: "Send these invite links" }), invites.map((invite) => {
    const url = new URL(invite.url, location.href).href;
    const input = h("input.link", { type: "text", value: url, readonly: true });
    return h("div.link-row", {},
      h("span.link-label", { text: `Seat ${invite.seat}` }), input,
      h("button.copy", {
        type: "button", text: "Copy",
        onclick: (event) => navigator.clipboard.writeText(url).then(
          () => { event.target.textContent = "Copied"; },
          () => { input.focus(); input.select(); }),
      }));
  }));
}

function drawTools(msg) {
  const tools = [];
  if (msg.hintable && isMyTurn(msg) && msg.game !== "chuchula") {
    tools.push(h("button.hint", { type: "button", text: "Hint", onclick: () => send({ type: "hint" }) }));
  }
  const hint = page.hint && page.hint.version === msg.version ? page.hint : null;
  if (hint && hint.note) tools.push(h("span.hint-note", { text: hint.note }));
  fill($("tools"), tools);
}

function drawLog() {
  fill($("log"), page.log.slice(-6).reverse().map((line) => h("div.log-line", { text: line })));
}

function draw() {
  const msg = page.msg;
  if (!msg) return;
  const screen = SCREENS[msg.game];
  document.title = `${GAME_TITLES[msg.game] || msg.game} — chükö`;
  $("title").textContent = GAME_TITLES[msg.game] || msg.game;
  $("rules-link").href = `/rules/${msg.game}`;
  drawSeats(msg);
  drawStatus(msg);
  drawInvites(msg);
  const hint = page.hint && page.hint.version === msg.version ? page.hint.values : null;
  screen.render($("board"), msg, {
    interactive: isMyTurn(msg),
    send: (move) => send({ type: "move", move: String(move) }),
    askHint: msg.hintable ? () => send({ type: "hint" }) : null,
    hint,
    redraw: draw,
  });
  drawTools(msg);
  drawLog();
  // Tests and scripts wait on this to know a new snapshot has been drawn.
  $("board").dataset.version = String(msg.version);
}

function onMessage(msg) {
  if (msg.type === "state") {
    if (msg.version !== page.lastVersion) {
      if (msg.last) page.log.push(msg.last);
      page.lastVersion = msg.version;
      notice("");
    }
    page.msg = msg;
    draw();
  } else if (msg.type === "hint") {
    page.hint = { version: page.msg ? page.msg.version : -1, values: msg.values || {}, note: msg.note };
    draw();
  } else if (msg.type === "error") {
    notice(msg.message, "error");
  }
}

function onLine(status) {
  const conn = $("conn");
  conn.className = `conn ${status}`;
  conn.textContent = { open: "online", retrying: "reconnecting…", closed: "offline" }[status];
}

async function main() {
  const { kind, room, invite } = where();
  page.room = room;
  if (!room) {
    notice("This address names no room.", "error");
    return;
  }
  try {
    if (kind === "join") {
      page.token = await takeInvite(room, invite);
      history.replaceState(null, "", `/room/${encodeURIComponent(room)}#token=${encodeURIComponent(page.token)}`);
    } else if (kind === "room") {
      page.token = fragmentToken() || roomInfo(room).token || null;
      if (fragmentToken()) remember(room, { token: page.token });
      if (!page.token) notice("This link has no seat token, so you are watching.", "info");
    }
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  page.socket = new RoomSocket(room, page.token, { onMessage, onStatus: onLine });
}

main();
