// "Your games" on the home page: the games this browser holds a seat in, still going on or
// just finished, each a click from its table or its replay. A guest's list comes from this
// browser's memory (store.js), which every room page keeps up to date; it is refreshed from
// the server room by room, and where the server knows the player (an account, a guest's
// cookie) its own list (`GET /api/me/games`) is merged in.

import { api, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { forget, remember, rememberedRooms } from "./store.js";
import { listing } from "./seats.js";

const SHOWN = 8;        // games listed under each heading
const REFRESHED = 12;   // rooms in play asked of the server each time the page opens

/** What the home page shows of a room, from a state message its seat was sent. */
export function summarize(msg) {
  const mine = msg.seat;
  const toMove = msg.status === "playing" ? (msg.view && msg.view.to_move) || [] : [];
  return {
    game: msg.game,
    title: msg.title,
    status: msg.status,
    yourTurn: mine !== null && mine !== undefined && toMove.includes(mine),
    toMove: toMove.filter((seat) => seat !== mine).map((seat) => (msg.seats[seat] || {}).name || t("Another player")),
    opponents: (msg.seats || []).filter((seat) => seat.seat !== mine).map((seat) => seat.name),
    result: msg.status === "playing" ? null : msg.result || null,
  };
}

// A seat's token where this browser holds it; else the server's own link (its session
// cookie takes the player back to their seat).
function roomLink(id, info) {
  if (!info.token && info.url) return info.url;
  const token = info.token ? `#token=${encodeURIComponent(info.token)}` : "";
  return `/room/${encodeURIComponent(id)}${token}`;
}

function replayLink(id, info) {
  if (!info.token && info.replay) return info.replay;
  const token = info.token ? `#token=${encodeURIComponent(info.token)}` : "";
  return `/replay/${encodeURIComponent(id)}${token}`;
}

function whoseTurn(info) {
  if (info.status === "waiting") return t("Waiting for the players");
  if (info.yourTurn) return t("Your turn");
  if (info.toMove && info.toMove.length) return t("{players} to move", { players: listing(info.toMove) });
  return t("In play");
}

function gameRow(id, info) {
  const going = info.status !== "over";
  const opponents = (info.opponents || []).filter(Boolean);
  return h(`li.your-game${info.yourTurn && going ? ".your-turn" : ""}`, { dataset: { room: id } },
    h("div.your-game-text", {},
      h("span.your-game-title", { text: info.title || info.game || t("A game") }),
      h("span.your-game-who", { text: opponents.length ? t("with {players}", { players: listing(opponents) }) : "" }),
      h("span.your-game-state", { text: going ? whoseTurn(info) : info.result || t("Game over") })),
    going
      ? h("a.button.primary.continue", { href: roomLink(id, info), text: t("Continue") })
      : h("a.button.replay", { href: replayLink(id, info), text: t("Replay") }));
}

/** A room this browser holds a seat in, asked of the server again: its summary is kept;
 * a room the server no longer has is forgotten. */
async function refresh(id, info) {
  try {
    const msg = await api(`/api/rooms/${encodeURIComponent(id)}?token=${encodeURIComponent(info.token)}`);
    const summary = summarize(msg);
    remember(id, { ...summary, seen: info.seen });
    return { ...info, ...summary };
  } catch (error) {
    if (/no room|not found|closed/i.test(error.message)) forget(id);
    return info;
  }
}

/** The server's own list for the player it knows; nothing where it has none. */
async function serverGames() {
  try {
    const games = await api("/api/me/games");
    return games && typeof games === "object" ? games : {};
  } catch {
    return {};
  }
}

/** A link of this site's own (a path), else null. */
function ownPath(value) {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : null;
}

/** An entry of `GET /api/me/games` as this page keeps a room: {room, game, title,
 * status, at, seat, seats: [{seat, name}], url, replay, your_turn, to_move, sentence}. */
function fromServer(entry, status) {
  const seats = Array.isArray(entry.seats) ? entry.seats : [];
  const me = seats.find((seat) => seat && seat.seat === entry.seat);
  const names = seats.filter((seat) => seat && seat.seat !== entry.seat).map((seat) => seat.name);
  const toMove = Array.isArray(entry.to_move) ? entry.to_move : [];
  return {
    game: entry.game, title: entry.title, status: entry.status || status,
    yourTurn: Boolean(entry.your_turn), opponents: names.filter(Boolean),
    toMove: toMove.filter((name) => !me || name !== me.name),
    result: entry.sentence || entry.result || null,
    url: ownPath(entry.url),
    replay: ownPath(entry.replay),
    seen: Number.isFinite(entry.at) ? entry.at * 1000 : 0,
  };
}

/** Fill `box` with the player's games: in play first (yours to move at the top), then the
 * recent finished ones. Hidden when there are none. */
export async function showYourGames(box) {
  const held = rememberedRooms().filter(([, info]) => info.token && info.status);
  const draw = (rooms) => {
    const playing = rooms.filter(([, info]) => info.status === "playing" || info.status === "waiting")
      .sort(([, a], [, b]) => Number(b.yourTurn) - Number(a.yourTurn) || (b.seen || 0) - (a.seen || 0))
      .slice(0, SHOWN);
    const recent = rooms.filter(([, info]) => info.status === "over").slice(0, SHOWN);
    box.hidden = !playing.length && !recent.length;
    fill(box,
      playing.length ? [h("h2", { text: t("Your games in progress") }),
        h("ul.your-games-list.in-play", {}, playing.map(([id, info]) => gameRow(id, info)))] : null,
      recent.length ? [h("h2", { text: t("Recent games") }),
        h("ul.your-games-list.recent", {}, recent.map(([id, info]) => gameRow(id, info)))] : null);
  };
  draw(held);  // at once, from this browser's memory
  const going = held.filter(([, info]) => info.status !== "over").slice(0, REFRESHED);
  const [fresh, server] = await Promise.all([
    Promise.all(going.map(async ([id, info]) => [id, await refresh(id, info)])), serverGames()]);
  const rooms = new Map(held);
  for (const [id, info] of fresh) rooms.set(id, info);
  for (const [list, status] of [[server.playing, "playing"], [server.finished || server.recent, "over"]]) {
    for (const entry of Array.isArray(list) ? list : []) {
      if (!entry || typeof entry.room !== "string") continue;
      const known = rooms.get(entry.room) || {};
      const listed = fromServer(entry, status);
      // The server knows best where the game is; this browser knows the seat's token.
      rooms.set(entry.room, { ...known, ...listed, token: known.token, seen: known.seen || listed.seen });
    }
  }
  const kept = new Set(rememberedRooms().map(([id]) => id));
  draw([...rooms].filter(([id, info]) => kept.has(id) || !info.token)
    .sort(([, a], [, b]) => (b.seen || 0) - (a.seen || 0)));
  box.dataset.ready = "true";
}
