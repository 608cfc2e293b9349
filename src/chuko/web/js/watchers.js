// Watching a room: "Invite to watch", the link anyone may follow to watch the game (every
// room has one, a game of bots alone too), and beside the seats how many watch now, from the
// `watchers` count the server sends in its states and presence messages (a count, never who).

import { copyText, h } from "./dom.js";
import { number, t, tn } from "./i18n.js";

/** "Invite to watch": opens to the room's spectators' link and a button that copies it. */
export function watchInvite(room) {
  const url = new URL(`/watch/${encodeURIComponent(room)}`, location.href).href;
  const input = h("input.link", {
    type: "text", value: url, readonly: true, "aria-label": t("link to watch this game"),
  });
  const copy = h("button.copy", {
    type: "button", text: t("Copy"),
    onclick: async () => {
      copy.textContent = (await copyText(url, input)) ? t("Copied") : t("Select and copy");
    },
  });
  return h("details.watch-invite", {},
    h("summary", { text: t("Invite to watch") }),
    h("div.watch-link", {},
      h("p.watch-note", { text: t("Anyone with this link can watch the game, not play in it.") }),
      h("div.link-row", {}, input, copy)));
}

/** How many watch, as a chip for the seats' row: a spectator reads "You are watching" (and
 * how many others do), a player "2 watching"; null for a player when nobody watches. */
export function watcherChip(count, spectator) {
  const watching = Number(count) || 0;
  if (spectator) {
    const others = watching - 1;
    const text = others > 0
      ? tn("You and {n} other are watching", "You and {n} others are watching", others) : t("You are watching");
    return h("div.seat-chip.watching", { text });
  }
  if (watching < 1) return null;
  return h("div.seat-chip.watchers", {
    title: tn("{n} person is watching this game", "{n} people are watching this game", watching),
    text: t("{count} watching", { count: number(watching) }),
  });
}
