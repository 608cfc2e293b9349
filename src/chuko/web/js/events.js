// A tournament as the club's lists show it (the tournaments' page, the lobby's panel, a
// profile): its name linking to its page, what it plays, and when, in the viewer's local
// time, counting down while it is to come (GET /api/tournaments; docs/web-protocol.md,
// "Tournaments").

import { clockText } from "./clocktext.js";
import { h } from "./dom.js";

/** "in 3 min 20 s", "in 2 h 5 min", "in 4 days": the time to go until `at` (seconds since
 * the epoch); "now" once it is past. */
export function countdown(at, now = Date.now() / 1000) {
  const left = Math.round(at - now);
  if (left <= 0) return "starting now";
  if (left < 3600) return `in ${Math.floor(left / 60) ? `${Math.floor(left / 60)} min ` : ""}${left % 60} s`;
  if (left < 86400) return `in ${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`;
  const days = Math.round(left / 86400);
  return `in ${days} day${days === 1 ? "" : "s"}`;
}

/** The local date and time of `at` (seconds since the epoch), as the viewer reads them. */
export function localTime(at) {
  return new Date(at * 1000).toLocaleString([], { weekday: "short", month: "short", day: "numeric",
    hour: "2-digit", minute: "2-digit" });
}

/** What the tournament plays: "Arena · Chükö · 1 min + 2 min · 30 minutes · rated". */
export function eventKind(t) {
  const system = t.system === "arena" ? "Arena" : t.table_size > 2 ? "Tables" : "Swiss";
  const length = t.system === "arena" ? `${t.minutes} minutes` : `${t.rounds} rounds`;
  return [system, t.title, clockText(t.clock), length, t.rated ? "rated" : "casual"].join(" · ");
}

/** One line of a list: the name, what it plays, and when (a countdown ticking in the
 * element's `.countdown`, which `tick` updates). */
export function eventItem(t) {
  const when = t.status === "upcoming"
    ? h("span.when", {}, localTime(t.starts_at), " · ",
      h("span.countdown", { dataset: { at: String(t.starts_at) }, text: countdown(t.starts_at) }))
    : t.status === "running"
      ? h("span.when", { text: t.ends_at ? `until ${localTime(t.ends_at)}` : `round ${t.round} of ${t.rounds}` })
      : h("span.when", { text: `started ${localTime(t.starts_at)}` });
  return h("li.event", { dataset: { id: t.id, status: t.status } },
    h("a.event-name", { href: t.url, text: t.name }),
    t.password ? h("span.tag", { text: "password", title: "An entry code is asked" }) : null,
    t.scheduled ? h("span.tag", { text: "club", title: "On the club's schedule" }) : null,
    h("span.event-kind.muted", { text: eventKind(t) }),
    h("span.event-side", {}, when, h("span.muted", { text: ` · ${t.players} player${t.players === 1 ? "" : "s"}` })));
}

/** Update every countdown on the page; called each second by pages that list upcoming events. */
export function tick() {
  for (const el of document.querySelectorAll(".countdown[data-at]")) {
    el.textContent = countdown(Number(el.dataset.at));
  }
}
