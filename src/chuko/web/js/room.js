// The play screen for /room/{room}#token=…, /join/{room}/{invite} and /watch/{room}: connects
// to the room, draws each snapshot with the game's screen module, sends the player's moves.

import { api, copyText, fill, gameInfo, h, loadScreen, notice } from "./dom.js";
import { remember, roomInfo } from "./store.js";
import { RoomSocket } from "./socket.js";
import { listing, seatLabel } from "./seats.js";

const $ = (id) => document.getElementById(id);

const page = {
  room: null,
  token: null,
  socket: null,
  msg: null,        // the last state snapshot
  screen: null,     // the game's screen module, once loaded
  loading: null,    // the promise that loads it
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

function canHint(msg) {
  return Boolean(msg.hints && msg.hintable);
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
  seat.seat === msg.seat && seat.name ? h("span.level", { text: seat.name }) : null,
  seat.joined ? null : h("span.level", { text: "waiting" }))));
}

function statusText(msg) {
  if (msg.status === "waiting") {
    const open = msg.seats.filter((s) => !s.joined).length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"} to join.`;
  }
  if (msg.status === "over") return msg.result || "The game is over.";
  if (isMyTurn(msg)) return "Your turn.";
  const toMove = (msg.view.to_move || []).map((s) => seatLabel(msg, s));
  if (msg.seat === null || msg.seat === undefined) return `${listing(toMove)} to move.`;
  // Seats that move at once in secret: who is still thinking is not news worth naming.
  if (msg.simultaneous) return "Waiting for the others…";
  return `Waiting for ${listing(toMove)}.`;
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
      h("span.link-label", { text: `For ${seatLabel(msg, invite.seat)}` }), input,
      h("button.copy", {
        type: "button", text: "Copy",
        onclick: async (event) => {
          if (await copyText(url, input)) event.target.textContent = "Copied";
        },
      }));
  }));
}

function drawTools(msg) {
  const tools = [];
  // A screen that offers hints in its own words (asksHints) gets no second button.
  if (canHint(msg) && isMyTurn(msg) && !page.screen.asksHints) {
    tools.push(h("button.hint", { type: "button", text: "Hint", onclick: () => send({ type: "hint" }) }));
  }
  const hint = page.hint && page.hint.version === msg.version ? page.hint : null;
  if (hint && hint.note) tools.push(h("span.hint-note", { text: hint.note }));
  fill($("tools"), tools);
}

function drawLog() {
  fill($("log"), page.log.slice(-6).reverse().map((line) => h("div.log-line", { text: line })));
}

/** The game's title and screen, fetched once: the snapshot names the game, the catalog its
 * screen module. */
async function prepare(msg) {
  const game = await gameInfo(msg.game, msg).catch(() => ({ id: msg.game, title: msg.title }));
  const title = msg.title || game.title || "";
  document.title = `${title} — chükö`;
  $("title").textContent = title;
  $("rules-link").href = `/rules/${encodeURIComponent(msg.game)}`;
  try {
    page.screen = await loadScreen(game);
  } catch {
    notice("This game's screen did not load; showing the plain one.", "error");
    page.screen = await loadScreen({});
  }
  draw();
}

function draw() {
  const msg = page.msg;
  if (!msg || !page.screen) return;
  drawSeats(msg);
  drawStatus(msg);
  drawInvites(msg);
  const hint = page.hint && page.hint.version === msg.version ? page.hint.values : null;
  page.screen.render($("board"), msg, {
    interactive: isMyTurn(msg),
    send: (move) => send({ type: "move", move: String(move) }),
    askHint: canHint(msg) ? () => send({ type: "hint" }) : null,
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
    page.loading = page.loading || prepare(msg);
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
