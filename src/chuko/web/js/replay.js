// /replay/{room}: a finished game move by move, as on lichess. Every frame is drawn in full
// (the game is over, so every card shows) by the game's own screen; beside it the list of
// moves in the engine's words, each with the solver's verdict where the game has a review,
// the first mistake marked. Keys: ← → step, Home and End jump.
//
// The server sends a replay a page at a time (docs/web-protocol.md): the move list comes from
// captions-only pages, the positions from pages of frames fetched as the viewer steps or
// jumps, the next page ahead of time.

import "./site.js";
import { api, fill, gameInfo, h, loadScreen, notice } from "./dom.js";
import { number, t, tn } from "./i18n.js";
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

const FRAMES_PAGE = 50;

/** The move list: the deal, then one row per move with its caption and verdict. */
function drawMoves(frames, firstMistake, go) {
  fill($("moves"), frames.map((frame, index) => {
    const verdict = frame.verdict;
    const first = index > 0 && index === firstMistake;
    return h("li.move", {
      class: `move${verdict && verdict.mistake ? " mistake" : ""}${first ? " first-mistake" : ""}`,
      dataset: { index: String(index) },
    }, h("button.move-button", { type: "button", onclick: () => go(index) },
      h("span.move-number", { text: index ? number(index) : "·" }),
      h("span.move-caption", { text: frame.caption || "" }),
      verdict ? h("span.move-verdict", { text: verdict.text }) : null,
      first ? h("span.mistake-mark", { text: t("first mistake") }) : null));
  }));
}

/** The review's heading: exact (a solver's) or the bots' opinion, and its first mistake,
 * which "Show it" opens with the better move marked on the board. */
function drawSummary(reviewed, firstMistake, opinion, go) {
  const summary = $("review-summary");
  summary.hidden = !reviewed;
  if (!reviewed) return;
  const move = number(firstMistake ?? 0);
  const text = firstMistake === null
    ? opinion ? t("The bots' review, an opinion, not proof: no mistakes.") : t("Review: no mistakes.")
    : opinion ? t("The bots' review, an opinion, not proof: the first mistake is move {move}.", { move })
      : t("Review: the first mistake is move {move}.", { move });
  fill(summary, h("span", { text }), firstMistake === null ? null
    : h("button.jump", { type: "button", text: t("Show it"), onclick: () => go(firstMistake, true) }));
}

/** The review of the move that led to the frame shown. A verdict naming a better move
 * offers to mark it on the board, drawn at the position that move was chosen in (`peek`). */
function drawVerdict(verdict, opinion, peek, toggle) {
  const box = $("verdict");
  box.hidden = !verdict;
  if (!verdict) return fill(box);
  box.className = `verdict${verdict.mistake ? " mistake" : ""}`;
  return fill(box,
    h("span.verdict-text", {
      text: opinion ? t("The bots' opinion: {verdict}", { verdict: verdict.text }) : t("Review: {verdict}", { verdict: verdict.text }),
    }),
    verdict.better ? h("button.better", {
      type: "button", "aria-pressed": peek ? "true" : "false", onclick: toggle,
      text: peek ? t("Show the move played") : t("Show the better move"),
    }) : null,
    peek ? h("span.peek-note", {
      text: t("The board shows the position before this move, with the better move marked."),
    }) : null);
}

/** Every caption and verdict, in captions-only pages (no views: cheap to send). */
async function fetchCaptions(base) {
  const first = await api(`${base}&captions=1&from=0`);
  const frames = [...first.frames];
  while (frames.length < first.total) {
    const next = await api(`${base}&captions=1&from=${frames.length}`);
    if (!next.frames.length) break;
    frames.push(...next.frames);
  }
  return { ...first, frames };
}

/** Scroll the list (not the page) so the current move shows whole. Measured on screen:
 * offsets count from the nearest positioned box, which the panel's heading shifts. */
function keepInView(item) {
  const list = $("moves");
  if (!item || list.scrollHeight <= list.clientHeight) return;
  const rect = item.getBoundingClientRect();
  const top = rect.top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop) list.scrollTop = Math.floor(top);
  else if (top + rect.height > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.ceil(top + rect.height - list.clientHeight);
  }
}

async function main() {
  const room = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || roomInfo(room).token;
  const base = `/api/rooms/${encodeURIComponent(room)}/replay?${token ? `token=${encodeURIComponent(token)}` : ""}`;
  let replay;
  let screen;
  try {
    replay = await fetchCaptions(base);
    const game = await gameInfo(replay.game, replay);
    screen = await loadScreen(game);
    const title = replay.title || game.title;
    const heading = t("{game} — replay", { game: title });
    $("title").textContent = heading;
    document.title = `${heading} — chükö`;
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  const captions = replay.frames || [];
  if (!captions.length) {
    notice(t("This replay has no positions to show."), "error");
    return;
  }
  const views = new Map(); // frame index → view, filled a page at a time
  const asked = new Map(); // first frame of a page → its request
  const fetchFrom = (start) => {
    if (!asked.has(start)) {
      asked.set(start, api(`${base}&from=${start}&count=${FRAMES_PAGE}`).then((page) => {
        page.frames.forEach((frame, k) => views.set(page.from + k, frame.view));
      }).catch((error) => {
        asked.delete(start); // asked again on the next step
        notice(error.message, "error");
      }));
    }
    return asked.get(start);
  };
  const pageOf = (index) => Math.floor(index / FRAMES_PAGE) * FRAMES_PAGE;
  const viewAt = async (index) => {
    if (!views.has(index)) await fetchFrom(pageOf(index));
    // A page cut short by its size in bytes: the rest from the first frame it lacks.
    if (!views.has(index)) await fetchFrom(index);
    return views.get(index);
  };
  const firstView = await viewAt(0);
  const seat = replay.seat ?? (firstView ? firstView.seat : null) ?? null;
  $("rules-link").href = `/rules/${encodeURIComponent(replay.game)}`;
  drawPlayers(replay, seat);
  const slider = $("slider");
  slider.max = String(captions.length - 1);
  const moves = captions.length - 1;
  let at = 0;
  const dealLabel = tn("deal · {n} move", "deal · {n} moves", moves);
  const moveOf = (at) => t("move {move} of {moves}", { move: number(at), moves: number(moves) });
  Object.assign($("counter").dataset, { deal: dealLabel, last: moveOf(moves) });
  // A game's review may be the bots' judgement rather than a solver's: said so throughout.
  const opinion = captions.some(({ verdict }) => verdict && verdict.opinion);
  let shows = 0; // the latest show(): an earlier one still waiting for its view draws nothing
  const render = (index, view, better) => {
    const msg = {
      game: replay.game, title: replay.title, seat, seats: replay.seats || [], status: "replay",
      version: index, view, legal: [], result: null,
    };
    // The better move is marked as a hint is: the screen draws hints on a board no one plays.
    screen.render($("board"), msg, {
      interactive: false, send: () => {}, hint: better ? { [better]: t("better") } : null,
      still: true, redraw: () => render(index, view, better),
    });
    $("board").dataset.frame = String(index);
    if (better) $("board").dataset.better = better;
    else delete $("board").dataset.better;
  };
  const show = async (index, better = false) => {
    at = Math.max(0, Math.min(moves, index));
    const ticket = ++shows;
    const shown = at;
    slider.value = String(at);
    fill($("counter"), h("span", { text: at === 0 ? dealLabel : moveOf(at) }));
    const { caption, verdict } = captions[at];
    // "Show it": the position the move was chosen in, with the better move marked.
    const peek = better && at > 0 && verdict && verdict.better ? verdict.better : null;
    $("caption").textContent = caption || "";
    drawVerdict(verdict, opinion, peek, () => show(shown, !peek));
    for (const item of $("moves").children) {
      const current = Number(item.dataset.index) === at;
      item.classList.toggle("current", current);
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    keepInView($("moves").children[at]);
    const frame = peek ? at - 1 : at;
    const view = await viewAt(frame);
    if (view !== undefined && ticket === shows) {
      render(frame, view, peek);
      // The board can change the page's width (its scroll bar), and so the list's wrapping.
      keepInView($("moves").children[at]);
    }
    // The neighbouring page, before the viewer steps into it.
    const edge = shown - pageOf(shown);
    if (edge >= FRAMES_PAGE - 5 && pageOf(shown) + FRAMES_PAGE <= moves) fetchFrom(pageOf(shown) + FRAMES_PAGE);
    if (edge < 5 && pageOf(shown) > 0) fetchFrom(pageOf(shown) - FRAMES_PAGE);
  };
  drawMoves(captions, replay.first_mistake, show);
  drawSummary(replay.reviewed, replay.first_mistake, opinion, show);
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(moves);
  slider.oninput = () => show(Number(slider.value));
  // A narrower window wraps the list's lines: the current move stays in view.
  window.addEventListener("resize", () => keepInView($("moves").children[at]));
  const keys = { ArrowLeft: () => at - 1, ArrowRight: () => at + 1, Home: () => 0, End: () => moves };
  document.addEventListener("keydown", (event) => {
    // The slider steps itself with these keys; a text box keeps them for its caret.
    if (!keys[event.key] || event.target.closest("input, textarea, select")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(keys[event.key]());
  });
  // Until now a click had nothing to act on; the page opens at the last position.
  for (const id of ["first", "prev", "slider", "next", "last"]) $(id).disabled = false;
  show(moves);
}

main();
