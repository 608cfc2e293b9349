// Crossroads puzzles (docs/web-protocol.md, "Puzzles"), in two modes. Rated: a position from
// the server (GET /api/puzzles/next, of the chosen theme), drawn by the Crossroads screen with
// the player's trail at the bottom; the chosen move goes to the server (POST
// /api/puzzles/try), which judges it with the exact solver and moves the puzzle rating; after
// a miss the same position may be tried again, judged but unrated. Streak: puzzles of rising
// difficulty, unrated, counted by the server (POST /api/puzzles/streak/start and /try): a
// solve moves straight on to the next, a miss ends the run. The page makes the visitor a
// guest first, so their rating and best streak are kept.

import { api, h, fill, notice } from "./dom.js";
import { becomeGuest } from "./site.js";
import { render } from "./crossroads.js";
import { t, tn, number } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const THEME_KEY = "chuko.puzzles.theme";
const LOG_LENGTH = 5;  // the streak's latest solves in its log
// `tries` counts the tries of the position shown: a retry starts with no card picked up.
const page = { mode: "rated", puzzle: null, tries: 0, answered: false, verdict: null };

/** A rating as players read it: "1623", or "1500?" while provisional. */
function ratingWords(player) {
  const shown = number(player.rating, { useGrouping: false });
  return player.provisional ? t("{rating}?", { rating: shown }) : shown;
}

function ratingLine(player, change = null) {
  fill($("rating"),
    h("span", {
      text: t("Your puzzle rating: {rating}", { rating: ratingWords(player) }),
      title: player.provisional ? t("Provisional: too few tries to be sure yet") : undefined,
    }),
    change === null ? null : " ",
    change === null ? null : h("span", {
      class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`,
      text: t("({change})", { change: number(change, { signDisplay: "exceptZero" }) }),
    }),
    " · ", h("span", { text: tn("{n} puzzle tried", "{n} puzzles tried", player.tries) }));
}

function streakLine(streak) {
  fill($("streak"),
    h("strong", { text: tn("{n} solved in a row", "{n} solved in a row", streak.solved) }),
    " · ", h("span", { text: t("Best: {best}", { best: number(streak.best) }) }));
}

function draw() {
  const puzzle = page.puzzle;
  const opponent = t("Opponent");
  const msg = {
    view: puzzle.state, seat: puzzle.seat, legal: page.answered ? [] : puzzle.legal,
    seats: [{ name: opponent }, { name: opponent }], version: `puzzle-${puzzle.id}-${page.tries}`,
  };
  render($("board"), msg, {
    interactive: !page.answered, send: (move) => answer(String(move)),
    hint: null, hintOutlook: null, redraw: draw,
  });
  $("board").dataset.puzzle = puzzle.id;
}

function show(puzzle) {
  page.puzzle = puzzle;
  page.answered = false;
  page.tries = 0;
  fill($("prompt"), h("strong", { text: t("Puzzle {id}", { id: puzzle.id }) }),
    " ", puzzle.rating === undefined ? null : h("span.muted", {
      text: t("(rated {rating})", { rating: number(puzzle.rating, { useGrouping: false }) }),
    }),
    " ", h("span", { text: puzzle.prompt }));
  draw();
}

function answer(move) {
  if (page.answered) return;
  page.answered = true;
  draw();
  (page.mode === "streak" ? streakTry(move) : attempt(move)).catch((error) => {
    page.answered = false;
    notice(error.message, "error");
    draw();
  });
}

// Rated mode

/** A miss without its answer, so that a retry is still a puzzle. */
function missWords(verdict) {
  return t("Not this one: {move} ({words}) {outcome} with perfect play, and another move does better.",
    { move: verdict.move, words: verdict.move_words, outcome: verdict.yours });
}

async function attempt(move) {
  const got = await api("/api/puzzles/try", { id: page.puzzle.id, move });
  const verdict = got.verdict;
  page.verdict = verdict;
  $("verdict").hidden = false;
  $("verdict").className = `puzzle-verdict ${verdict.solved ? "solved" : "missed"}`;
  $("verdict-text").textContent = verdict.solved ? verdict.text : missWords(verdict);
  $("unrated").hidden = got.rated;
  $("unrated").textContent = got.rated ? ""
    : verdict.solved ? t("Solved on a retry: unrated.") : t("Missed again: a retry is unrated.");
  $("theme").textContent = verdict.solved ? verdict.sentence : "";
  $("retry").hidden = verdict.solved;
  $("reveal").hidden = verdict.solved;
  if (got.rated) ratingLine(got.player, got.change);
  (verdict.solved ? $("next") : $("retry")).focus();
}

function retry() {
  $("verdict").hidden = true;
  page.answered = false;
  page.tries += 1;
  draw();
  $("board").focus();
}

function reveal() {
  $("verdict-text").textContent = page.verdict.text;
  $("theme").textContent = page.verdict.sentence;
  $("reveal").hidden = true;
  $("next").focus();
}

async function next() {
  notice("");
  $("verdict").hidden = true;
  const theme = $("theme-choice").value;
  try {
    const got = await api(`/api/puzzles/next${theme ? `?theme=${encodeURIComponent(theme)}` : ""}`);
    ratingLine(got.player);
    show(got.puzzle);
  } catch (error) {
    clear();  // no puzzle left to give (of the theme): the last one is not this choice's
    notice(error.message, "error");
  }
}

function clear() {
  page.puzzle = null;
  fill($("prompt"));
  fill($("board"));
  delete $("board").dataset.puzzle;
}

async function themes() {
  const choice = $("theme-choice");
  try {
    const got = await api("/api/puzzles/themes");
    choice.append(...got.themes.map((theme) => h("option", {
      value: theme.id, text: t("{theme} ({count})", { theme: theme.name, count: number(theme.count) }),
    })));
  } catch (error) {
    notice(error.message, "error");
  }
  const kept = localStorage.getItem(THEME_KEY) || "";
  choice.value = [...choice.options].some((option) => option.value === kept) ? kept : "";
}

function chooseTheme() {
  localStorage.setItem(THEME_KEY, $("theme-choice").value);
  next();
}

// Streak mode

/** A solve told in a line above the next puzzle, and kept with its verdict in the run's log
 * (its latest few, each numbered by its place in the run). */
function logSolve(verdict, count) {
  notice(t("Puzzle {id} solved: on to a harder one.", { id: verdict.id }), "good");
  const log = $("streak-log");
  log.hidden = false;
  log.append(h("li", { value: count }, h("strong", { text: t("Puzzle {id}", { id: verdict.id }) }),
    " ", h("span", { text: verdict.text })));
  while (log.children.length > LOG_LENGTH) log.firstElementChild.remove();
}

function streakOver(streak, verdict) {
  notice("");
  $("streak-end").hidden = false;
  $("streak-summary").textContent = tn("Streak over: {n} solved in a row. Your best: {best}.",
    "Streak over: {n} solved in a row. Your best: {best}.", streak.solved, { best: number(streak.best) });
  $("streak-answer").textContent = verdict.text;
  $("new-streak").focus();
}

async function streakTry(move) {
  const got = await api("/api/puzzles/streak/try", { move });
  streakLine(got.streak);
  if (got.verdict.solved) logSolve(got.verdict, got.streak.solved);
  if (got.puzzle) show(got.puzzle);
  else streakOver(got.streak, got.verdict);
}

async function startStreak() {
  notice("");
  $("streak-end").hidden = true;
  fill($("streak-log"));
  $("streak-log").hidden = true;
  try {
    const got = await api("/api/puzzles/streak/start", {});
    streakLine(got.streak);
    show(got.puzzle);
  } catch (error) {
    notice(error.message, "error");
  }
}

// The switch between the modes

function switchTo(mode) {
  if (mode === page.mode) return;
  page.mode = mode;
  const streak = mode === "streak";
  $("mode-rated").setAttribute("aria-pressed", String(!streak));
  $("mode-streak").setAttribute("aria-pressed", String(streak));
  for (const id of ["theme-field", "rated-about", "rating"]) $(id).hidden = streak;
  for (const id of ["streak-about", "streak"]) $(id).hidden = !streak;
  for (const id of ["verdict", "streak-end", "streak-log"]) $(id).hidden = true;
  (streak ? startStreak : next)();
}

$("next").addEventListener("click", next);
$("retry").addEventListener("click", retry);
$("reveal").addEventListener("click", reveal);
$("theme-choice").addEventListener("change", chooseTheme);
$("new-streak").addEventListener("click", startStreak);
$("mode-rated").addEventListener("click", () => switchTo("rated"));
$("mode-streak").addEventListener("click", () => switchTo("streak"));
becomeGuest().then(themes).then(next);
