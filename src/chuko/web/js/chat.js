// Quick messages at the table: a player picks one of four phrases, the server passes it to
// everyone in the room (`said`), and it shows beside the speaker's seat for a few seconds.
// No free text. A player may hide the others' phrases, remembered in this browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { readPref, writePref } from "./store.js";

export const PHRASES = { gl: t("Good luck"), wp: t("Well played"), ty: t("Thanks"), gg: t("Good game") };
const SHOWN_MS = 5000;
const QUIET = "chuko.quiet";  // true: the others' quick messages are not shown

const said = new Map();  // seat → {text, until}
let redraw = () => {};

export function quiet() {
  return readPref(QUIET, false) === true;
}

/** A `said` message: shown beside the seat (unless muted, and always for your own), read
 * aloud by screen readers through the live region, and gone after a few seconds. */
export function hear(msg, mine, name) {
  const text = PHRASES[msg.phrase];
  if (!text || (quiet() && !mine)) return;
  said.set(msg.seat, { text, at: Date.now(), until: Date.now() + SHOWN_MS });
  const region = document.getElementById("said-aloud");
  if (region) region.textContent = t("{name}: {phrase}", { name, phrase: text });
  redraw();
  setTimeout(() => {
    const entry = said.get(msg.seat);
    if (entry && entry.until <= Date.now()) {
      said.delete(msg.seat);
      redraw();
    }
  }, SHOWN_MS + 50);
}

/** The bubble for a seat's chip while its phrase shows. */
export function bubble(seat) {
  const entry = said.get(seat);
  if (!entry || entry.until <= Date.now()) return null;
  // It slides in once, when it comes, not again each time the seats are redrawn.
  return h(`span.said${Date.now() - entry.at < 300 ? ".fresh" : ""}`, {
    dataset: { saidSeat: String(seat) }, text: entry.text,
  });
}

/** {menu, mute}: the menu of phrases for a player (`say(code)` sends one; null for a
 * spectator), and the switch that hides the others' phrases. `onRedraw` redraws the seats
 * when a phrase comes or goes. */
export function chatControls(say, player, onRedraw) {
  redraw = onRedraw;
  let menu = null;
  if (player) {
    menu = h("details.quick", {},
      h("summary", { text: t("Quick message") }),
      h("div.quick-list", { role: "menu" }, Object.entries(PHRASES).map(([code, text]) => h("button.phrase", {
        type: "button", role: "menuitem", dataset: { phrase: code }, text,
        onclick: () => {
          say(code);
          menu.open = false;
        },
      }))));
    // Open, it closes on a click anywhere else, as a menu does.
    document.addEventListener("click", (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
    menu.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
  }
  const mute = h("button.pref.mute-said", {
    type: "button", "aria-pressed": String(quiet()), text: t("Mute messages"),
    title: t("Hide the other players' quick messages"),
    onclick: () => {
      const now = !quiet();
      writePref(QUIET, now);
      mute.setAttribute("aria-pressed", String(now));
      if (now) said.clear();
      redraw();
    },
  });
  return { menu, mute };
}
