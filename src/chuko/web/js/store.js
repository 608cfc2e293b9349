// What this browser remembers (localStorage): the seat token of each room, so a reloaded
// page or a link without its fragment resumes the seat, and a summary of the game (its
// title, status and players) for the home page's "your games"; the invite links the creator
// may still need to hand out; the player's display name; each game's last choices on the
// home form, so "New game" starts from them; the tournament each room seen on a
// tournament's page belongs to; and small settings (sound, quick messages).

const ROOMS = "chuko.rooms";
const NAME = "chuko.name";
const CHOICES = "chuko.choices";
const TOURNAMENT_ROOMS = "chuko.tournament-rooms";
const MAX_TOURNAMENT_ROOMS = 200;
// Rooms remembered at most: the oldest seen go first, those still in play last.
const MAX_ROOMS = 60;

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: no memory */ }
}

export function roomInfo(room) {
  return read(ROOMS, {})[room] || {};
}

export function remember(room, fields) {
  const rooms = read(ROOMS, {});
  rooms[room] = { ...(rooms[room] || {}), seen: Date.now(), ...fields };
  const ids = Object.keys(rooms);
  if (ids.length > MAX_ROOMS) {
    const keep = (id) => [rooms[id].status === "playing" ? 1 : 0, rooms[id].seen || 0];
    ids.sort((a, b) => keep(a)[0] - keep(b)[0] || keep(a)[1] - keep(b)[1]);
    for (const id of ids.slice(0, ids.length - MAX_ROOMS)) delete rooms[id];
  }
  write(ROOMS, rooms);
}

/** Every room this browser remembers, as [id, info], the most recently seen first. */
export function rememberedRooms() {
  return Object.entries(read(ROOMS, {}))
    .filter(([, info]) => info && typeof info === "object")
    .sort(([, a], [, b]) => (b.seen || 0) - (a.seen || 0));
}

/** A room to forget (it has closed, or the server no longer knows it). */
export function forget(room) {
  const rooms = read(ROOMS, {});
  delete rooms[room];
  write(ROOMS, rooms);
}

/** A small setting of the player's (the sound on or off …), `fallback` before any. */
export function readPref(key, fallback) {
  return read(key, fallback);
}

export function writePref(key, value) {
  write(key, value);
}

/** Keep what POST /api/rooms (or a rematch, or a follow) answered. */
export function rememberRoom(created) {
  remember(created.room, {
    token: created.token, seat: created.seat, invites: created.invites || [],
    watch_url: created.watch_url,
  });
}

/** The display name this browser last used ("" before any). */
export function savedName() {
  const name = read(NAME, "");
  return typeof name === "string" ? name : "";
}

export function saveName(name) {
  write(NAME, name);
}

/** The home form's last choices for a game: {options: {...}, seats: [{kind, level}]}. */
export function savedChoices(game) {
  return read(CHOICES, {})[game] || null;
}

export function saveChoices(game, choices) {
  const all = read(CHOICES, {});
  all[game] = choices;
  write(CHOICES, all);
}

/** The rooms a tournament's page shows belong to it: their end panels lead back to it. */
export function rememberTournamentRooms(tournament, rooms) {
  const known = read(TOURNAMENT_ROOMS, {});
  let changed = false;
  for (const room of rooms) {
    if (known[room] !== tournament) { delete known[room]; known[room] = tournament; changed = true; }
  }
  if (!changed) return;
  const ids = Object.keys(known);  // in the order they were first seen
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_TOURNAMENT_ROOMS))) delete known[id];
  write(TOURNAMENT_ROOMS, known);
}

/** The tournament a room belongs to, as this browser saw it on the tournament's page; null
 * when it saw none. */
export function tournamentOf(room) {
  const id = read(TOURNAMENT_ROOMS, {})[room];
  return typeof id === "string" ? id : null;
}
