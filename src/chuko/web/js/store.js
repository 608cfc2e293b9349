// What this browser remembers (localStorage): the seat token of each room, so a reloaded
// page or a link without its fragment resumes the seat; the invite links the creator may
// still need to hand out; the player's display name; and each game's last choices on the
// home form, so "New game" starts from them.

const ROOMS = "chuko.rooms";
const NAME = "chuko.name";
const CHOICES = "chuko.choices";

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
  rooms[room] = { ...(rooms[room] || {}), ...fields };
  write(ROOMS, rooms);
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
