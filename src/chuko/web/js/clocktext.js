// A clock in words, as the lobby's buttons and the tournaments' pages say it.

import { number, t, tn } from "./i18n.js";

function duration(seconds) {
  return seconds >= 60 && seconds % 60 === 0 ? t("{n} min", { n: number(seconds / 60) })
    : t("{n} s", { n: number(seconds) });
}

/** A clock as its button says it ("10 s + 30 s", "3 days" under a "days a move" line), and
 * in full ("10 s a move + 30 s reserve", "3 days a move"). */
export function clockText(clock, full = false) {
  if (!clock) return t("no clock");
  if (clock.kind === "days") {
    return full ? tn("{n} day a move", "{n} days a move", clock.days) : tn("{n} day", "{n} days", clock.days);
  }
  const [move, reserve] = [duration(clock.seconds), duration(clock.reserve)];
  return full ? t("{move} a move + {reserve} reserve", { move, reserve }) : t("{move} + {reserve}", { move, reserve });
}
