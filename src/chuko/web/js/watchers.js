// Watching a room: "Invite to watch", the link anyone may follow to watch the game (every
// room has one, a game of bots alone too), and beside the seats how many watch now, from the
// `watchers` count the server sends in its states and presence messages (a count, never who).

import { copyText, h } from "./dom.js";

/** "Invite to watch": opens to the room's spectators' link and a button that copies it. */
export function watchInvite(room) {
  const url = new URL(`/watch/${encodeURIComponent(room)}`, location.href).href;
  const input = h("input.link", {
    type: "text", value: url, readonly: true, "aria-label": "link to watch this game",
  });
  const copy = h("button.copy", {
    type: "button", text: "Copy",
    onclick: async () => {
      copy.textContent = (await copyText(url, input)) ? "Copied" : "Select and copy";
    },
  });
  return h("details.watch-invite", {},
    h("summary", { text: "Invite to watch" }),
    h("div.watch-link", {},
      h("p.watch-note", { text: "Anyone with this link can watch the game, not play in it." }),
      h("div.link-row", {}, input, copy)));
}

/** How many watch, as a chip for the seats' row: a spectator reads "You are watching" (and
 * how many others do), a player "2 watching"; null for a player when nobody watches. */
export function watcherChip(count, spectator) {
  const watching = Number(count) || 0;
  if (spectator) {
    const others = watching - 1;
    const text = others > 0 ? `You and ${others} other${others === 1 ? "" : "s"} are watching` : "You are watching";
    return h("div.seat-chip.watching", { text });
  }
  if (watching < 1) return null;
  return h("div.seat-chip.watchers", {
    title: watching === 1 ? "One person is watching this game" : `${watching} people are watching this game`,
    text: `${watching} watching`,
  });
}
