// Crossroads puzzles: a position from the server (GET /api/puzzles/next), drawn by the
// Crossroads screen with the player's trail at the bottom; the chosen move goes to the
// server (POST /api/puzzles/try), which judges it with the exact solver and answers with
// the verdict, the theme and the player's puzzle rating and its change (docs/web-protocol.md,
// "Puzzles"). The page makes the visitor a guest first, so their rating is kept.

import { api, h, fill, notice } from "./dom.js";
import { number, t } from "./i18n.js";
import { becomeGuest } from "./site.js";
import { render } from "./crossroads.js";

const $ = (id) => document.getElementById(id);
const page = { puzzle: null, answered: false };

function ratingLine(player, change = null) {
  const sign = change > 0 ? "+" : "";
  fill($("rating"),
    h("span", { text: t("Your puzzle rating: {rating}", { rating: player.rating }) }),
    change === null ? null : h("span", {
      class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`,
      text: ` (${sign}${change})`,
    }),
    h("span", { text: ` · ${t("{n} tried", { n: number(player.tries) })}` }));
}

function draw() {
  const puzzle = page.puzzle;
  const msg = {
    view: puzzle.state, seat: puzzle.seat, legal: page.answered ? [] : puzzle.legal,
    seats: [{ name: t("Opponent") }, { name: t("Opponent") }], version: `puzzle-${puzzle.id}`,
  };
  render($("board"), msg, {
    interactive: !page.answered, send: (move) => attempt(String(move)),
    hint: null, hintOutlook: null, redraw: draw,
  });
  $("board").dataset.puzzle = puzzle.id;
}

async function attempt(move) {
  if (page.answered) return;
  page.answered = true;
  draw();
  try {
    const got = await api("/api/puzzles/try", { id: page.puzzle.id, move });
    const verdict = got.verdict;
    $("verdict").hidden = false;
    $("verdict").className = `puzzle-verdict ${verdict.solved ? "solved" : "missed"}`;
    $("verdict-text").textContent = verdict.text;
    $("theme").textContent = verdict.sentence;
    ratingLine(got.player, got.change);
    $("next").focus();
  } catch (error) {
    page.answered = false;
    notice(error.message, "error");
    draw();
  }
}

async function next() {
  notice("");
  $("verdict").hidden = true;
  try {
    const got = await api("/api/puzzles/next");
    page.puzzle = got.puzzle;
    page.answered = false;
    fill($("prompt"), h("strong", { text: t("Puzzle {id}", { id: got.puzzle.id }) }), " ",
      h("span", { text: t("(rating {rating}). {prompt}", { rating: got.puzzle.rating, prompt: got.puzzle.prompt }) }));
    ratingLine(got.player);
    draw();
  } catch (error) {
    notice(error.message, "error");
  }
}

$("next").addEventListener("click", next);
becomeGuest().then(next);
