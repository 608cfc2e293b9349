// Lessons: /learn lists every game's lesson with how far you have come; /learn/<game> shows
// one step at a time on the game's own table (its screen module), sends each move to the
// server, which judges it by the engine (POST /api/lessons/<game>/<step>), and says why a
// wrong one is wrong. The last step starts a real game against a bot.

import { api, fill, gameInfo, h, loadScreen, notice } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import { becomeGuest } from "./site.js";

const $ = (id) => document.getElementById(id);
const page = { course: null, screen: null, at: 0, solved: false, after: null };

async function showIndex() {
  $("lessons").hidden = false;
  const { lessons } = await api("/api/lessons");
  fill($("lesson-list"), ...lessons.map((entry) => {
    const finished = entry.done >= entry.steps;
    const said = finished ? t("done") : entry.done
      ? tn("{done} of {n} step done", "{done} of {n} steps done", entry.steps, { done: number(entry.done) })
      : tn("{n} step", "{n} steps", entry.steps);
    return h("li.lesson-entry", {},
      h("a.lesson-link", { href: `/learn/${encodeURIComponent(entry.game)}` },
        h("strong", { text: entry.title }), h("span.muted", { text: ` · ${said}` })),
      h("span.muted", { text: t("First: {step}", { step: entry.first }) }));
  }));
}

function drawSteps() {
  const { steps, done } = page.course;
  fill($("steps"), ...steps.map((step, index) => h("li", {},
    h("button.step-dot", {
      type: "button", text: number(index + 1),
      class: `step-dot${index === page.at ? " current" : ""}${index < done ? " done" : ""}`,
      "aria-current": index === page.at ? "step" : null,
      "aria-label": index < done ? t("Step {n}: {title} (done)", { n: number(index + 1), title: step.title })
        : t("Step {n}: {title}", { n: number(index + 1), title: step.title }),
      onclick: () => showStep(index),
    }))));
}

/** The lesson's seats as a room names them: you, and the opponents a lesson imagines. */
function seatsOf(step) {
  const count = (step.view.hand_sizes || step.view.scores || []).length;
  const others = Math.max(count - 1, 1);
  return Array.from({ length: count }, (_, seat) => {
    const nth = seat < step.seat ? seat + 1 : seat;
    return { seat, name: others > 1 ? t("Opponent {n}", { n: number(nth) }) : t("Opponent") };
  });
}

function drawBoard() {
  const step = page.course.steps[page.at];
  $("board").hidden = !step.view; // a real game's step has no position to show
  if (!step.view) {
    fill($("board"));
    return;
  }
  // Once solved, the position after the right move, with nothing more to play.
  const view = page.solved && page.after ? page.after : step.view;
  const msg = {
    game: page.course.game, title: page.course.title, seat: step.seat, seats: seatsOf(step),
    status: "playing", version: page.at, view, legal: page.solved ? [] : step.legal,
    result: null,
  };
  page.screen.render($("board"), msg, {
    interactive: !page.solved, send: (move) => attempt(String(move)), hint: null,
    redraw: drawBoard,
  });
}

function verdict(text, kind) {
  const box = $("verdict");
  box.textContent = text || "";
  box.className = text ? `notice ${kind}` : "notice";
}

function showStep(index) {
  page.at = index;
  page.solved = false;
  if (page.screen.cancelSelection) page.screen.cancelSelection();
  const step = page.course.steps[index];
  const total = page.course.steps.length;
  $("step-title").textContent = t("Step {n} of {total}: {title}",
    { n: number(index + 1), total: number(total), title: step.title });
  $("step-text").textContent = step.text;
  verdict("", "");
  $("next").hidden = true;
  $("play").hidden = !step.play;
  drawSteps();
  drawBoard();
  history.replaceState(null, "", `#step=${index + 1}`);
}

async function attempt(move) {
  const number = page.at + 1;
  try {
    await becomeGuest(); // progress is the session player's, guest or account
    const judged = await api(`/api/lessons/${encodeURIComponent(page.course.game)}/${number}`,
      { move });
    if (page.at + 1 !== number) return; // the learner moved on meanwhile
    if (page.screen.cancelSelection) page.screen.cancelSelection();
    if (!judged.right) {
      verdict(judged.sentence, "error");
      drawBoard();
      return;
    }
    page.solved = true;
    page.after = judged.view || null;
    page.course.done = Math.max(page.course.done, judged.done || number);
    verdict(judged.sentence, "good");
    $("next").hidden = page.at + 1 >= page.course.steps.length;
    drawSteps();
    drawBoard();
    $("next").focus();
  } catch (error) {
    verdict(error.message, "error");
  }
}

async function playForReal() {
  const step = page.course.steps[page.at];
  const game = await gameInfo(page.course.game);
  const options = { ...(step.play.options || {}) };
  const players = options.players
    || ((game.options || []).find((o) => o.name === "players") || {}).default
    || game.min_players;
  const seats = [{ kind: "me" }];
  for (let seat = 1; seat < players; seat += 1) seats.push({ kind: "bot", level: step.play.level });
  try {
    await becomeGuest();
    await api(`/api/lessons/${encodeURIComponent(page.course.game)}/${page.at + 1}`, {});
    const created = await api("/api/rooms", { game: game.id, options, seats });
    location.href = `/room/${encodeURIComponent(created.room)}#token=${encodeURIComponent(created.token)}`;
  } catch (error) {
    notice(error.message, "error");
  }
}

async function showLesson(gameId) {
  $("lesson").hidden = false;
  page.course = await api(`/api/lessons/${encodeURIComponent(gameId)}`);
  page.screen = await loadScreen(await gameInfo(gameId));
  document.title = t("Learn {game} — chükö", { game: page.course.title });
  $("lesson-game").textContent = page.course.title;
  $("rules-link").href = `/rules/${encodeURIComponent(gameId)}`;
  $("next").onclick = () => showStep(page.at + 1);
  $("play").onclick = playForReal;
  const asked = Number((location.hash.match(/step=(\d+)/) || [])[1]);
  const total = page.course.steps.length;
  const start = asked >= 1 && asked <= total ? asked - 1 : Math.min(page.course.done, total - 1);
  showStep(start);
}

async function main() {
  const found = location.pathname.match(/^\/learn\/([^/]+)$/);
  try {
    if (found) await showLesson(decodeURIComponent(found[1]));
    else await showIndex();
  } catch (error) {
    notice(error.message, "error");
  }
}

main();
