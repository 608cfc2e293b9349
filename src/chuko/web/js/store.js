// What this browser remembers about its rooms (localStorage): the seat token of each room, so
// a reloaded page or a link without its fragment resumes the seat, and the invite links the
// creator may still need to hand out.

const KEY = "chuko.rooms";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}

function save(rooms) {
  try { localStorage.setItem(KEY, JSON.stringify(rooms)); } catch { /* private mode: no memory */ }
}

export function roomInfo(room) {
  return load()[room] || {};
}

export function remember(room, fields) {
  const rooms = load();
  rooms[room] = { ...(rooms[room] || {}), ...fields };
  save(rooms);
}

/** Keep what POST /api/rooms answered. */
export function rememberRoom(created) {
  remember(created.room, {
    token: created.token, seat: created.seat, invites: created.invites, watch_url: created.watch_url,
  });
}
