// A tournament as the club's lists show it (the tournaments' page, the lobby's panel, a
// profile): its name linking to its page, what it plays, and when, in the viewer's local
// time, counting down while it is to come (GET /api/tournaments; docs/web-protocol.md,
// "Tournaments").

import { clockText } from "./clocktext.js";
import { h } from "./dom.js";
import { date, number, t, tn } from "./i18n.js";

/** "in 3 min 20 s", "in 2 h 5 min", "in 4 days": the time to go until `at` (seconds since
 * the epoch); "now" once it is past. */
export function countdown(at, now = Date.now() / 1000) {
  const left = Math.round(at - now);
  if (left <= 0) return t("starting now");
  const [hours, minutes, seconds] = [Math.floor(left / 3600), Math.floor((left % 3600) / 60), left % 60];
  if (left < 60) return t("in {s} s", { s: number(seconds) });
  if (left < 3600) return t("in {min} min {s} s", { min: number(minutes), s: number(seconds) });
  if (left < 86400) return t("in {h} h {min} min", { h: number(hours), min: number(minutes) });
  return tn("in {n} day", "in {n} days", Math.round(left / 86400));
}

/** The local date and time of `at` (seconds since the epoch), as the viewer reads them. */
export function localTime(at) {
  return date(at * 1000, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** What the tournament plays: "Arena · Chükö · 1 min + 2 min · 30 minutes · rated". */
export function eventKind(tour) {
  const system = tour.system === "arena" ? t("Arena") : tour.table_size > 2 ? t("Tables") : t("Swiss");
  const length = tour.system === "arena" ? tn("{n} minute", "{n} minutes", tour.minutes)
    : tn("{n} round", "{n} rounds", tour.rounds);
  return [system, tour.title, clockText(tour.clock), length, tour.rated ? t("rated") : t("casual")].join(" · ");
}

/** One line of a list: the name, what it plays, and when (a countdown ticking in the
 * element's `.countdown`, which `tick` updates). */
export function eventItem(tour) {
  const when = tour.status === "upcoming"
    ? h("span.when", {}, localTime(tour.starts_at), " · ",
      h("span.countdown", { dataset: { at: String(tour.starts_at) }, text: countdown(tour.starts_at) }))
    : tour.status === "running"
      ? h("span.when", { text: tour.ends_at ? t("until {time}", { time: localTime(tour.ends_at) })
        : t("round {round} of {rounds}", { round: number(tour.round), rounds: number(tour.rounds) }) })
      : h("span.when", { text: t("started {time}", { time: localTime(tour.starts_at) }) });
  return h("li.event", { dataset: { id: tour.id, status: tour.status } },
    h("a.event-name", { href: tour.url, text: tour.name }),
    tour.password ? h("span.tag", { text: t("password"), title: t("An entry code is asked") }) : null,
    tour.scheduled ? h("span.tag", { text: t("club"), title: t("On the club's schedule") }) : null,
    h("span.event-kind.muted", { text: eventKind(tour) }),
    h("span.event-side", {}, when, h("span.muted", { text: ` · ${tn("{n} player", "{n} players", tour.players)}` })));
}

/** Update every countdown on the page; called each second by pages that list upcoming events. */
export function tick() {
  for (const el of document.querySelectorAll(".countdown[data-at]")) {
    el.textContent = countdown(Number(el.dataset.at));
  }
}
