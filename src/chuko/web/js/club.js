// What the leaderboard and profile pages share: the header's links to each game's
// leaderboard, and how ratings, dates and results read.

import { fill, games, h } from "./dom.js";
import { date, number, t } from "./i18n.js";

export const CLASS_NAMES = { duel: t("Heads-up"), multi: t("Multiplayer") };

/** The rating classes a game is played in, by its seat range (as the server decides). */
export function classesOf(game) {
  const most = game.max_players ?? Infinity;
  return ["duel", "multi"].filter((klass) => {
    const seats = klass === "duel" ? 2 : 3;
    return game.min_players <= seats && seats <= most;
  });
}

/** The header's links: every game that has a leaderboard, `current` marked. */
export async function boardNav(current) {
  const nav = document.getElementById("board-nav");
  if (!nav) return;
  try {
    const rated = (await games()).filter((game) => classesOf(game).length);
    fill(nav, h("span.muted", { text: t("Leaderboards:") }), rated.map((game) => h(
      `a${game.id === current ? ".current" : ""}`, {
        href: `/leaderboard/${encodeURIComponent(game.id)}`, text: game.title,
        "aria-current": game.id === current ? "page" : undefined,
      })));
  } catch {
    fill(nav); // the page itself says what failed
  }
}

/** "1623" or "1500?" (provisional) with its uncertainty as a smaller "±480". */
export function ratingText(shown) {
  return h("span.rating", { title: shown.provisional
    ? t("Provisional: too few rated games to be sure yet") : t("Settled rating") },
  h("strong", { text: shown.text ?? String(shown.rating) }),
  h("small.deviation", { text: ` ±${shown.deviation}` }));
}

/** A rating change as players read it: "+12", "−9" (a typographic minus), "±0". */
export function ratingChange(change) {
  if (change > 0) return `+${change}`;
  return change < 0 ? `\u2212${-change}` : "\u00b10";
}

/** A rate (0.58) as the page's language writes a percentage ("58%", "58 %"). */
export const percent = (rate) => (rate === null || rate === undefined ? "–"
  : number(rate, { style: "percent", maximumFractionDigits: 0 }));

/** A date as the page's language writes it, from seconds since the epoch. */
export function day(seconds) {
  return date(seconds * 1000);
}

/** A seat's name, linked to its player's profile when it is an account's. */
export function playerLink(seat) {
  return seat.profile
    ? h("a", { href: `/@/${encodeURIComponent(seat.profile)}`, text: seat.name })
    : h("span", { text: seat.name });
}
