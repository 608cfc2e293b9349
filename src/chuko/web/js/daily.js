// The daily Caravan (/daily, /daily/{YYYY-MM-DD} for a past day): the day's deal on the
// game's own table screen. The server keeps no game in progress: each move is sent with the
// moves before it and the engine answers with the position (or the sentence of a refusal),
// so undo is free and needs no request. A won game is posted as the session's result at
// once; a stuck one waits for an undo or for "Finish". Then the share line, the streak and
// the solver's facts, and the day's leaderboard.

import { api, fill, h, notice } from "./dom.js";
import { date, number, t, tn } from "./i18n.js";
import "./site.js"; // the header's account link

const $ = (id) => document.getElementById(id);
const DAY_MS = 86400000;
// The clock is the server's: it times the game from when the deal was first served to the
// player (this page opened with a session, or the first card laid) to the result. Each
// answer's `elapsed` is its count then; the page runs it on from there (`timed`).
const page = { data: null, screen: null, msgs: [], timed: null, ended: null, busy: false };

function dayOfPath() {
  const found = location.pathname.match(/^\/daily\/(\d{4}-\d{2}-\d{2})\/?$/);
  return found ? found[1] : null;
}

function shiftDay(day, days) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function clock(seconds) {
  if (seconds === null) return t("no time");
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

const bridgeWords = (n) => tn("{n} bridge", "{n} bridges", n);
/** A day ("2026-12-07") as the page's language writes a date. */
const dayWords = (day) => date(`${day}T00:00:00Z`, { dateStyle: "medium", timeZone: "UTC" });
const current = () => page.msgs[page.msgs.length - 1];
const elapsed = () => (page.timed === null ? 0
  : page.timed.seconds + ((page.ended ?? Date.now()) - page.timed.at) / 1000);

function timeFrom(answer) {
  if (answer.elapsed !== undefined && answer.elapsed !== null) {
    page.timed = { seconds: answer.elapsed, at: Date.now() };
  }
}

function drawDays(data) {
  const links = data.date > data.first
    ? [h("a", { href: `/daily/${shiftDay(data.date, -1)}`, text: t("← The day before") })] : [];
  if (data.date < data.today) {
    links.push(h("a", { href: `/daily/${shiftDay(data.date, 1)}`, text: t("The day after →") }),
      h("a", { href: "/daily", text: t("Today's deal") }));
  }
  fill($("days"), links);
}

function drawBar() {
  const msg = current();
  const over = Boolean(msg.view.outcome);
  const lost = over && !msg.view.outcome.winners.length;
  const playing = !page.data.mine;
  fill($("bar"),
    h("span.clock", { "aria-label": t("time"), text: clock(playing ? elapsed() : page.data.mine.seconds) }),
    h("span.muted", { text: page.data.par ? t("Par {par}: {bridges}", { par: number(page.data.par),
      bridges: bridgeWords(page.data.par) }) : t("Par 0: no bridge") }),
    playing ? h("button", { type: "button", id: "undo", text: t("Undo"), disabled: page.msgs.length < 2 || page.busy,
      onclick: undo }) : null,
    playing && lost ? h("button.primary", { type: "button", id: "finish", text: t("Finish with this result"),
      onclick: finish }) : null);
}

function drawBoard() {
  const msg = current();
  page.screen.render($("board"), msg, {
    interactive: !page.data.mine && !msg.view.outcome && !page.busy,
    send: play,
    askHint: null,
    hint: null,
    hintOutlook: null,
    redraw: drawBoard,
  });
  $("board").dataset.version = String(msg.version);
}

function draw() {
  drawBar();
  drawBoard();
}

async function play(move) {
  if (page.busy) return;
  page.busy = true;
  try {
    const moves = [...current().view.moves, String(move)];
    const answer = await api("/api/daily/play", { date: page.data.date, moves });
    timeFrom(answer);
    page.msgs.push(answer);
    notice("");
  } catch (error) {
    notice(error.message, "error");
  } finally {
    page.busy = false;
  }
  const outcome = current().view.outcome;
  if (outcome && outcome.winners.length) await finish();
  else {
    if (outcome) notice(t("No card can go on: undo, or finish with this result."), "info");
    draw();
  }
}

function undo() {
  if (page.msgs.length < 2 || page.data.mine) return;
  page.msgs.pop();
  notice("");
  draw();
}

async function finish() {
  page.ended = Date.now();
  page.busy = true;
  try {
    page.data = await api("/api/daily/result", { date: page.data.date, moves: current().view.moves });
    notice("");
  } catch (error) {
    page.ended = null;
    notice(error.message, "error");
  } finally {
    page.busy = false;
  }
  showAll();
}

function drawResult(data) {
  $("result").hidden = !data.mine;
  if (!data.mine) return;
  $("result").classList.toggle("lost", !data.mine.won);
  $("share").textContent = data.share;
  const streak = data.streak;
  const days = (n) => tn("{n} day", "{n} days", n);
  $("streak").textContent = !streak ? ""
    : streak.current ? t("Streak: {days} in a row won (best {best}).", { days: days(streak.current), best: days(streak.best) })
      : streak.best ? t("No streak running: win today's deal to start one (best {best}).", { best: days(streak.best) })
        : t("No streak running: win today's deal to start one.");
  const past = t("A past day's deal counts for no streak.");
  if (streak && data.date < data.today) $("streak").textContent += ` ${past}`;
  const facts = data.facts;
  const counts = { winning: number(facts.winning_starts), starts: number(facts.starts), line: facts.line.join(" ") };
  $("facts").textContent = data.par
    ? t("{winning} of {starts} first moves keep a win with {bridges} (par) possible. A winning line with the fewest bridges: {line}",
      { ...counts, bridges: bridgeWords(data.par) })
    : t("{winning} of {starts} first moves keep a win with no bridge possible. A winning line with the fewest bridges: {line}", counts);
  document.body.dataset.finished = "true";
}

function drawLeaders(rows) {
  fill($("leaders"), rows.length ? rows.map((row) => h("li", {
    text: t("{name} — {bridges}, {time}", { name: row.name, bridges: bridgeWords(row.bridges), time: clock(row.seconds) }),
  })) : h("li.muted", { text: t("Nobody has won this deal yet.") }));
}

function showAll() {
  const data = page.data;
  $("day-title").textContent = t("Daily Caravan, {day}", { day: dayWords(data.date) });
  $("lead").textContent = data.par
    ? t("One deal a day, the same for everyone. Par {par}: it can be won with {bridges}, and no "
      + "fewer ({allowed} allowed). Undo is free.", { par: number(data.par), bridges: bridgeWords(data.par),
      allowed: number(data.bridges) })
    : t("One deal a day, the same for everyone. Par 0: it can be won with no bridge ({allowed} "
      + "allowed). Undo is free.", { allowed: number(data.bridges) });
  if (data.mine && !current().view.outcome) {
    // Played before (this page did not finish it): the deal as dealt, to look at.
    page.msgs = [{ view: data.view, legal: data.legal, version: data.version }];
  }
  drawDays(data);
  draw();
  drawResult(data);
  drawLeaders(data.board);
}

async function copyShare() {
  const text = $("share").textContent;
  try {
    await navigator.clipboard.writeText(text);
    notice(t("The result line is copied: paste it anywhere."), "good");
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("share"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    notice(t("Copying was refused: the line is selected, copy it with your keyboard."), "info");
  }
}

async function start() {
  const day = dayOfPath();
  try {
    const [data, games] = await Promise.all([api(day ? `/api/daily/${day}` : "/api/daily"), api("/api/games")]);
    page.data = data;
    timeFrom(data);
    page.screen = await import(`./${games.find((game) => game.id === data.game).screen}`);
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  page.msgs = [{ view: page.data.view, legal: page.data.legal, version: page.data.version }];
  $("copy").addEventListener("click", copyShare);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && page.screen.cancelSelection && page.screen.cancelSelection()) drawBoard();
    if ((event.ctrlKey || event.metaKey) && event.key === "z") undo();
  });
  setInterval(() => {  // the clock alone, so the bar's buttons keep their focus
    const shown = $("bar").querySelector(".clock");
    if (shown && !page.data.mine && !page.ended) shown.textContent = clock(elapsed());
  }, 1000);
  showAll();
}

start();
