// Names of seats as a screen shows them: players never see a seat number.

import { lang, t } from "./i18n.js";

/** "You", or the seat's name from the snapshot ("Host", "Friend", "Easy bot 2"). */
export function seatLabel(msg, seat) {
  if (seat === null || seat === undefined) return "";
  if (msg.seat === seat) return t("You");
  const info = (msg.seats || [])[seat];
  return (info && info.name) || t("Another player");
}

/** "a", "a and b", "a, b and c", as the page's language joins a list. */
export function listing(words) {
  try {
    return new Intl.ListFormat(lang, { type: "conjunction" }).format(words);
  } catch {
    return new Intl.ListFormat("en", { type: "conjunction" }).format(words);
  }
}
