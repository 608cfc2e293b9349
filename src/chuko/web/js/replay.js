// /replay/{room}: a finished game move by move, as on lichess. Every frame is drawn in full
// (the game is over, so every card shows) by the game's own screen; beside it the list of
// moves in the engine's words, each with the solver's verdict where the game has a review,
// the first mistake marked. Keys: ← → step, Home and End jump.

import { api, fill, gameInfo, h, loadScreen, notice } from "./dom.js";
import { seatLabel } from "./seats.js";
import { roomInfo } from "./store.js";

const $ = (id) => document.getElementById(id);

function drawPlayers(replay, seat) {
  const msg = { seat, seats: replay.seats || [] };
  fill($("players"), msg.seats.map((info) => h("span.seat-chip", {
    class: `seat-chip${info.seat === seat ? " me" : ""}`, dataset: { seat: String(info.seat) },
  }, h("span.name", { text: seatLabel(msg, info.seat) }),
  info.seat === seat && info.name ? h("span.level", { text: info.name }) : null)));
}

/** The move list: the deal, then one row per move with its caption and verdict. */
function drawMoves(frames, review, go) {
  const firstMistake = review ? review.findIndex((entry) => entry && entry.mistake) : -1;
  fill($("moves"), frames.map((frame, index) => {
    const verdict = index > 0 && review ? review[index - 1] : null;
    const first = index > 0 && index - 1 === firstMistake;
    return h("li.move", {
      class: `move${verdict && verdict.mistake ? " mistake" : ""}${first ? " first-mistake" : ""}`,
      dataset: { index: String(index) },
    }, h("button.move-button", { type: "button", onclick: () => go(index) },
      h("span.move-number", { text: index ? String(index) : "·" }),
      h("span.move-caption", { text: frame.caption || "" }),
      verdict ? h("span.move-verdict", { text: verdict.text }) : null,
      first ? h("span.mistake-mark", { text: "first mistake" }) : null));
  }));
  const summary = $("review-summary");
  summary.hidden = !review;
  if (!review) return;
  fill(summary, firstMistake < 0
    ? h("span", { text: "Review: no mistakes." })
    : [h("span", { text: `Review: the first mistake is move ${firstMistake + 1}.` }),
      h("button.jump", { type: "button", text: "Show it", onclick: () => go(firstMistake + 1) })]);
}

/** Scroll the list (not the page) so the current move shows. */
function keepInView(item) {
  const list = $("moves");
  if (!item || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + item.offsetHeight - list.clientHeight;
  }
}

async function main() {
  const room = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || roomInfo(room).token;
  let replay;
  let screen;
  try {
    replay = await api(`/api/rooms/${encodeURIComponent(room)}/replay${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    const game = await gameInfo(replay.game, replay);
    screen = await loadScreen(game);
    const title = replay.title || game.title;
    $("title").textContent = `${title} — replay`;
    document.title = `${title} — replay — chükö`;
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  const frames = replay.frames || [];
  if (!frames.length) {
    notice("This replay has no positions to show.", "error");
    return;
  }
  const review = Array.isArray(replay.review) ? replay.review : null;
  const seat = replay.seat ?? frames[0].view.seat ?? null;
  $("rules-link").href = `/rules/${encodeURIComponent(replay.game)}`;
  drawPlayers(replay, seat);
  const slider = $("slider");
  slider.max = String(frames.length - 1);
  const moves = frames.length - 1;
  let at = 0;
  const show = (index) => {
    at = Math.max(0, Math.min(moves, index));
    slider.value = String(at);
    $("counter").textContent = at === 0 ? `deal · ${moves} move${moves === 1 ? "" : "s"}` : `move ${at} of ${moves}`;
    const { view, caption } = frames[at];
    const msg = {
      game: replay.game, title: replay.title, seat, seats: replay.seats || [], status: "replay",
      version: at, view, legal: [], result: null,
    };
    screen.render($("board"), msg, {
      interactive: false, send: () => {}, hint: null, still: true, redraw: () => show(at),
    });
    $("board").dataset.frame = String(at);
    $("caption").textContent = caption || "";
    const verdict = at > 0 && review ? review[at - 1] : null;
    const box = $("verdict");
    box.hidden = !verdict;
    box.className = `verdict${verdict && verdict.mistake ? " mistake" : ""}`;
    box.textContent = verdict ? `Review: ${verdict.text}` : "";
    for (const item of $("moves").children) {
      const current = Number(item.dataset.index) === at;
      item.classList.toggle("current", current);
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    keepInView($("moves").children[at]);
  };
  drawMoves(frames, review, show);
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(moves);
  slider.oninput = () => show(Number(slider.value));
  const keys = { ArrowLeft: () => at - 1, ArrowRight: () => at + 1, Home: () => 0, End: () => moves };
  document.addEventListener("keydown", (event) => {
    // The slider steps itself with these keys; a text box keeps them for its caret.
    if (!keys[event.key] || event.target.closest("input, textarea, select")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(keys[event.key]());
  });
  show(moves);
}

main();
