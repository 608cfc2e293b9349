// The seats' clocks at the table: each state message carries `clock` (null, or {control,
// seats: [{left, running}], now}); the page shows each seat's time beside its name and
// counts the running ones down between messages. The server keeps the clocks and decides
// when one runs out: this only draws them.

import { number, t } from "./i18n.js";

// The page's clock minus the server's, as small as seen lately: a message is built at the
// server's `now` and read here a little later, so the smallest gap is the closest to the
// true offset (plus the shortest trip). A message that waited in a queue reads as older
// than it is by exactly the time it waited, which is right: its clocks ran meanwhile.
const OFFSETS_KEPT = 20;
const RED_BELOW_S = 10;

const clocks = {
  clock: null,      // the last message's `clock`
  receivedAt: 0,    // Date.now() when it came
  offsets: [],      // recent (received - server now) gaps, in ms
  timer: null,
};

/** Keep a state message's clocks; start or stop the ticking that redraws them. */
export function takeClocks(msg) {
  const clock = msg.clock || null;
  clocks.clock = clock;
  clocks.receivedAt = Date.now();
  if (clock && Number.isFinite(clock.now)) {
    clocks.offsets.push(clocks.receivedAt - clock.now * 1000);
    if (clocks.offsets.length > OFFSETS_KEPT) clocks.offsets.shift();
  }
  const running = clock && msg.status === "playing" && clock.seats.some((seat) => seat.running);
  if (running && !clocks.timer) clocks.timer = setInterval(drawClocks, 250);
  if (!running && clocks.timer) {
    clearInterval(clocks.timer);
    clocks.timer = null;
  }
}

/** Seconds a seat has left now: the message's value, less the time since the server
 * worked it out when its clock runs. */
export function secondsLeft(seat, now = Date.now()) {
  const clock = clocks.clock;
  const entry = clock && clock.seats[seat];
  if (!entry) return null;
  if (!entry.running) return entry.left;
  const offset = clocks.offsets.length ? Math.min(...clocks.offsets) : clocks.receivedAt - clock.now * 1000;
  const built = Number.isFinite(clock.now) ? clock.now * 1000 + offset : clocks.receivedAt;
  return Math.max(0, entry.left - Math.max(0, now - built) / 1000);
}

const pad = (n) => String(n).padStart(2, "0");

/** "0:42", "12:05"; "3 h 12 min" past an hour; "2 d 4 h" past a day (correspondence). */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole >= 86400) {
    const days = Math.floor(whole / 86400);
    const hours = Math.floor((whole % 86400) / 3600);
    return hours ? t("{days} d {hours} h", { days: number(days), hours: number(hours) }) : t("{days} d", { days: number(days) });
  }
  if (whole >= 3600) {
    return t("{hours} h {minutes} min", { hours: number(Math.floor(whole / 3600)), minutes: pad(Math.floor((whole % 3600) / 60)) });
  }
  return `${Math.floor(whole / 60)}:${pad(whole % 60)}`;
}

/** A seat's clock element for its chip (null where the room has no clock). */
export function clockChip(seat) {
  const clock = clocks.clock;
  if (!clock || !clock.seats[seat]) return null;
  const el = document.createElement("span");
  el.className = "clock";
  el.dataset.clockSeat = String(seat);
  drawClock(el);
  return el;
}

function drawClock(el) {
  const seat = Number(el.dataset.clockSeat);
  const entry = clocks.clock && clocks.clock.seats[seat];
  if (!entry) return;
  const left = secondsLeft(seat);
  const text = clockText(left);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("running", Boolean(entry.running));
  el.classList.toggle("low", Boolean(entry.running) && left < RED_BELOW_S);
  el.title = entry.running ? t("time left on this move") : t("time for the next move");
}

/** Redraw every clock on the page from the last message and the time now. */
export function drawClocks() {
  for (const el of document.querySelectorAll("[data-clock-seat]")) drawClock(el);
}
