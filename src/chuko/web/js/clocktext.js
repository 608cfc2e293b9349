// A clock in words, as the lobby's buttons and the tournaments' pages say it.

function duration(seconds) {
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/** A clock as its button says it ("10 s + 30 s", "3 days" under a "days a move" line), and
 * in full ("10 s a move + 30 s reserve", "3 days a move"). */
export function clockText(clock, full = false) {
  if (!clock) return "no clock";
  if (clock.kind === "days") return `${clock.days} day${clock.days === 1 ? "" : "s"}${full ? " a move" : ""}`;
  return full ? `${duration(clock.seconds)} a move + ${duration(clock.reserve)} reserve`
    : `${duration(clock.seconds)} + ${duration(clock.reserve)}`;
}
